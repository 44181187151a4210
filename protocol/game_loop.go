package protocol

// The game's loop: the goroutine that owns the stream, takes frames and
// actions, checks and applies the other peer's messages, and accuses a
// peer that breaks the rules. Moved from game.go unchanged (issue 19).
//
// Locking (see Game): everything here runs in the loop, except finished,
// which holds mu since serveFinished calls it too. The loop changes the
// machine and transcript only with mu held (locked, apply), and reads
// them without it.

import (
	"bufio"
	"errors"
	"fmt"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/libp2p/go-libp2p/core/network"
)

// run is the game's loop. st is the stream it starts with (nil to wait for
// a resume); an optional reader already holds buffered bytes of st.
func (g *Game) run(st network.Stream, rs ...*bufio.Reader) {
	defer close(g.done)
	defer g.closeFiles()
	// The event pump runs only while a loop does: a game abandoned before
	// its loop starts (a declined invitation) leaves no goroutine behind.
	if g.svc.cfg.panicHook != nil {
		g.events.hook = func() { g.hook("pump") }
	}
	go func() {
		defer g.recoverTo("event pump")
		g.events.pump()
	}()
	defer g.events.close()
	// Whatever the game still holds of the attachment budget goes back
	// when the loop stops, however it stops.
	defer g.closeBulk()
	// A panic in the loop (a variant's rules or player, the loop itself)
	// stops this game only (LIM-D9).
	defer func() {
		if r := recover(); r != nil {
			g.fail(g.panicError("game loop", r))
		}
	}()
	g.incoming = make(chan incomingFrame, 16)
	if st != nil {
		r := bufio.NewReader(st)
		// A stream this peer opened has no hello of the other peer yet:
		// until it comes, nothing new is written, so that what the other
		// peer lacks goes first and in order (see resend).
		awaitHello := len(rs) == 0
		if !awaitHello {
			r = rs[0]
		}
		g.useStream(st, r)
		g.awaitHello = awaitHello
	}
	g.trackClock(time.Now())
	g.afterChange()
	keepAlive := time.NewTicker(g.svc.cfg.IdleTimeout / 3)
	defer keepAlive.Stop()
	check := time.NewTicker(time.Second)
	defer check.Stop()
	for {
		if g.finished() {
			g.shutdown()
			return
		}
		select {
		case err := <-g.crashed:
			g.fail(err)
			return
		case in := <-g.incoming:
			if in.gen != g.streamGen {
				g.refundBulk(in.charge)
				continue
			}
			if in.err != nil {
				g.streamFailed(in.err, in.raw)
				continue
			}
			g.handleFrame(in.f, in.raw, in.charge)
		case req := <-g.actions:
			if _, ok := req.a.(closeAction); ok {
				g.dropStream()
				req.reply <- nil
				return
			}
			req.reply <- g.act(req.a)
		case a := <-g.attach:
			g.dropStream()
			g.useStream(a.st, a.r)
			if err := g.writeHello(a.st); err != nil {
				g.streamLost(err)
				continue
			}
			g.helloGen = g.streamGen
			g.svc.cfg.Logger.Info("game resumed", "game", g.id, "peer", g.peer, "remote", a.st.Conn().RemoteMultiaddr())
			// Both hellos are through: the game is connected again. A
			// stream whose hello has not come (a redial, useStream) does
			// not yet count as a connection.
			g.setAdjourned(false)
			g.clockResumed()
			g.resend(a.h)
			g.events.push(EventPhase{Phase: g.m.Phase})
		case <-keepAlive.C:
			if g.stream != nil {
				raw, _ := encodeFrame(frame{Ping: true})
				g.stream.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
				if err := writeFrame(g.stream, raw); err != nil {
					g.streamFailed(err, nil)
				}
			}
		case <-check.C:
			g.checkClock()
			g.checkGrace()
			g.checkBulk()
			g.checkPlayer()
			g.maybeRedial()
		case st := <-g.redialed:
			g.dialing = false
			if st == nil {
				continue
			}
			if g.stream != nil || g.finished() {
				st.Reset()
				continue
			}
			g.useStream(st, bufio.NewReader(st))
			g.awaitHello = true
			if err := g.writeHello(st); err != nil {
				g.streamLost(err)
			}
		}
	}
}

// lateChecker is a player whose own checks may end while the loop waits
// for the other program (Phantom Go's check of the opened garblings,
// MPC-D21): checkLate returns the violation they found, if any.
type lateChecker interface {
	checkLate(m *Machine) error
}

// checkPlayer reports what the player's late checks found (a certificate
// of a checked try in Phantom Go) as a received message's would be.
func (g *Game) checkPlayer() {
	lc, ok := g.player.(lateChecker)
	if !ok || g.finished() {
		return
	}
	err := g.locked(func() error { return lc.checkLate(g.m) })
	var v *Violation
	if !errors.As(err, &v) {
		return
	}
	if err := g.saveSecrets(); err != nil {
		g.svc.cfg.Logger.Error("saving the secrets", "game", g.id, "err", err)
	}
	if err := g.save(false); err != nil {
		g.svc.cfg.Logger.Error("saving the transcript", "game", g.id, "err", err)
	}
	g.accuse(v, evidenceOf(v))
}

// finished reports whether the game is decided and confirmed by both.
func (g *Game) finished() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Phase == PhaseDone
}

// shutdown ends a finished game: the stream is closed politely.
func (g *Game) shutdown() {
	if st := g.stream; st != nil {
		// Let the last frames reach the other side before closing. The
		// timer holds the stream only, not the game: a closed game is
		// let go at once.
		st.CloseWrite()
		time.AfterFunc(2*time.Second, func() { st.Close() })
	}
	if g.onAnswer != nil {
		g.onAnswer(g.answerError())
		g.onAnswer = nil
	}
}

// handleFrame processes one frame from the other peer.
func (g *Game) handleFrame(f frame, raw []byte, charge int64) {
	switch {
	case f.Bulk != nil:
		if _, ok := g.player.(bulkReceiver); !ok {
			// Only variants that take attachments buffer them: in any
			// other game a peer could make this one hold 4 attachments
			// of the largest size for nothing.
			g.accuse(violation(g.role.Other(), 0, "T-10", "attachment in a game of %s, which has none", g.m.Options.Variant), nil)
			return
		}
		if len(g.inBulk) == 0 {
			g.inBulkFirst = time.Now()
		}
		g.inBulk = append(g.inBulk, f.Bulk)
		g.inBulkBytes += len(f.Bulk)
		g.inBulkCharge += charge
		g.inBulkAt = time.Now()
		if g.inBulkBytes > maxPendingBulk {
			g.accuse(violation(g.role.Other(), 0, "T-10", "%d bytes of attachments without a message", g.inBulkBytes), nil)
		}
		return
	case f.Ping:
		return
	case f.Hello != nil:
		if f.Hello.Game != g.id {
			g.accuse(violation(g.role.Other(), 0, "T-3", "hello for another game"), [][]byte{raw})
			return
		}
		if g.helloGen == g.streamGen {
			return // a second hello on this stream: nothing to resend
		}
		g.helloGen = g.streamGen
		g.awaitHello = false
		g.dialWait = 0
		g.clockResumed()
		wasAdjourned := g.setAdjourned(false)
		if wasAdjourned {
			g.svc.cfg.Logger.Info("game resumed", "game", g.id, "peer", g.peer)
		}
		g.resend(f.Hello)
		if wasAdjourned {
			// Tell the caller the connection is back now, not at the
			// next move (the UI's "connection lost" goes away).
			g.events.push(EventPhase{Phase: g.m.Phase})
		}
		return
	case f.Msg != nil:
		g.receive(f.Msg, raw)
	}
}

// locked runs f with the game's lock held, and lets go of it even if f
// panics (LIM-D9: a panic in a variant must not leave View blocked).
func (g *Game) locked(f func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return f()
}

// apply applies m to the machine and appends it to the transcript if the
// machine takes it (or cheat: a cheating program in tests sends it
// anyway). where names the test hook called before (none if "").
func (g *Game) apply(m *Message, where string, cheat bool) (events []Event, err error) {
	err = g.locked(func() error {
		if where != "" {
			g.hook(where)
		}
		events, err = g.m.Apply(m)
		if err != nil && cheat {
			g.m.keep(m)
			events, err = nil, nil
		}
		if err == nil {
			g.tr.appendChecked(*m)
		}
		return err
	})
	return events, err
}

// receive checks and applies a message of the other peer.
func (g *Game) receive(m *Message, raw []byte) {
	other := g.role.Other()
	if m.From != other {
		g.accuse(violation(other, m.Seq, "T-3", "message claims to come from this peer's own role"), [][]byte{raw})
		return
	}
	err := g.locked(func() error { return g.tr.Check(m) })
	if err != nil {
		rule := "T-3"
		if errors.Is(err, ErrMalformed) {
			rule = "T-10"
		}
		if errors.Is(err, ErrDuplicate) {
			err = fmt.Errorf("%w: %v", ErrReplay, err)
		}
		g.accuse(&Violation{Accused: other, Rule: rule, Seq: int64(m.Seq), Detail: err.Error(), Err: err}, [][]byte{raw})
		return
	}
	var lastCharge *claimedCharge
	if g.m.clk != nil {
		lastCharge = g.m.clk.last
	}
	mark := g.clk.mark
	events, err := g.apply(m, "apply", false)
	if err != nil {
		var v *Violation
		if !errors.As(err, &v) {
			v = &Violation{Accused: other, Rule: "T-10", Seq: int64(m.Seq), Detail: err.Error(), Err: err}
		}
		g.accuse(v, [][]byte{raw})
		return
	}
	received := time.Now()
	if len(g.inBulk) > 0 && !g.inBulkFirst.IsZero() {
		// A message with attachments came when its first attachment
		// did: their transfer is the protocol's time (CLK-D16).
		received = g.inBulkFirst
	}
	g.inBulkFirst = time.Time{}
	// The attachments count against the budget until the player is
	// done with them.
	bulk, charge := g.inBulk, g.inBulkCharge
	g.inBulk, g.inBulkBytes, g.inBulkCharge = nil, 0, 0
	defer g.refundBulk(charge)
	g.pruneBulk(m.Ack)
	saveNow := true
	if br, ok := g.player.(bulkReceiver); ok {
		err := g.locked(func() error { return br.receiveBulk(g.m, g.role, m, bulk) })
		if err != nil {
			var v *Violation
			if !errors.As(err, &v) {
				v = &Violation{Accused: other, Rule: "T-10", Seq: int64(m.Seq), Detail: err.Error(), Err: err}
			}
			// The secrets before the record, which may now take
			// messages taken earlier and not written yet (PN-D15).
			if err := g.saveSecrets(); err != nil {
				g.svc.cfg.Logger.Error("saving the secrets", "game", g.id, "err", err)
			}
			if err := g.save(false); err != nil {
				g.svc.cfg.Logger.Error("saving the transcript", "game", g.id, "err", err)
			}
			g.accuse(v, evidenceOf(v))
			return
		}
		// The player's state moved on with the attachments, which are
		// not kept, and its secrets must never be older than the record
		// that holds the message. Neither is written now (a sync of the
		// secrets per received message, PN-D15) but with this peer's
		// next message, secrets first, both synced; lost in a crash
		// before it, the message was acknowledged by nothing and is sent
		// again on resume. A message that ends the game is written now.
		saveNow = g.m.Phase == PhaseDone
		if saveNow {
			if err := g.saveSecrets(); err != nil {
				g.svc.cfg.Logger.Error("saving the secrets", "game", g.id, "err", err)
			}
		}
	}
	if saveNow {
		if err := g.save(false); err != nil {
			g.svc.cfg.Logger.Error("saving the transcript", "game", g.id, "err", err)
		}
	}
	// The clock's part comes after the save on either path: a variant
	// whose saves wait for the next own message keeps its clocks too.
	g.emit(events)
	if _, ok := g.m.variant.(simultaneousClocks); ok && g.m.clk != nil {
		g.settleChoice(m, received)
	} else {
		g.settleMove(lastCharge, mark, received)
	}
	g.trackClock(received)
	g.afterChange()
}

// emit delivers events and reacts to the ones the game itself cares about.
func (g *Game) emit(events []Event) {
	for _, e := range events {
		g.events.push(e)
		switch e := e.(type) {
		case EventPhase:
			if g.onAnswer != nil && e.Phase == PhaseToss {
				g.onAnswer(nil)
				g.onAnswer = nil
			}
		case EventDeclined:
			if g.onAnswer != nil {
				g.onAnswer(fmt.Errorf("protocol: invitation declined: %s", e.Reason))
				g.onAnswer = nil
			}
		}
	}
}

func (g *Game) answerError() error {
	switch {
	case g.m.Outcome != nil && g.m.Outcome.Result.By == "declined":
		return errors.New("protocol: invitation declined")
	case g.m.Outcome != nil && g.m.Outcome.Violation != nil && g.m.Colors[0] == engine.Empty:
		return fmt.Errorf("protocol: the game ended before it started: %v", g.m.Outcome.Violation)
	}
	return nil
}

// accuse reports a violation of the other peer: a signed violation message
// with the evidence goes into the transcript and to the peer. The machine
// judges it as the other peer and `kakure verify` will (T-13, T-14): a
// proven violation ends the game with the other peer losing (T-12), an
// unproven report with no winner, or with nothing changed once the result
// is fixed or during an end audit, where this peer still sends what it
// owes (T-15).
func (g *Game) accuse(v *Violation, evidence [][]byte) {
	g.svc.cfg.Logger.Warn("peer violated the rules", "game", g.id, "violation", v.Error())
	var ev [][]byte
	for _, e := range evidence {
		if e != nil {
			ev = append(ev, e)
		}
	}
	body := ViolationBody{Accused: v.Accused, Rule: v.Rule, Detail: v.Detail, Evidence: ev}
	g.events.push(EventViolation{Violation: v})
	events, err := g.send(KindViolation, body)
	if err != nil {
		g.svc.cfg.Logger.Error("recording a violation", "game", g.id, "err", err)
		if errors.Is(err, engine.ErrWrongPhase) {
			// Refused by this peer's own machine: a second report that
			// would end nothing (REC-D5). The offending frame is dropped
			// and the connection kept, so that the grace period runs
			// out on a peer that withholds what it owes (T-11).
			return
		}
		g.dropStream()
		return
	}
	g.emit(events)
	if g.m.Phase == PhaseDone {
		g.dropStream()
		return
	}
	g.afterChange()
}
