package main

import (
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/session"
	"github.com/libp2p/go-libp2p/core/network"
)

// inviteOrWithoutFlips invites with options o through invite and, when
// the invitation carried the evaluator's tries by flips and got no answer
// because the invitee reset its stream (session.ErrNoAnswer with a
// remote reset: neither an acceptance nor a decline), invites once more
// with the same options without them (UI-D51 in docs/ui.md); the first
// invitation, which that peer will never answer, is closed. A kakure
// older than the option (stop 46 and before, which kakure's default of
// UI-D50 would otherwise lock out of every Phantom Go game it is invited
// to) cannot read such an invitation and resets its stream without a
// word; the game without flips is the same game, as hidden and as
// checked, only slower for the evaluator. say tells the user why a
// second invitation went. Any other failure, and a failure of the second
// invitation, is returned with what happened.
func inviteOrWithoutFlips(o engine.Options, invite func(engine.Options) (*session.Game, error), say func(string)) (*session.Game, error) {
	g, err := invite(o)
	if err == nil || !o.TryFlips() || !resetByInvitee(err) {
		return g, err
	}
	if g != nil {
		g.Close()
	}
	without := o
	// A value the option's Parse takes (UI-D49).
	_ = optionTryFlips().Parse(&without, "false")
	say(fmt.Sprintf("the peer did not answer an invitation with try-flips (%v): a kakure older than the option resets it; invited again without try-flips (UI-D51)", err))
	g, err2 := invite(without)
	if err2 != nil {
		return nil, fmt.Errorf("%w; invited again without try-flips: %w", err, err2)
	}
	return g, nil
}

// resetByInvitee reports whether err is an invitation's end without an
// answer because the invitee reset the stream (a connection lost or a
// timeout is not: that invitation may still be answered).
func resetByInvitee(err error) bool {
	var reset *network.StreamError
	return errors.Is(err, session.ErrNoAnswer) && errors.As(err, &reset) && reset.Remote
}
