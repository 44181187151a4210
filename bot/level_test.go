package bot

import (
	"errors"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/gorules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
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
		// BOT-D8: a wait after the thinking.
		{in: "1,wait=2s", want: Level{Playouts: 300, Wait: 2 * time.Second}},
		{in: "playouts=500,resign=off,wait=150ms", want: Level{Playouts: 500, NoResign: true, Wait: 150 * time.Millisecond}},
		{in: "1,wait=0s", err: true},
		{in: "1,wait=2h", err: true},
		{in: "1,wait=soon", err: true},
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

// TestBOTD8WaitPacesTheBot: a bot at "1,wait=300ms" takes at least
// 300 ms over a move of 5×5 Go (level 1 alone answers far sooner); under
// a clock whose share for the move is spent it does not wait at all
// (waiting never costs a game on time).
func TestBOTD8WaitPacesTheBot(t *testing.T) {
	o := engine.Options{Variant: engine.VariantGo, Size: 5, Komi: 0.5}
	game, err := engine.NewGoGame(o)
	if err != nil {
		t.Fatal(err)
	}
	view := func(c *protocol.ClockView) protocol.View {
		return protocol.View{Color: engine.Black, Options: o, MyTurn: true, Phase: protocol.PhasePlay,
			Variant: gorules.View{Game: game}, Clock: c}
	}
	level, err := ParseLevel("1,wait=300ms")
	if err != nil {
		t.Fatal(err)
	}
	const wait = 300 * time.Millisecond
	start := time.Now()
	if _, ok := New(level, 1).Choose(view(nil)).(protocol.Play); !ok {
		t.Fatal("no move")
	}
	if took := time.Since(start); took < wait {
		t.Errorf("the bot answered after %v, want at least the level's wait %v", took, wait)
	}

	// Absolute time with 200 ms left, of which the move's share is less
	// than the clock margin: the bot answers without waiting.
	control := clock.Control{Kind: clock.Absolute, Main: 200 * time.Millisecond}
	cv := &protocol.ClockView{Control: control, Clocks: [2]clock.State{control.Start(), control.Start()},
		Runs: [2]bool{true, false}, Since: time.Now()}
	level.Wait = time.Hour
	chose := make(chan protocol.Action, 1)
	go func() { chose <- New(level, 1).Choose(view(cv)) }()
	select {
	case a := <-chose:
		if _, ok := a.(protocol.Play); !ok {
			t.Fatalf("action %#v under the clock, want a move", a)
		}
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatal("under a spent clock the bot waits out its level's hour")
	}
}
