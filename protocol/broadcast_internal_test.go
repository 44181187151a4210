package protocol

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/engine"
)

// TestSPECD10InvitationBroadcast: the machine takes an invitation's
// broadcast delay into Machine.Broadcast; one with a delay of zero (none
// is written by leaving it out: one signed invitation, one meaning) or
// beyond its bounds is a violation of T-10 by the inviter; an invitation
// without the field has none, as every record before it (SPEC-D10).
func TestSPECD10InvitationBroadcast(t *testing.T) {
	o := OptionsToBody(engine.Options{Variant: engine.VariantGo, Size: 9, Komi: 7.5, KomiSet: true})
	for _, c := range []struct {
		delay *BroadcastDelay
		bad   bool
	}{
		{nil, false},
		{&BroadcastDelay{Moves: 20, Seconds: 600}, false},
		{&BroadcastDelay{}, true},
		{&BroadcastDelay{Moves: maxBroadcastMoves + 1}, true},
		{&BroadcastDelay{Seconds: -1}, true},
	} {
		d := &tossMachine{t: t, m: NewMachine(GameID{7, 7, 7})}
		_, err := d.send(Inviter, KindInvite, InviteBody{Version: Version, Inviter: "a", Invitee: "b", Options: o, Broadcast: c.delay})
		var v *Violation
		if c.bad {
			if !errors.As(err, &v) || v.Rule != "T-10" || v.Accused != Inviter {
				t.Errorf("an invitation with broadcast %+v: %v, want a violation of T-10 by the inviter", *c.delay, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("an invitation with broadcast %v: %v", c.delay, err)
			continue
		}
		want := BroadcastDelay{}
		if c.delay != nil {
			want = *c.delay
		}
		if d.m.Broadcast != want {
			t.Errorf("an invitation with broadcast %v: the machine has %v", c.delay, d.m.Broadcast)
		}
	}
}
