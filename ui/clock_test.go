package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
)

// TestCLKD12ClockLines (CLK-D12): the panel shows both clocks ticking
// down from when the running one started, byo-yomi periods and Canadian
// stones left, the running clock marked and a warning in its last 10 s.
func TestCLKD12ClockLines(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	view := func(control string, clocks [2]clock.State, running protocol.Role) *GameModel {
		c := clock.MustParse(control)
		var runs [2]bool
		runs[running] = true
		return &GameModel{View: protocol.View{Role: protocol.Inviter, Color: engine.Black,
			Clock: &protocol.ClockView{Control: c, Lag: time.Second, Clocks: clocks, Running: running, Runs: runs, Since: start}}}
	}
	both := func(m *GameModel) *GameModel {
		m.View.Clock.Runs = [2]bool{true, true}
		return m
	}
	used := func(m *GameModel, d time.Duration) *GameModel {
		m.View.Clock.Used[m.View.Clock.Running] = d
		return m
	}
	for _, tc := range []struct {
		name    string
		m       *GameModel
		at      time.Duration
		want    []string
		warnsMe bool
	}{
		{"absolute, Black running", view("5m", [2]clock.State{{Main: 5 * time.Minute}, {Main: 4 * time.Minute}}, protocol.Inviter), 28 * time.Second,
			[]string{"Clock: 5m absolute", "Black 4:32 ◀", "White 4:00"}, false},
		{"absolute, last 10 s", view("5m", [2]clock.State{{Main: 15 * time.Second}, {Main: 4 * time.Minute}}, protocol.Inviter), 6 * time.Second,
			[]string{"Black 0:09 ◀ ⚠"}, true},
		{"the opponent's warning", view("5m", [2]clock.State{{Main: time.Minute}, {Main: 5 * time.Second}}, protocol.Invitee), time.Second,
			[]string{"White 0:04 ◀ ⚠", "Black 1:00"}, false},
		{"byo-yomi, into the periods", view("1m+3x30s", [2]clock.State{{Main: 10 * time.Second, Periods: 3}, {Main: time.Minute, Periods: 3}}, protocol.Inviter), 45 * time.Second,
			[]string{"Black 0:25 2×30s left ◀", "White 1:00 + 3×30s"}, false},
		{"byo-yomi, a fresh period", view("1m+3x30s", [2]clock.State{{Periods: 2}, {Main: time.Minute, Periods: 3}}, protocol.Invitee), 5 * time.Second,
			[]string{"Black 0:30 2×30s left", "White 0:55 + 3×30s ◀"}, false},
		{"Canadian overtime", view("1m+5/2m", [2]clock.State{{Overtime: true, Block: 90 * time.Second, Stones: 3}, {Main: time.Minute}}, protocol.Inviter), 30 * time.Second,
			[]string{"Black 1:00 3 stones ◀", "White 1:00 + 5/2m"}, false},
		{"flag fell", view("5m", [2]clock.State{{Flagged: true}, {Main: time.Minute}}, protocol.Inviter), 0,
			[]string{"Black 0:00 flag fell"}, false},
		{"F-Go, both running (CLK-D14)", both(view("5m", [2]clock.State{{Main: 5 * time.Minute}, {Main: 4 * time.Minute}}, protocol.Inviter)), 28 * time.Second,
			[]string{"Black 4:32 ◀", "White 3:32 ◀"}, false},
		{"Phantom Go, after an illegal try (CLK-D16)", used(view("5m", [2]clock.State{{Main: 5 * time.Minute}, {Main: 4 * time.Minute}}, protocol.Inviter), 20*time.Second), 8 * time.Second,
			[]string{"Black 4:32 ◀", "White 4:00"}, false},
	} {
		now := start.Add(tc.at)
		got := strings.Join(ClockLines(tc.m, now), "\n")
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the clock lines lack %q:\n%s", tc.name, w, got)
			}
		}
		if warns := clockWarnsMe(tc.m, now); warns != tc.warnsMe {
			t.Errorf("%s: warns me %v, want %v", tc.name, warns, tc.warnsMe)
		}
	}
	if lines := ClockLines(&GameModel{}, start); lines != nil {
		t.Errorf("a game without a clock shows %q", lines)
	}
}

// TestCLKD12InvitationShowsTheClock (CLK-D12): the options as the
// invitation dialog and the games list write them name the clock.
func TestCLKD12InvitationShowsTheClock(t *testing.T) {
	o := engine.Options{Variant: engine.VariantGo, Size: 9, Komi: 7.5, Time: clock.MustParse("5m+3x30s")}
	if got, want := DescribeOptions(o), "Go 9×9, komi 7.5, clock 5m + 3 × 30s byo-yomi"; got != want {
		t.Errorf("DescribeOptions = %q, want %q", got, want)
	}
	o.Time = clock.Control{}
	if got := DescribeOptions(o); strings.Contains(got, "clock") {
		t.Errorf("DescribeOptions without a clock = %q", got)
	}
}

// TestCLKD12LobbyFormTakesTheCommandLineClock (CLK-D12): the lobby's
// games with clocks (plain Go, Bridge Go, Hidden Move Go) take the clock kakure play --time gave;
// the variants without clocks do not.
func TestCLKD12LobbyFormTakesTheCommandLineClock(t *testing.T) {
	c := clock.MustParse("10m+5s")
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", nil, engine.Options{Variant: engine.VariantGo, Time: c})
	o, err := l.Options()
	if err != nil || o.Time != c || o.Lag != engine.DefaultLag {
		t.Errorf("plain Go from the form: %+v, %v; want the clock %v", o, err, c)
	}
	l.SetDefaults(engine.Options{Variant: engine.VariantPhantom, Time: c})
	if o, err := l.Options(); err != nil || o.Time != c {
		t.Errorf("Phantom Go from the form: %+v, %v; want the clock %v (CLK-D16)", o, err, c)
	}
}
