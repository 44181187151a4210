package phantom

import (
	"reflect"
	"testing"

	"github.com/kakure/kakure/engine"
)

// announceCase is what both players are told of one try under a rule set.
type announceCase struct {
	toMover, toOpponent string // String()
	kvMover, kvOpponent string // KeyValues()
}

// checkAnnouncements announces o under rules to both players and compares
// the words and the key=value form, and checks that the key=value form
// reads back to the same announcement and that it validates.
func checkAnnouncements(t *testing.T, rules engine.PhantomRules, size int, o TryOutcome, want announceCase) {
	t.Helper()
	for _, side := range []struct {
		to       engine.Color
		text, kv string
	}{{o.Mover, want.toMover, want.kvMover}, {o.Mover.Opponent(), want.toOpponent, want.kvOpponent}} {
		a := Announce(rules, size, o, side.to)
		if err := a.Validate(); err != nil {
			t.Errorf("%s to %v: %v", rules, side.to, err)
		}
		if got := a.String(); got != side.text {
			t.Errorf("%s to %v: String\n got %q\nwant %q", rules, side.to, got, side.text)
		}
		if got := a.KeyValues(); got != side.kv {
			t.Errorf("%s to %v: KeyValues\n got %q\nwant %q", rules, side.to, got, side.kv)
		}
		back, err := ParseAnnouncement(rules, size, side.to, a.KeyValues())
		if err != nil {
			t.Errorf("%s to %v: reading %q back: %v", rules, side.to, a.KeyValues(), err)
		} else if !reflect.DeepEqual(back, a) {
			t.Errorf("%s to %v: read back %+v, want %+v", rules, side.to, back, a)
		}
	}
}

// announcementScenes are tries whose outcomes the rule-set tables below
// announce. Each is played on a 5×5 diagram with Black to move.
var announcementScenes = []struct {
	name   string
	rows   []string
	before []string // legal moves first
	vertex string
}{
	{"moved", []string{".....", ".....", ".....", ".....", "....."}, nil, "C3"},
	{"capture and both ataris", koAtariRows, nil, "C3"},
	{"capture of two", []string{".....", ".....", ".....", "XXXX.", "O.OX."}, nil, "B1"},
	{"self-atari only", []string{".....", ".....", ".....", ".....", ".O..."}, nil, "A1"},
	{"occupied-opponent", []string{".....", ".....", "..O..", ".....", "....."}, nil, "C3"},
	{"occupied-own", []string{".....", ".....", "..X..", ".....", "....."}, nil, "C3"},
	{"suicide", []string{".....", ".....", ".....", "O....", ".O..."}, nil, "A1"},
	{"ko", koRows, nil, "B3"}, // Black takes at C3 first, see sceneOutcome
	{"pass", []string{".....", ".....", ".....", ".....", "....."}, nil, "pass"},
}

// sceneOutcome plays a scene and returns the outcome of its try.
func sceneOutcome(t *testing.T, name string) TryOutcome {
	t.Helper()
	for _, s := range announcementScenes {
		if s.name != name {
			continue
		}
		r := refereeAt(t, engine.RulesCommon, engine.Black, s.rows...)
		if name == "ko" {
			// Black takes the ko, White tries to retake at once.
			r = playLegal(t, r, "C3")
			_, out := tryOK(t, r, engine.White, "B3")
			return out
		}
		r = playLegal(t, r, s.before...)
		_, out := tryOK(t, r, r.ToMove(), s.vertex)
		return out
	}
	t.Fatalf("no scene %q", name)
	return TryOutcome{}
}

func TestPG6CommonAnnouncements(t *testing.T) {
	tests := map[string]announceCase{
		"moved": {
			toMover: "Black has moved (C3)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=C3 capture-count=0 captured=- atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=0",
		},
		"capture and both ataris": {
			toMover:    "Black has moved (C3); Black has captured B3; Black puts White into atari and himself",
			toOpponent: "Black has moved; Black has captured B3; Black puts White into atari and himself",
			kvMover:    "event=moved mover=black point=C3 capture-count=1 captured=B3 atari-opponent=1 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=1 captured=B3 atari-opponent=1 atari-self=1",
		},
		"capture of two": {
			toMover:    "Black has moved (B1); Black has captured A1,C1",
			toOpponent: "Black has moved; Black has captured A1,C1",
			kvMover:    "event=moved mover=black point=B1 capture-count=2 captured=A1,C1 atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=2 captured=A1,C1 atari-opponent=0 atari-self=0",
		},
		"self-atari only": {
			toMover:    "Black has moved (A1); Black puts himself into atari",
			toOpponent: "Black has moved; Black puts himself into atari",
			kvMover:    "event=moved mover=black point=A1 capture-count=0 captured=- atari-opponent=0 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=0 captured=- atari-opponent=0 atari-self=1",
		},
		"occupied-opponent": {
			toMover: "Illegal move (C3): already an opponent's stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-opponent", kvOpponent: "event=illegal mover=black",
		},
		"occupied-own": {
			toMover: "Illegal move (C3): already your own stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-own", kvOpponent: "event=illegal mover=black",
		},
		"suicide": {
			toMover: "Illegal move (A1): suicide", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=A1 reason=suicide", kvOpponent: "event=illegal mover=black",
		},
		"ko": {
			toMover: "Illegal move (B3): ko", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=white point=B3 reason=ko", kvOpponent: "event=illegal mover=white",
		},
		"pass": {
			toMover: "Black passes", toOpponent: "Black passes",
			kvMover: "event=pass mover=black", kvOpponent: "event=pass mover=black",
		},
	}
	for _, s := range announcementScenes {
		t.Run("PG-6 "+s.name, func(t *testing.T) {
			checkAnnouncements(t, engine.RulesCommon, 5, sceneOutcome(t, s.name), tests[s.name])
		})
	}
}

func TestPG7HamburgAnnouncements(t *testing.T) {
	tests := map[string]announceCase{
		"moved": {
			toMover: "Black has moved (C3)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=C3 capture-count=0 atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=0 atari-opponent=0 atari-self=0",
		},
		"capture and both ataris": {
			toMover:    "Black has moved (C3); Black captures 1 stone; Black puts White into atari and himself",
			toOpponent: "Black has moved; Black captures 1 stone; Black puts White into atari and himself",
			kvMover:    "event=moved mover=black point=C3 capture-count=1 atari-opponent=1 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=1 atari-opponent=1 atari-self=1",
		},
		"capture of two": {
			toMover:    "Black has moved (B1); Black captures 2 stones",
			toOpponent: "Black has moved; Black captures 2 stones",
			kvMover:    "event=moved mover=black point=B1 capture-count=2 atari-opponent=0 atari-self=0",
			kvOpponent: "event=moved mover=black capture-count=2 atari-opponent=0 atari-self=0",
		},
		"self-atari only": {
			toMover:    "Black has moved (A1); Black puts himself into atari",
			toOpponent: "Black has moved; Black puts himself into atari",
			kvMover:    "event=moved mover=black point=A1 capture-count=0 atari-opponent=0 atari-self=1",
			kvOpponent: "event=moved mover=black capture-count=0 atari-opponent=0 atari-self=1",
		},
		"occupied-opponent": {
			toMover: "Illegal move (C3): already an opponent's stone", toOpponent: "Illegal move: already a White stone",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-opponent", kvOpponent: "event=illegal mover=black reason=occupied-opponent",
		},
		"occupied-own": {
			toMover: "Illegal move (C3): already your own stone", toOpponent: "Illegal move: already a Black stone",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-own", kvOpponent: "event=illegal mover=black reason=occupied-own",
		},
		"suicide": {
			toMover: "Illegal move (A1): suicide", toOpponent: "Illegal move: suicide",
			kvMover: "event=illegal mover=black point=A1 reason=suicide", kvOpponent: "event=illegal mover=black reason=suicide",
		},
		"ko": {
			toMover: "Illegal move (B3): ko", toOpponent: "Illegal move: ko",
			kvMover: "event=illegal mover=white point=B3 reason=ko", kvOpponent: "event=illegal mover=white reason=ko",
		},
		"pass": {
			toMover: "Black passes", toOpponent: "Black passes",
			kvMover: "event=pass mover=black", kvOpponent: "event=pass mover=black",
		},
	}
	for _, s := range announcementScenes {
		t.Run("PG-7 "+s.name, func(t *testing.T) {
			checkAnnouncements(t, engine.RulesHamburg, 5, sceneOutcome(t, s.name), tests[s.name])
		})
	}
}

func TestPG8KriegspielAnnouncements(t *testing.T) {
	tests := map[string]announceCase{
		"moved": {
			toMover: "Black has moved (C3)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=C3 capture-count=0",
			kvOpponent: "event=moved mover=black capture-count=0 captured=-",
		},
		"capture and both ataris": {
			toMover:    "Black has moved (C3); Black captures 1 stone",
			toOpponent: "Black has moved; Black has captured B3",
			kvMover:    "event=moved mover=black point=C3 capture-count=1",
			kvOpponent: "event=moved mover=black capture-count=1 captured=B3",
		},
		"capture of two": {
			toMover:    "Black has moved (B1); Black captures 2 stones",
			toOpponent: "Black has moved; Black has captured A1,C1",
			kvMover:    "event=moved mover=black point=B1 capture-count=2",
			kvOpponent: "event=moved mover=black capture-count=2 captured=A1,C1",
		},
		"self-atari only": {
			toMover: "Black has moved (A1)", toOpponent: "Black has moved",
			kvMover:    "event=moved mover=black point=A1 capture-count=0",
			kvOpponent: "event=moved mover=black capture-count=0 captured=-",
		},
		"occupied-opponent": {
			toMover: "Illegal move (C3): already an opponent's stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-opponent", kvOpponent: "event=illegal mover=black",
		},
		"occupied-own": {
			toMover: "Illegal move (C3): already your own stone", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=C3 reason=occupied-own", kvOpponent: "event=illegal mover=black",
		},
		"suicide": {
			toMover: "Illegal move (A1): suicide", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=black point=A1 reason=suicide", kvOpponent: "event=illegal mover=black",
		},
		"ko": {
			toMover: "Illegal move (B3): ko", toOpponent: "Illegal move",
			kvMover: "event=illegal mover=white point=B3 reason=ko", kvOpponent: "event=illegal mover=white",
		},
		"pass": {
			toMover: "Black passes", toOpponent: "Black passes",
			kvMover: "event=pass mover=black", kvOpponent: "event=pass mover=black",
		},
	}
	for _, s := range announcementScenes {
		t.Run("PG-8 "+s.name, func(t *testing.T) {
			checkAnnouncements(t, engine.RulesKriegspiel, 5, sceneOutcome(t, s.name), tests[s.name])
		})
	}
}
