package gtp_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/gtp"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// TestGTPD4TimeCommands (GTP-D4): time_settings, kgs-time_settings and
// time_left are understood and checked; malformed ones fail with GTP's
// answers.
func TestGTPD4TimeCommands(t *testing.T) {
	got := session(t, engine.Options{Variant: engine.VariantGo, Size: 9}, `
time_settings 300 30 5
time_settings 300 0 0
time_settings 0 30 0
time_settings 300 x 0
time_settings 300 30
kgs-time_settings none
kgs-time_settings absolute 600
kgs-time_settings byoyomi 300 30 5
kgs-time_settings canadian 600 300 25
kgs-time_settings byoyomi 300 30
kgs-time_settings fischer 300 5
kgs-time_settings byoyomi 300 30 99
time_left black 120 0
time_left white 25 3
time_left green 1 0
time_left black -1 0
known_command kgs-time_settings
known_command time_left
`)
	want := []string{"=", "=", "=", "?syntax error", "?syntax error", "=", "=", "=", "=", "?syntax error", "?syntax error", "?bad time settings",
		"=", "=", "?invalid color", "?syntax error", "=true", "=true"}
	if len(got) != len(want) {
		t.Fatalf("answers %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("answer %d: %q, want %q", i+1, got[i], want[i])
		}
	}
}

// TestGTPD4GenmoveKeepsWithinTheClock (GTP-D4, CLK-D11): a bot level
// without any limit of its own (10⁹ playouts) still answers genmove
// within its clock once the controller says how little time is left.
func TestGTPD4GenmoveKeepsWithinTheClock(t *testing.T) {
	srv, err := gtp.NewServer(engine.Options{Variant: engine.VariantGo, Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	srv.SetLevel(bot.Level{Playouts: 1e9})
	for _, cmd := range [][]string{{"kgs-time_settings", "absolute", "60"}, {"time_left", "black", "4", "0"}} {
		if _, err := srv.Execute(cmd[0], cmd[1:]); err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
	}
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := srv.Execute("genmove", []string{"black"})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("genmove with 4 s left took %v", time.Since(start))
	case <-time.After(testenv.Duration(30 * time.Second)):
		t.Fatal("genmove with 4 s left on the clock still thinking after 30 s")
	}
}

// TestGTPD4EngineToldTheClock (GTP-D4): an engine playing a game with a
// clock is given the time settings and its time left before each
// genmove: byo-yomi through kgs-time_settings, and in byo-yomi the
// period's time with the periods left.
func TestGTPD4EngineToldTheClock(t *testing.T) {
	c, commands := engineWithLog(t, "E5")
	o := engine.Options{Variant: engine.VariantGo, Size: 9, Time: clock.MustParse("5m+3x30s")}
	o, err := o.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGoGame(o)
	if err != nil {
		t.Fatal(err)
	}
	p := gtp.NewEnginePlayer(c, &fixedPlayer{action: protocol.Play{Point: 3}})
	clocks := [2]clock.State{{Main: 0, Periods: 2}, {Main: 4 * time.Minute, Periods: 3}}
	v := protocol.View{Role: protocol.Inviter, Color: engine.Black, Options: o, MyTurn: true, Variant: gorules.View{Game: g},
		Clock: &protocol.ClockView{Control: o.Time, Lag: o.Lag, Clocks: clocks, Running: protocol.Inviter, Runs: [2]bool{true, false}}}
	if a, ok := p.Choose(v).(protocol.Play); !ok || a.Point.Vertex(9) != "E5" {
		t.Fatalf("action %#v, want the engine's E5", a)
	}
	got := commands()
	for _, want := range []string{"kgs-time_settings byoyomi 300 30 3", "time_left black 30 2"} {
		if !slices.Contains(got, want) {
			t.Errorf("the engine was not sent %q: %q", want, got)
		}
	}
	if i, j := slices.Index(got, "time_left black 30 2"), slices.Index(got, "genmove black"); i < 0 || j < i {
		t.Errorf("time_left does not come before genmove: %q", got)
	}
}
