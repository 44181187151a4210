package ui_test

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/ui"
)

func TestUID1ParseKey(t *testing.T) {
	for _, tc := range []struct {
		in   string
		key  tcell.Key
		r    rune
		fail bool
	}{
		{in: "h", key: tcell.KeyRune, r: 'h'},
		{in: "?", key: tcell.KeyRune, r: '?'},
		{in: "Space", key: tcell.KeyRune, r: ' '},
		{in: "Left", key: tcell.KeyLeft},
		{in: "Enter", key: tcell.KeyEnter},
		{in: "Esc", key: tcell.KeyEsc},
		{in: "Backspace", key: tcell.KeyBackspace2},
		{in: "Ctrl-L", key: tcell.KeyCtrlL},
		{in: "PgDn", key: tcell.KeyPgDn},
		{in: "Hyper-Q", fail: true},
		{in: "", fail: true},
	} {
		k, r, err := ui.ParseKey(tc.in)
		if (err != nil) != tc.fail || !tc.fail && (k != tc.key || r != tc.r) {
			t.Errorf("ParseKey(%q) = %v, %q, %v", tc.in, k, r, err)
		}
	}
}

func TestUID1KeyTableLookup(t *testing.T) {
	var ran []string
	do := func(s string) func() { return func() { ran = append(ran, s) } }
	table := ui.KeyTable{
		{Key: "x", Name: "doc", Help: "documents a key only"},
		{Key: "h", Name: "left", Help: "left", Action: do("left")},
		{Key: "Backspace", Name: "erase", Help: "erase", Action: do("erase")},
		{Key: "Enter", Name: "play", Help: "play", Action: do("play")},
	}
	for _, tc := range []struct {
		ev   *tcell.EventKey
		want string
	}{
		{tcell.NewEventKey(tcell.KeyRune, 'h', tcell.ModNone), "left"},
		{tcell.NewEventKey(tcell.KeyRune, 'h', tcell.ModAlt), ""},
		{tcell.NewEventKey(tcell.KeyRune, 'H', tcell.ModShift), ""},
		{tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone), ""},
		{tcell.NewEventKey(tcell.KeyBackspace, 0, tcell.ModNone), "erase"},
		{tcell.NewEventKey(tcell.KeyBackspace2, 0, tcell.ModNone), "erase"},
		{tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), "play"},
		{tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone), ""},
	} {
		ran = nil
		if kb, ok := table.Lookup(tc.ev); ok {
			kb.Action()
		}
		if got := strings.Join(ran, ","); got != tc.want {
			t.Errorf("%s: ran %q, want %q", tc.ev.Name(), got, tc.want)
		}
	}
}

func TestUID1KeyTableCheck(t *testing.T) {
	nop := func() {}
	for _, tc := range []struct {
		name  string
		table ui.KeyTable
		fail  bool
	}{
		{"fine", ui.KeyTable{{Key: "a", Name: "n", Help: "h", Action: nop}, {Key: "b", Name: "n", Action: nop}}, false},
		{"bound twice", ui.KeyTable{{Key: "a", Name: "n", Help: "h", Action: nop}, {Key: "a", Name: "m", Help: "h", Action: nop}}, true},
		{"Space and space", ui.KeyTable{{Key: " ", Name: "n", Help: "h", Action: nop}, {Key: "Space", Name: "m", Help: "h", Action: nop}}, true},
		{"bad key", ui.KeyTable{{Key: "Hyper-Q", Name: "n", Help: "h", Action: nop}}, true},
		{"no name", ui.KeyTable{{Key: "a", Help: "h", Action: nop}}, true},
		{"no help", ui.KeyTable{{Key: "a", Name: "n", Action: nop}}, true},
	} {
		if err := tc.table.Check(); (err != nil) != tc.fail {
			t.Errorf("%s: Check() = %v", tc.name, err)
		}
	}
	if err := ui.NewBoard().Keys().Check(); err != nil {
		t.Errorf("board keys: %v", err)
	}
}

// TestUID1HelpListsEveryBinding reads the help text back: one line per
// action, with every key bound to it and the help of its first binding.
func TestUID1HelpListsEveryBinding(t *testing.T) {
	table := ui.NewBoard().Keys()
	lines := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(table.Help(), "\n"), "\n") {
		cols := strings.Split(line, "  ")
		var fields []string
		for _, c := range cols {
			if c = strings.TrimSpace(c); c != "" {
				fields = append(fields, c)
			}
		}
		if len(fields) != 3 {
			t.Fatalf("help line %q has not three columns", line)
		}
		if _, dup := lines[fields[1]]; dup {
			t.Errorf("action %q has two help lines", fields[1])
		}
		lines[fields[1]] = line
	}
	helped := map[string]bool{}
	for _, kb := range table {
		line, ok := lines[kb.Name]
		if !ok {
			t.Errorf("binding %q (%s) not in the help", kb.Key, kb.Name)
			continue
		}
		keysCol := strings.Fields(strings.Split(line, "  ")[0])
		found := false
		for _, k := range keysCol {
			found = found || k == kb.Key
		}
		if !found {
			t.Errorf("key %q not listed on the line of %q: %q", kb.Key, kb.Name, line)
		}
		if !helped[kb.Name] && !strings.HasSuffix(line, kb.Help) {
			t.Errorf("line of %q does not end with its help %q: %q", kb.Name, kb.Help, line)
		}
		helped[kb.Name] = true
	}
	if len(lines) != len(helped) {
		t.Errorf("%d help lines for %d actions", len(lines), len(helped))
	}
	// The board's own bindings each do what their help says at least in
	// the one case where it is easy to check: every key with an action
	// is handled by the board (it changes the cursor, the typed line, the
	// notes or calls back).
	for _, kb := range table {
		if kb.Action == nil {
			continue
		}
		b := ui.NewBoard().SetModel(ui.NewBoardModel(9, engine.Black))
		rec := recordPlays(b)
		helpAsked := false
		b.SetHelpFunc(func() { helpAsked = true })
		if kb.Name == "erase" || kb.Name == "cancel" {
			keys(b, "d4")
		}
		before := b.Model()
		beforeTyped := b.Typed()
		k, r, _ := ui.ParseKey(kb.Key)
		b.InputHandler()(tcell.NewEventKey(k, r, tcell.ModNone), nil)
		if b.Model() == before && b.Typed() == beforeTyped && len(rec.plays) == 0 && !helpAsked {
			t.Errorf("key %q (%s) did nothing", kb.Key, kb.Name)
		}
	}
}
