package bot

import (
	"errors"
	"testing"
	"time"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want Level
		err  bool
	}{
		{in: "1", want: Levels[1]},
		{in: "3", want: DefaultLevel},
		{in: " 5 ", want: Levels[5]},
		{in: "Beginner", want: Levels[1]},
		{in: "hard", want: Levels[4]},
		{in: "playouts=1234", want: Level{Playouts: 1234}},
		{in: "playouts=500,time=1.5s", want: Level{Playouts: 500, Time: 1500 * time.Millisecond}},
		{in: "time=2s", want: Level{Playouts: 1e9, Time: 2 * time.Second}},
		{in: "0", err: true},
		{in: "6", err: true},
		{in: "", err: true},
		{in: "playouts=0", err: true},
		{in: "playouts=x", err: true},
		{in: "time=-1s", err: true},
		{in: "time=2h", err: true},
		{in: "depth=3", err: true},
		{in: "fast", err: true},
		// BOT-D6: the judgements can be turned off.
		{in: "3,resign=off", want: Level{Playouts: 6000, NoResign: true}},
		{in: "medium,pass=late,resign=off", want: Level{Playouts: 6000, NoResign: true, NoEarlyPass: true}},
		{in: "playouts=500,pass=late", want: Level{Playouts: 500, NoEarlyPass: true}},
		{in: "3,resign=maybe", err: true},
		{in: "3,pass=never", err: true},
		{in: "3,playouts=5", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			if tt.err {
				if !errors.Is(err, ErrBadLevel) {
					t.Fatalf("ParseLevel(%q) = %v, %v; want ErrBadLevel", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseLevel(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
			again, err := ParseLevel(got.String())
			if err != nil || again != got {
				t.Errorf("ParseLevel(%q.String() = %q) = %v, %v", tt.in, got.String(), again, err)
			}
		})
	}
}

// TestLevelPlayoutsFor checks the scaling of BOT-D2: the full budget on
// 9×9 and smaller boards, less on larger ones, never under 16 unless the
// level itself is smaller.
func TestLevelPlayoutsFor(t *testing.T) {
	l := Level{Playouts: 6000}
	if got := l.PlayoutsFor(9); got != 6000 {
		t.Errorf("9×9: %d, want 6000", got)
	}
	if got := l.PlayoutsFor(5); got != 6000 {
		t.Errorf("5×5: %d, want 6000", got)
	}
	n13, n19 := l.PlayoutsFor(13), l.PlayoutsFor(19)
	if !(n19 < n13 && n13 < 6000 && n19 > 1500) {
		t.Errorf("13×13: %d, 19×19: %d; want 1500 < 19×19 < 13×13 < 6000", n13, n19)
	}
	if got := (Level{Playouts: 20}).PlayoutsFor(19); got != 16 {
		t.Errorf("tiny level on 19×19: %d, want 16", got)
	}
	if got := (Level{Playouts: 5}).PlayoutsFor(19); got != 5 {
		t.Errorf("level of 5 playouts on 19×19: %d, want 5", got)
	}
}

func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"1", "medium", "playouts=10,time=1s", "time=5ms", "playouts=,", "="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLevel(s)
		if err != nil {
			return
		}
		if l.Playouts < 1 || l.Time < 0 {
			t.Fatalf("ParseLevel(%q) = %+v", s, l)
		}
		again, err := ParseLevel(l.String())
		if err != nil || again != l {
			t.Fatalf("round trip of %q: %q gives %+v, %v", s, l.String(), again, err)
		}
	})
}
