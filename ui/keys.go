package ui

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// KeyBinding maps one key to a named action. A widget's bindings form one
// [KeyTable], which both handles the keys and writes the help screen, so
// the two cannot disagree.
type KeyBinding struct {
	// Key is the key as the help screen shows it and as [ParseKey] reads
	// it: one character ("h", "?"), "Space", or a tcell key name ("Left",
	// "Enter", "Esc", "Backspace", "Ctrl-L").
	Key string
	// Name is the action's name. Bindings that share a name are one line
	// of help.
	Name string
	// Help says in a few words what the action does; the first binding
	// of an action says it for all.
	Help string
	// Action runs the action. A binding without an Action only documents
	// keys that the widget reads itself (the letters and digits of a typed
	// point); it never matches a key.
	Action func()
}

// KeyTable is the list of a widget's key bindings, in the order the help
// screen shows them. The first binding whose key matches wins.
type KeyTable []KeyBinding

// Lookup returns the binding that handles ev.
func (t KeyTable) Lookup(ev *tcell.EventKey) (KeyBinding, bool) {
	for _, kb := range t {
		if kb.Action == nil {
			continue
		}
		k, r, err := ParseKey(kb.Key)
		if err == nil && keyMatches(k, r, ev) {
			return kb, true
		}
	}
	return KeyBinding{}, false
}

// Check reports a binding whose key does not parse, a key bound twice, a
// binding without a name, or an action whose first binding has no help, so
// that a table's test can catch them.
func (t KeyTable) Check() error {
	seen := map[string]string{}
	named := map[string]bool{}
	for _, kb := range t {
		if kb.Name == "" || !named[kb.Name] && kb.Help == "" {
			return fmt.Errorf("ui: binding of key %q has no name or help", kb.Key)
		}
		named[kb.Name] = true
		if kb.Action == nil {
			continue
		}
		k, r, err := ParseKey(kb.Key)
		if err != nil {
			return err
		}
		id := fmt.Sprint(k, r)
		if other, dup := seen[id]; dup {
			return fmt.Errorf("ui: key %q bound to both %q and %q", kb.Key, other, kb.Name)
		}
		seen[id] = kb.Name
	}
	return nil
}

// Help returns the help text of the table: one line per action with its
// keys, its name and what it does, in columns.
func (t KeyTable) Help() string {
	var names []string
	keys := map[string][]string{}
	help := map[string]string{}
	for _, kb := range t {
		if _, ok := keys[kb.Name]; !ok {
			names = append(names, kb.Name)
			help[kb.Name] = kb.Help
		}
		keys[kb.Name] = append(keys[kb.Name], kb.Key)
	}
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', 0)
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", strings.Join(keys[n], " "), n, help[n])
	}
	tw.Flush()
	return sb.String()
}

// namedKeys maps tcell's key names (and "Space") to keys; it is only read.
var namedKeys = func() map[string]tcell.Key {
	m := map[string]tcell.Key{}
	for k, name := range tcell.KeyNames {
		m[strings.ToLower(name)] = k
	}
	// Terminals send either code for the backspace key; "Backspace"
	// stands for both (see keyMatches).
	m["backspace"] = tcell.KeyBackspace2
	return m
}()

// ParseKey reads a key as [KeyBinding.Key] writes it. A rune key returns
// tcell.KeyRune and the rune.
func ParseKey(s string) (tcell.Key, rune, error) {
	if utf8.RuneCountInString(s) == 1 {
		r, _ := utf8.DecodeRuneInString(s)
		return tcell.KeyRune, r, nil
	}
	if strings.EqualFold(s, "Space") {
		return tcell.KeyRune, ' ', nil
	}
	if k, ok := namedKeys[strings.ToLower(s)]; ok {
		return k, 0, nil
	}
	return 0, 0, fmt.Errorf("ui: unknown key %q", s)
}

// keyMatches reports whether ev is the key k (rune r for tcell.KeyRune).
// A rune typed with Alt or Ctrl is another key.
func keyMatches(k tcell.Key, r rune, ev *tcell.EventKey) bool {
	evk := ev.Key()
	if evk == tcell.KeyBackspace {
		evk = tcell.KeyBackspace2
	}
	if evk != k {
		return false
	}
	if k == tcell.KeyRune {
		return ev.Rune() == r && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0
	}
	return true
}
