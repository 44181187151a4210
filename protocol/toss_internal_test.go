package protocol

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
)

// tossMachine is a machine of a plain Go game at the coin toss, fed
// messages directly (the transcript's checks are tested elsewhere).
type tossMachine struct {
	t   *testing.T
	m   *Machine
	seq [2]uint64
}

func newTossMachine(t *testing.T) *tossMachine {
	d := &tossMachine{t: t, m: NewMachine(GameID{7, 7, 7})}
	d.must(Inviter, KindInvite, InviteBody{Version: Version, Inviter: "a", Invitee: "b", Options: OptionsToBody(engine.Options{Variant: engine.VariantGo, Size: 9, Komi: 7.5, KomiSet: true})})
	d.must(Invitee, KindAccept, struct{}{})
	return d
}

func (d *tossMachine) send(from Role, kind Kind, body any) ([]Event, error) {
	raw, err := EncodeBody(body)
	if err != nil {
		d.t.Fatal(err)
	}
	ev, err := d.m.Apply(&Message{Game: d.m.Game, From: from, Seq: d.seq[from], Kind: kind, Body: raw})
	if err == nil {
		d.seq[from]++
	}
	return ev, err
}

func (d *tossMachine) must(from Role, kind Kind, body any) []Event {
	d.t.Helper()
	ev, err := d.send(from, kind, body)
	if err != nil {
		d.t.Fatalf("%s %s: %v", from, kind, err)
	}
	return ev
}

// TestT4CoinToss: the colours come from both peers' contributions (the
// first bit of SHA-256 over the domain "kakure/toss/result/v1", the game
// and both contributions, each length-prefixed: 0 makes the inviter
// Black); a reveal that does not open its commitment, or a contribution
// that is not 32 bytes, is a violation of T-4 by its sender, and the
// machine waits for a good reveal.
func TestT4CoinToss(t *testing.T) {
	for i := range 8 {
		d := newTossMachine(t)
		var cs [2]commit.Commitment
		var os [2]commit.Opening
		for r := Inviter; r <= Invitee; r++ {
			value := make([]byte, 32)
			value[0], value[31] = byte(i), byte(r)
			c, o, err := commit.New(TossDomain, d.m.Game[:], uint8(r), 0, value)
			if err != nil {
				t.Fatal(err)
			}
			cs[r], os[r] = c, o
			d.must(r, KindTossCommit, CommitBody{Commitment: c})
		}
		// The inviter opens another value than it committed to.
		other := os[Inviter]
		other.Value = append([]byte(nil), other.Value...)
		other.Value[5] ^= 1
		_, err := d.send(Inviter, KindTossReveal, OpenBody{Opening: other})
		var v *Violation
		if !errors.As(err, &v) || v.Rule != "T-4" || v.Accused != Inviter {
			t.Fatalf("a reveal of another value: %v, want a violation of T-4 by the inviter", err)
		}
		d.must(Inviter, KindTossReveal, OpenBody{Opening: os[Inviter]})
		if d.m.Colors != [2]engine.Color{} {
			t.Fatal("colours before both reveals")
		}
		ev := d.must(Invitee, KindTossReveal, OpenBody{Opening: os[Invitee]})
		rnd := tossResult(d.m.Game, os[Inviter].Value, os[Invitee].Value)
		want := [2]engine.Color{engine.Black, engine.White}
		if rnd[0]&1 == 1 {
			want = [2]engine.Color{engine.White, engine.Black}
		}
		if d.m.Colors != want || len(ev) != 1 {
			t.Fatalf("colours %v (events %v), want %v from the toss %x", d.m.Colors, ev, want, rnd)
		}
	}
	// A contribution of 31 bytes, properly committed to.
	d := newTossMachine(t)
	c, o, err := commit.New(TossDomain, d.m.Game[:], uint8(Inviter), 0, make([]byte, 31))
	if err != nil {
		t.Fatal(err)
	}
	d.must(Inviter, KindTossCommit, CommitBody{Commitment: c})
	c2, _, _ := commit.New(TossDomain, d.m.Game[:], uint8(Invitee), 0, make([]byte, 32))
	d.must(Invitee, KindTossCommit, CommitBody{Commitment: c2})
	_, err = d.send(Inviter, KindTossReveal, OpenBody{Opening: o})
	var v *Violation
	if !errors.As(err, &v) || v.Rule != "T-4" || v.Accused != Inviter {
		t.Fatalf("a 31-byte contribution: %v, want a violation of T-4 by the inviter", err)
	}
}
