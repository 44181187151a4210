package session

// This peer's own messages: local actions, the automatic steps of the
// protocol, and making, signing, saving and sending each message. Moved
// from game.go unchanged (issue 19).
//
// Locking (see Game): everything here runs in the loop. The machine and
// transcript change only inside apply, with mu held; toss and autoSince
// are the loop's own.

import (
	"github.com/kakure/kakure/protocol"

	"errors"
	"fmt"
	"time"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
)

// build makes, signs and returns the next message of this peer.
func (g *Game) build(kind protocol.Kind, body any) (protocol.Message, error) {
	raw, err := protocol.EncodeBody(body)
	if err != nil {
		return protocol.Message{}, err
	}
	seq, prev := g.tr.Next(g.role)
	ack, ackHash := g.tr.AckFor(g.role)
	if g.svc.cfg.ack != nil {
		if a := g.svc.cfg.ack(g, kind, ack); a != ack && a >= -1 && a < ack {
			ack, ackHash = a, protocol.Hash{}
			if m := g.tr.Find(g.role.Other(), uint64(a)); a >= 0 && m != nil {
				ackHash = m.Hash()
			}
		}
	}
	m := protocol.Message{Game: g.id, From: g.role, Seq: seq, Prev: prev, Ack: ack, AckHash: ackHash, Kind: kind, Body: raw}
	if err := m.Sign(g.svc.key); err != nil {
		return protocol.Message{}, err
	}
	return m, nil
}

// send makes the next message, checks it against the machine, appends
// and saves it, then writes it to the stream if there is one. It is the
// only way this peer's messages come to be.
func (g *Game) send(kind protocol.Kind, body any) ([]protocol.Event, error) {
	cheat := false
	body = g.stampMove(kind, body)
	if g.svc.cfg.rewrite != nil {
		kind, body, cheat = g.svc.cfg.rewrite(g, kind, body)
	}
	g.hookAt("made", kind)
	m, err := g.build(kind, body)
	if err != nil {
		return nil, err
	}
	events, err := g.apply(&m, "", cheat)
	g.hookAt("applied", kind)
	if err != nil {
		var v *protocol.Violation
		if errors.As(err, &v) {
			// Our own message breaks the rules: the action is refused and
			// nothing is sent.
			return nil, fmt.Errorf("protocol: %s refused: %s: %w", kind, v.Detail, engine.ErrWrongPhase)
		}
		return nil, err
	}
	if !kind.ClockFree() {
		g.clk.lastSent = time.Now()
	}
	g.trackClock(time.Now())
	// The attachments are kept in memory for the message to go again
	// on a new stream; after a crash the player makes them again
	// (PN-D14).
	if bb, ok := body.(bulkBody); ok {
		g.keepBulk(m.Seq, bb.Attachments())
	}
	// The secrets first: in Phantom Go what the messages taken since the
	// last save changed in them is not written yet (PN-D15), and the
	// record must never be ahead of them (a chat line, a resignation, a
	// report go without the player's own step before them).
	if g.secretsSavedInSend() {
		if err := g.saveSecrets(); err != nil {
			return nil, err
		}
		// A crash here leaves the secrets ahead of the record (tests).
		g.hookAt("secrets", kind)
	}
	if err := g.save(true); err != nil {
		return nil, err
	}
	g.hookAt("saved", kind)
	if g.stream != nil && !g.awaitHello {
		g.stream.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
		err := g.writeBulk(g.stream, m.Seq)
		if err == nil {
			err = g.writeMessage(g.stream, &m)
		}
		if err != nil {
			g.svc.cfg.Logger.Info("send failed; the message goes again on resume", "game", g.id, "err", err)
			g.streamLost(err)
		}
		g.hookAt("written", kind)
	}
	return events, nil
}

// secretsSavedInSend reports whether send saves this peer's secrets
// itself, after its message is applied and before the record and the
// stream take it: for a player that defers the saves of what it
// receives (Phantom Go, PN-D15). The player's step that made the message
// is then saved by that save, not by one of its own before it (PN-D20):
// the document is the same, and nothing leaves or is recorded between.
func (g *Game) secretsSavedInSend() bool {
	_, defers := g.player.(bulkReceiver)
	return defers
}

// act carries out a local action.
func (g *Game) act(a protocol.Action) error {
	if g.m.Phase == protocol.PhaseDone {
		return fmt.Errorf("protocol: the game is over: %w", engine.ErrGameOver)
	}
	var kind protocol.Kind
	var body any
	switch a.(type) {
	case accept:
		kind, body = protocol.KindAccept, protocol.AcceptBody{Name: g.svc.cfg.Name}
	case protocol.Resign, protocol.Chat, protocol.RequestAdjourn, protocol.AcceptAdjourn, protocol.RequestUndo, protocol.AnswerUndo:
		k, b, err := g.m.ActionMessage(g.role, a)
		if err != nil {
			return err
		}
		kind, body = k, b
	default:
		if g.m.Outcome != nil || g.m.Resigned != nil {
			// Decided, or resigned with only the end audit to run: a
			// move chosen a moment before is too late, not wrong.
			return fmt.Errorf("protocol: %T: the game is decided: %w", a, engine.ErrGameOver)
		}
		if g.m.Phase != protocol.PhasePlay {
			return fmt.Errorf("protocol: %T during %s: %w", a, g.m.Phase, engine.ErrWrongPhase)
		}
		g.clk.actAt = time.Now()
		defer func() { g.clk.actAt = time.Time{} }()
		g.hookAt("act", "")
		k, b, err := g.player.message(g.m, g.role, a)
		if err != nil {
			return err
		}
		_, held := b.(heldAction)
		if !held && (k == "" || !g.secretsSavedInSend()) {
			if err := g.saveSecrets(); err != nil {
				return err
			}
		}
		if k == "" {
			// The action only changed this peer's secrets (HMG cards
			// chosen before their turn), or is held, not saved, for
			// the other's steps (a Phantom Go try); what is due goes
			// automatically, and its think time ends with the action
			// (CLK-D33).
			g.clk.heldAt, g.clk.actAt = g.clk.actAt, time.Time{}
			g.afterChange()
			return nil
		}
		kind, body = k, b
	}
	events, err := g.send(kind, body)
	g.clk.actAt = time.Time{} // the automatic messages that follow are the program's
	if err != nil {
		return err
	}
	g.emit(events)
	g.afterChange()
	return nil
}

// afterChange sends whatever this peer must send by itself now, and
// starts the grace clock when the other program owes a message on a
// grace (T-11, REC-D14).
func (g *Game) afterChange() {
	if g.claimDueChoice() {
		return // claimTimeout ran afterChange
	}
	defer g.startGrace()
	for i := 0; i < 64; i++ {
		kind, body, ok, err := g.automatic()
		if err != nil {
			g.svc.cfg.Logger.Error("automatic step", "game", g.id, "err", err)
			return
		}
		if !ok {
			break
		}
		// What the player changed to make the message must survive a
		// crash before the message does (Phantom Go's referee state);
		// send saves it itself where the player defers its saves (PN-D20).
		if !g.secretsSavedInSend() {
			if err := g.saveSecrets(); err != nil {
				g.svc.cfg.Logger.Error("automatic step", "game", g.id, "err", err)
				return
			}
		}
		events, err := g.send(kind, body)
		if err != nil {
			g.svc.cfg.Logger.Error("automatic step", "game", g.id, "kind", kind, "err", err)
			return
		}
		g.emit(events)
	}
}

// startGrace starts the grace clock when the other program owes a
// message on a grace, and stops it when it does not (T-11, REC-D14).
func (g *Game) startGrace() {
	from, _, count, owes := g.m.GraceOwed()
	if owes && from != g.role {
		// The grace starts again with each message of the other's: it is
		// the time the other takes for one message.
		if n := g.tr.Count(g.role.Other()); g.autoSince.IsZero() || n != g.autoOf {
			g.autoSince, g.autoOf, g.autoCount = time.Now(), n, count
		}
	} else {
		g.autoSince = time.Time{}
	}
}

// abandonLinger is how long a program that abandoned a game still reads
// the other's messages: one that crossed the abandonment may answer the
// challenge, and the game then goes on (REC-D13). It runs from the
// abandonment and again from the first frame of the other program after
// it; until that frame comes, the program reads on while the stream
// lasts (awaitsCrossing, LIM-D20).
const abandonLinger = 5 * time.Second

// awaitsCrossing reports whether this peer abandoned the game and the
// accused's program has sent nothing on the stream since (LIM-D20): its
// answer may still cross the abandonment. A program whose loop is busy
// making a message (a Phantom Go step, an audit, on a loaded machine) or
// writing it (its attachments) sends no keep-alive meanwhile and has not
// taken the abandonment yet: what it sends first is that message, made
// before, and it answers the challenge. If this peer stopped reading,
// its game would end abandoned while the other's record, which holds the
// crossing, goes on: the records would disagree, and the other program,
// honest, would wait for this one for ever. The wait ends with the first frame of the accused's (a keep-alive
// shows its loop is back and takes the abandonment next) or with the
// stream (the accused's program ends its own game and closes it, or the
// idle timeout cuts a silent one).
func (g *Game) awaitsCrossing() bool {
	by, ok := g.m.AbandonedBy()
	return ok && by == g.role && g.stream != nil && !g.abandonHeard
}

// heardAfterAbandon notes a frame of the other program on the current
// stream (f): the first keep-alive, hello or message after this peer's
// abandonment ends the wait of awaitsCrossing, and the abandonment's
// linger runs from it. Attachments do not count: their message follows.
func (g *Game) heardAfterAbandon(f protocol.Frame) {
	if by, ok := g.m.AbandonedBy(); g.abandonHeard || !ok || by != g.role || f.Bulk != nil {
		return
	}
	g.abandonHeard = true
	if until := time.Now().Add(abandonLinger); until.After(g.lingerUntil) {
		g.lingerUntil = until
	}
}

// checkGrace challenges a peer that holds back a message it owes on a
// grace (T-11, REC-D12), and abandons the game when the challenge goes
// unanswered for AutoGrace more (REC-D13), as long as the connection is up
// (a lost connection adjourns instead).
func (g *Game) checkGrace() {
	if g.m.Phase == protocol.PhaseDone || g.stream == nil && time.Since(g.badInputAt) > g.svc.cfg.IdleTimeout && time.Since(g.helloAt) > g.svc.cfg.IdleTimeout {
		// A lost connection adjourns; one this peer dropped for the
		// other's bad input does not stop the grace (T-10, T-11), nor
		// does one the other's program closes after answering it with
		// its hello (it runs, and withholds): the challenge and the
		// abandonment go on the next stream.
		return
	}
	if c := g.m.UnansweredChallenge(g.role); c != nil {
		if time.Since(g.challengedAt) >= g.svc.cfg.AutoGrace {
			g.abandon(c)
		}
		return
	}
	grace := g.svc.cfg.AutoGrace
	if g.autoCount {
		grace = g.svc.cfg.CountGrace
	}
	if g.autoSince.IsZero() || time.Since(g.autoSince) < grace {
		return
	}
	from, kinds, _, owes := g.m.GraceOwed()
	g.autoSince = time.Time{}
	if !owes || from == g.role {
		// The game moved on since the grace started: nothing to
		// challenge (a challenge of nothing owed is false, T-14).
		return
	}
	body := protocol.ViolationBody{Accused: g.role.Other(), Rule: "T-11", Detail: fmt.Sprintf("did not send %v within %s", kinds, grace)}
	g.svc.cfg.Logger.Warn("challenging the other program to send what it owes (T-11)", "game", g.id, "owed", kinds, "grace", grace)
	events, err := g.send(protocol.KindViolation, body)
	if err != nil {
		g.svc.cfg.Logger.Error("challenge", "game", g.id, "err", err)
		return
	}
	g.emit(events)
	g.afterChange()
}

// abandon ends the game on the other's unanswered challenge c (REC-D13).
func (g *Game) abandon(c *protocol.Challenge) {
	g.svc.cfg.Logger.Warn("the other program did not answer the challenge; abandoning the game (T-11)", "game", g.id, "challenge", c.Seq)
	events, err := g.send(protocol.KindAbandon, protocol.AbandonBody{Challenge: c.Seq})
	if err != nil {
		g.svc.cfg.Logger.Error("abandonment", "game", g.id, "err", err)
		return
	}
	g.lingerUntil = time.Now().Add(abandonLinger)
	g.abandonHeard = false
	g.emit(events)
}

// answerChallenge sends again this peer's messages after ack, which the
// other program says it lacks (T-11, REC-D12): it drops the copies it
// holds (T-10). What this peer still owes goes by itself (afterChange);
// a step of the count, which is its player's, goes as a marking of no
// dead stones, so that a challenge made at once (the record cannot show
// when it was made) cannot end the game as abandoned while the player
// thinks: the player may counter it (REC-D14).
func (g *Game) answerChallenge(ack int64) {
	defer func() {
		from, _, count, owes := g.m.GraceOwed()
		if !owes || !count || from != g.role || g.m.UnansweredChallenge(g.role.Other()) == nil {
			return
		}
		k, b, err := g.player.message(g.m, g.role, protocol.MarkDead{})
		if err == nil {
			var events []protocol.Event
			if events, err = g.send(k, b); err == nil {
				g.emit(events)
			}
		}
		if err != nil {
			g.svc.cfg.Logger.Error("answering a challenge in the count", "game", g.id, "err", err)
		}
	}()
	if g.stream == nil || g.awaitHello {
		return
	}
	for i := range g.tr.Messages {
		m := &g.tr.Messages[i]
		if m.From != g.role || int64(m.Seq) <= ack {
			continue
		}
		err := g.writeBulk(g.stream, m.Seq)
		if err == nil {
			err = g.writeMessage(g.stream, m)
		}
		if err != nil {
			g.streamLost(err)
			return
		}
	}
}

// automatic returns the message this peer must send by itself now.
func (g *Game) automatic() (protocol.Kind, any, bool, error) {
	from, kinds := g.m.Expected()
	if from != g.role || len(kinds) == 0 {
		return "", nil, false, nil
	}
	switch kinds[0] {
	case protocol.KindTossCommit:
		value := make([]byte, 32)
		c, o, err := commit.New(protocol.TossDomain, g.id[:], uint8(g.role), 0, randomBytes(value))
		if err != nil {
			return "", nil, false, err
		}
		g.toss = &o
		if err := g.saveSecrets(); err != nil {
			return "", nil, false, err
		}
		return protocol.KindTossCommit, protocol.CommitBody{Commitment: c}, true, nil
	case protocol.KindTossReveal:
		if g.toss == nil {
			return "", nil, false, errors.New("protocol: coin toss opening lost")
		}
		return protocol.KindTossReveal, protocol.OpenBody{Opening: *g.toss}, true, nil
	case protocol.KindResult:
		if res, ok := g.m.ClaimResult(); ok {
			// A time-out claim against this player (CLK-D17): refused
			// when its own clock says the flag had not fallen, else
			// confirmed with the result it gives.
			if k, b, refuse := g.answerTimeout(); refuse {
				return k, b, true, nil
			}
			return protocol.KindResult, protocol.ResultBody{Result: res.String()}, true, nil
		}
		return protocol.KindResult, protocol.ResultBody{Result: g.m.Outcome.Result.String()}, true, nil
	}
	if g.m.Phase == protocol.PhasePlay {
		g.hook("auto")
		return g.player.auto(g.m, g.role)
	}
	return "", nil, false, nil
}
