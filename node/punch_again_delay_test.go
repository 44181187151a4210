package node

import (
	"testing"
	"time"
)

// TestPunchAgainDelayFromEnv: KAKURE_PUNCH_AGAIN_DELAY sets the delay of
// the second hole punch (NET-D15); anything but a positive duration
// leaves the default.
func TestPunchAgainDelayFromEnv(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  time.Duration
	}{
		{"", defaultPunchAgainDelay},
		{"10s", 10 * time.Second},
		{"1m30s", 90 * time.Second},
		{"soon", defaultPunchAgainDelay},
		{"0", defaultPunchAgainDelay},
		{"-5s", defaultPunchAgainDelay},
	} {
		if got := parsePunchAgainDelay(tt.value); got != tt.want {
			t.Errorf("KAKURE_PUNCH_AGAIN_DELAY=%q: delay %v, want %v", tt.value, got, tt.want)
		}
	}
}

// TestNETD42PunchLagFromEnv: KAKURE_TEST_PUNCH_LAG delays the dial of
// kakure's hole punches after the SYNC, for tests; anything but a Go
// duration of zero or more leaves none.
func TestNETD42PunchLagFromEnv(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  time.Duration
	}{
		{"", 0},
		{"250ms", 250 * time.Millisecond},
		{"0", 0},
		{"late", 0},
		{"-5ms", 0},
	} {
		if got := parsePunchLag(tt.value); got != tt.want {
			t.Errorf("KAKURE_TEST_PUNCH_LAG=%q: lag %v, want %v", tt.value, got, tt.want)
		}
	}
}
