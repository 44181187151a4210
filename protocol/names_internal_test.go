package protocol

import (
	"errors"
	"strings"
	"testing"
)

// TestT10NamesInTheInvitation (UI-D30): the inviter's display name rides
// in the signed invitation and lands in Machine.Names; a name over
// MaxNameLength bytes or not UTF-8 is the inviter's violation (T-10), and
// the machine is left as it was.
func TestT10NamesInTheInvitation(t *testing.T) {
	const head = `{"version":"1.0.0","inviter":"INVITER","invitee":"INVITEE","options":{"variant":"go","size":9,"komi":0.5}`
	for _, tt := range []struct {
		name, body, want string
		ok               bool
	}{
		{"no name", head + `}`, "", true},
		{"a name", head + `,"inviter_name":"Alice [red]"}`, "Alice [red]", true},
		{"a name of the cap", head + `,"inviter_name":"` + strings.Repeat("a", MaxNameLength) + `"}`, strings.Repeat("a", MaxNameLength), true},
		{"T-10 a name over the cap", head + `,"inviter_name":"` + strings.Repeat("a", MaxNameLength+1) + `"}`, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr, m := signedInvite(t, tt.body)
			if err := tr.Append(m); err != nil {
				t.Fatalf("Append: %v", err)
			}
			mc := NewMachine(tr.Game)
			_, err := mc.Apply(&m)
			var v *Violation
			switch {
			case tt.ok && err != nil:
				t.Fatalf("Apply: %v", err)
			case !tt.ok && (!errors.As(err, &v) || v.Rule != "T-10" || v.Accused != Inviter):
				t.Fatalf("Apply: %v, want T-10 by the inviter", err)
			case !tt.ok && mc.Phase != PhaseInvite:
				t.Errorf("the machine moved to %s on a refused invitation", mc.Phase)
			}
			if mc.Names[Inviter] != tt.want {
				t.Errorf("Names[inviter] %q, want %q", mc.Names[Inviter], tt.want)
			}
		})
	}
	if CheckName("\xff") == nil {
		t.Error("a name that is not UTF-8 passes CheckName")
	}
}
