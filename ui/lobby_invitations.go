package ui

// The invitations the lobby received: the dialog that asks about each,
// and the answer (accepted, declined, or out of time).

import (
	"errors"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// Invitation is an invitation to a game from another peer, waiting for the
// player's answer.
type Invitation struct {
	// From is the inviting peer's ID.
	From string
	// Name is the display name the invitation gives ("" for none;
	// untrusted, shown through PeerLabel beside From).
	Name string
	// Options are the game it proposes.
	Options engine.Options
	// Broadcast is the broadcast delay for spectators it proposes
	// (docs/spectators.md SPEC-D10), zero for none.
	Broadcast protocol.BroadcastDelay
	// Deadline is when it is declined if the player has not answered.
	Deadline time.Time
	// Answer accepts the invitation (nil) or declines it with a reason.
	// It is called once.
	Answer func(decline error)
}

// showInvitation opens the dialog of the first invitation waiting (over
// a code dialog: the host of a code answers its guest's invitation), or
// refreshes the one shown.
func (l *Lobby) showInvitation() {
	if l.shownInvitation != nil {
		if l.pending(l.shownInvitation) {
			l.dialog.lines = l.invitationLines(l.shownInvitation)
			return
		}
		l.dialog, l.shownInvitation = nil, nil
	}
	if len(l.model.Pending) == 0 || l.dialog != nil && l.dialog != l.codeDialog {
		return
	}
	in := l.model.Pending[0]
	d := newDialog("Invitation", l.invitationLines(in)...)
	d.handle = func(ev *tcell.EventKey) {
		if ev.Key() != tcell.KeyRune {
			return
		}
		var decline error
		switch ev.Rune() {
		case 'y', 'Y':
		case 'n', 'N':
			decline = errors.New("the player declined")
		default:
			return
		}
		l.answer(in, decline)
	}
	l.dialog, l.shownInvitation = d, in
}

// invitationLines are the lines of the dialog of invitation in: who (the
// whole peer ID, which the players may compare), the connection to it
// once measured, the game and the keys.
func (l *Lobby) invitationLines(in *Invitation) []string {
	left := time.Until(in.Deadline).Round(time.Second)
	lines := []string{l.petnames.get().PeerLabel(in.Name, in.From) + " invites you to a game:", DescribeOptions(in.Options), describeSides(in.Options)}
	if w := CheckingWarning(in.Options); w != "" {
		lines = append(lines, w)
	}
	if !in.Broadcast.IsZero() {
		// Agreed by accepting: both programs hold what they publish
		// for spectators this long (SPEC-D12).
		lines = append(lines, "Spectators: "+in.Broadcast.Describe())
	}
	lines = append(lines, "", "Peer ID: "+in.From)
	if c, ok := l.model.Conns[in.From]; ok {
		lines = append(lines, "Connection: "+c.String())
	}
	return append(lines, "", fmt.Sprintf("y accepts · n declines (%s left)", left))
}

// pending reports whether in waits for an answer.
func (l *Lobby) pending(in *Invitation) bool {
	for _, p := range l.model.Pending {
		if p == in {
			return true
		}
	}
	return false
}

// Invited shows an invitation received.
func (l *Lobby) Invited(in *Invitation) {
	l.model.Pending = append(l.model.Pending, in)
	l.render()
}

// Expire declines the invitations whose time ran out and forgets them.
func (l *Lobby) Expire(now time.Time) {
	for _, in := range append([]*Invitation(nil), l.model.Pending...) {
		if now.After(in.Deadline) {
			l.answer(in, errors.New("no answer in time"))
		}
	}
}

// answer answers an invitation and forgets it.
func (l *Lobby) answer(in *Invitation, decline error) {
	if !l.pending(in) {
		return
	}
	for i, p := range l.model.Pending {
		if p == in {
			l.model.Pending = append(l.model.Pending[:i], l.model.Pending[i+1:]...)
			break
		}
	}
	if l.shownInvitation == in {
		l.dialog, l.shownInvitation = nil, nil
	}
	if decline == nil {
		l.model.Status = "Accepted the invitation of " + l.petnames.get().PeerLabel(in.Name, in.From) + ": starting…"
	} else {
		l.model.Status = "Declined the invitation of " + l.petnames.get().PeerLabel(in.Name, in.From) + " (" + decline.Error() + ")"
	}
	in.Answer(decline)
	l.render()
}
