package session

// The game's loop: the goroutine that owns the stream, takes frames and
// actions, checks and applies the other peer's messages, and accuses a
// peer that breaks the rules. Moved from game.go unchanged (issue 19).
//
// Locking (see Game): everything here runs in the loop, except finished,
// which holds mu since serveFinished calls it too. The loop changes the
// machine and transcript only with mu held (locked, apply), and reads
// them without it.

import (
	"github.com/kakure/kakure/protocol"

	"bufio"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/kakure/kakure/engine"
)

// run is the game's loop. st is the stream it starts with (nil to wait for
// a resume); an optional reader already holds buffered bytes of st.
func (g *Game) run(st network.Stream, rs ...*bufio.Reader) {
	defer close(g.done)
	defer g.closeFiles()
	// The event pump runs only while a loop does: a game abandoned before
	// its loop starts (a declined invitation) leaves no goroutine behind.
	if g.svc.cfg.hook != nil {
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
		g.startStream(st, rs)
	}
	g.trackClock(time.Now())
	g.afterChange()
	keepAlive := time.NewTicker(g.svc.cfg.IdleTimeout / 3)
	defer keepAlive.Stop()
	check := time.NewTicker(time.Second)
	defer check.Stop()
	for {
		if g.finished() {
			// The secrets of a finished game are left as one document,
			// not as the log of its tries (REC-D16).
			g.compactSecrets()
			if !time.Now().Before(g.lingerUntil) && !g.awaitsCrossing() {
				g.shutdown()
				return
			}
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
			g.heardAfterAbandon(in.f)
			g.handleFrame(in.f, in.raw, in.charge)
		case req := <-g.actions:
			if _, ok := req.a.(closeAction); ok {
				g.dropStream()
				req.reply <- nil
				return
			}
			req.reply <- g.act(req.a)
		case a := <-g.attach:
			g.useAttached(a)
		case <-keepAlive.C:
			g.sendPing()
		case <-check.C:
			g.checkClock()
			g.checkGrace()
			g.checkBulk()
			g.checkPlayer()
			g.maybeRedial()
		case st := <-g.redialed:
			g.useRedialed(st)
		}
	}
}

// startStream starts the loop on st, the stream it starts with; an
// optional reader already holds buffered bytes of st.
func (g *Game) startStream(st network.Stream, rs []*bufio.Reader) {
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

// useAttached takes the stream of a resume, whose hellos are through: the
// game is connected again, and what the other peer lacks is sent.
func (g *Game) useAttached(a attachReq) {
	g.dropStream()
	g.useStream(a.st, a.r)
	if err := g.writeHello(a.st); err != nil {
		g.streamLost(err)
		return
	}
	g.helloGen = g.streamGen
	g.helloAt = time.Now()
	g.svc.cfg.Logger.Info("game resumed", "game", g.id, "peer", g.peer, "remote", a.st.Conn().RemoteMultiaddr())
	// Both hellos are through: the game is connected again. A
	// stream whose hello has not come (a redial, useStream) does
	// not yet count as a connection.
	g.setAdjourned(false)
	g.clockResumed()
	g.resend(a.h)
	g.events.push(protocol.EventPhase{Phase: g.m.Phase})
}

// sendPing keeps the stream alive with a ping.
func (g *Game) sendPing() {
	if g.stream != nil {
		raw, _ := protocol.EncodeFrame(protocol.Frame{Ping: true})
		g.stream.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
		if err := protocol.WriteFrame(g.stream, raw); err != nil {
			g.streamFailed(err, nil)
		}
	}
}

// useRedialed takes the stream a redial opened, unless a stream came
// meanwhile or the game is over; it waits for the other peer's hello.
func (g *Game) useRedialed(st network.Stream) {
	g.dialing = false
	if st == nil {
		return
	}
	if g.stream != nil || g.finished() {
		st.Reset()
		return
	}
	g.useStream(st, bufio.NewReader(st))
	g.awaitHello = true
	if err := g.writeHello(st); err != nil {
		g.streamLost(err)
	}
}

// lateChecker is a player whose own checks may end while the loop waits
// for the other program (Phantom Go's check of the opened garblings,
// MPC-D21): checkLate returns the violation they found, if any.
type lateChecker interface {
	checkLate(m *protocol.Machine) error
}

// checkPlayer reports what the player's late checks found (a certificate
// of a checked try in Phantom Go) as a received message's would be.
func (g *Game) checkPlayer() {
	lc, ok := g.player.(lateChecker)
	if !ok || g.finished() {
		return
	}
	err := g.locked(func() error { return lc.checkLate(g.m) })
	var v *protocol.Violation
	if !errors.As(err, &v) {
		return
	}
	if err := g.saveSecrets(); err != nil {
		g.svc.cfg.Logger.Error("saving the secrets", "game", g.id, "err", err)
	}
	if err := g.save(false); err != nil {
		g.svc.cfg.Logger.Error("saving the transcript", "game", g.id, "err", err)
	}
	g.accuse(v, v.Evidence())
}

// finished reports whether the game is decided and confirmed by both.
func (g *Game) finished() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Phase == protocol.PhaseDone
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
func (g *Game) handleFrame(f protocol.Frame, raw []byte, charge int64) {
	if f.Report {
		// A report frame (MPC-D31) counts against the attachment budget
		// until its message is judged and recorded. It holds a violation
		// report, the one message whose evidence may exceed a message
		// frame; anything else in one is dropped as a frame over the size
		// cap would be (T-10).
		defer g.refundBulk(charge)
		if f.Msg == nil || f.Msg.Kind != protocol.KindViolation {
			g.dropFrame("a report frame that holds no violation report", nil)
			return
		}
	}
	switch {
	case f.Bulk != nil:
		if _, ok := g.player.(bulkReceiver); !ok {
			// Only variants that take attachments buffer them: in any
			// other game a peer could make this one hold 4 attachments
			// of the largest size for nothing. (The reader refuses them
			// before their body; this is a second line.)
			g.refundBulk(charge)
			g.dropFrame("an attachment in a game of "+string(g.m.Options.Variant)+", which has none", nil)
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
			g.dropFrame(fmt.Sprintf("%d bytes of attachments without a message", g.inBulkBytes), nil)
			g.clearBulk()
			g.streamFailed(fmt.Errorf("%w: %d bytes of attachments without a message", ErrBulkBudget, g.inBulkBytes), nil)
		}
		return
	case f.Ping:
		return
	case f.Hello != nil:
		if f.Hello.Game != g.id {
			g.dropFrame("a hello for another game", nil)
			return
		}
		if g.helloGen == g.streamGen {
			return // a second hello on this stream: nothing to resend
		}
		g.helloGen = g.streamGen
		g.helloAt = time.Now()
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
			g.events.push(protocol.EventPhase{Phase: g.m.Phase})
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
func (g *Game) apply(m *protocol.Message, where string, cheat bool) (events []protocol.Event, err error) {
	err = g.locked(func() error {
		if where != "" {
			g.hook(where)
		}
		events, err = g.m.Apply(m)
		if err != nil && cheat {
			g.m.Keep(m)
			events, err = nil, nil
		}
		if err == nil {
			g.tr.AppendChecked(*m)
		}
		return err
	})
	return events, err
}

// receive checks and applies a message of the other peer. What is not a
// valid signed message of the other peer for this game, or proves
// nothing against it, is dropped (T-10); a signed message that breaks a
// rule is reported with itself as the proof (T-13).
func (g *Game) receive(m *protocol.Message, raw []byte) {
	other := g.role.Other()
	if m.From != other {
		g.reportOrDrop(raw, errors.New("a message in this peer's own role"))
		return
	}
	g.hookAt("received", m.Kind)
	err := g.locked(func() error { return g.tr.Check(m) })
	if errors.Is(err, protocol.ErrDuplicate) {
		// A message sent again (a resend after a challenge or on a new
		// stream): this peer has it.
		g.clearBulk()
		return
	}
	if err != nil {
		g.clearBulk()
		if g.reportOrDrop(raw, err) && m.Game == g.id && m.Seq >= g.tr.Count(other) {
			// A message this peer still lacks came unusable (a bad
			// signature, a gap, an acknowledgement of a message it never
			// sent): on a new stream the hellos tell the other program
			// what to send again (T-3), as after a lost connection.
			g.streamFailed(fmt.Errorf("%w: %v", ErrResync, err), nil)
		}
		return
	}
	if !g.checkAttachments(m, raw) {
		return
	}
	var lastCharge *protocol.ClaimedCharge
	if g.m.Clocks != nil {
		lastCharge = g.m.Clocks.Last
	}
	mark := g.clk.mark
	events, err := g.apply(m, "apply", false)
	g.hookAt("in-applied", m.Kind)
	if errors.Is(err, protocol.ErrAfterEnd) {
		g.clearBulk()
		g.dropFrame(fmt.Sprintf("%s message %d after the end of the game", m.Kind, m.Seq), nil)
		return
	}
	if err != nil {
		g.clearBulk()
		g.reportOrDrop(raw, err)
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
		var accused bool
		if saveNow, accused = g.takeAttachments(br, m, bulk); accused {
			return
		}
	}
	if saveNow {
		if err := g.save(false); err != nil {
			g.svc.cfg.Logger.Error("saving the transcript", "game", g.id, "err", err)
		}
	}
	g.hookAt("taken", m.Kind)
	// The clock's part comes after the save on either path: a variant
	// whose saves wait for the next own message keeps its clocks too.
	g.emit(events)
	if g.m.ClocksTogether() && g.m.Timed() {
		g.settleChoice(m, received)
	} else {
		g.settleMove(lastCharge, mark, received)
	}
	g.trackClock(received)
	g.afterChange()
}

// checkAttachments checks the attachments that came with m against what
// it signs. It is false when they do not match: the message is dropped
// with them (reported if it breaks a rule itself) and the stream reset.
func (g *Game) checkAttachments(m *protocol.Message, raw []byte) bool {
	if br, ok := g.player.(bulkReceiver); ok {
		if err := g.locked(func() error { return br.checkBulk(g.m, m, g.inBulk) }); err != nil {
			// Attachments that do not match what the message signs prove
			// nothing (nobody signed them). The message is dropped with
			// them, and the stream reset: the other program sends both
			// again on the next one (a program that keeps sending wrong
			// ones withholds its message, T-11).
			// The message itself may break a rule (its signed body lacks
			// a digest): that is proof, reported as any other.
			g.clearBulk()
			if g.reportOrDrop(raw, fmt.Errorf("%w: %s message %d: %v", ErrBadAttachments, m.Kind, m.Seq, err)) {
				g.streamFailed(fmt.Errorf("%w: %v", ErrBadAttachments, err), nil)
			}
			return false
		}
	} else if len(g.inBulk) > 0 {
		g.clearBulk()
	}
	return true
}

// takeAttachments gives m's attachments to the player. A proof against the
// other program in them is accused (accused true), the secrets and the
// record saved first; saveNow tells that the record is to be saved now
// (a message that ends the game), else with this peer's next message.
func (g *Game) takeAttachments(br bulkReceiver, m *protocol.Message, bulk [][]byte) (saveNow, accused bool) {
	err := g.locked(func() error { return br.receiveBulk(g.m, g.role, m, bulk) })
	var v *protocol.Violation
	if err != nil && (!errors.As(err, &v) || v.Evidence() == nil) {
		// Not a proof against the other program: this peer's own
		// trouble with its secrets (the player says so at its turn).
		g.svc.cfg.Logger.Error("taking the other's attachments", "game", g.id, "kind", m.Kind, "seq", m.Seq, "err", err)
		err = nil
	}
	if err != nil {
		// The secrets before the record, which may now take
		// messages taken earlier and not written yet (PN-D15).
		if err := g.saveSecrets(); err != nil {
			g.svc.cfg.Logger.Error("saving the secrets", "game", g.id, "err", err)
		}
		if err := g.save(false); err != nil {
			g.svc.cfg.Logger.Error("saving the transcript", "game", g.id, "err", err)
		}
		g.accuse(v, v.Evidence())
		return false, true
	}
	// The player's state moved on with the attachments, which are
	// not kept, and its secrets must never be older than the record
	// that holds the message. Neither is written now (a sync of the
	// secrets per received message, PN-D15) but with this peer's
	// next message, secrets first, both synced; lost in a crash
	// before it, the message was acknowledged by nothing and is sent
	// again on resume. A message that ends the game is written now.
	saveNow = g.m.Phase == protocol.PhaseDone
	if saveNow {
		if err := g.saveSecrets(); err != nil {
			g.svc.cfg.Logger.Error("saving the secrets", "game", g.id, "err", err)
		}
	}
	return saveNow, false
}

// emit delivers events and reacts to the ones the game itself cares about.
func (g *Game) emit(events []protocol.Event) {
	for _, e := range events {
		g.events.push(e)
		switch e := e.(type) {
		case protocol.EventPhase:
			if g.onAnswer != nil && e.Phase == protocol.PhaseToss {
				g.onAnswer(nil)
				g.onAnswer = nil
			}
		case protocol.EventDeclined:
			if g.onAnswer != nil {
				g.onAnswer(fmt.Errorf("protocol: invitation declined: %s", e.Reason))
				g.onAnswer = nil
			}
		case protocol.EventTimeoutRefused:
			if e.By != g.role && g.m.Timed() {
				g.claimRefused()
			}
		case protocol.EventTimeoutClaimVoid:
			if e.By == g.role {
				// The claim crossed a message that stopped the clock it
				// was about: it changes nothing (CLK-D35).
				g.clk.claimed = false
			}
		case protocol.EventChallenged:
			if e.Reporter != g.role {
				g.answerChallenge(e.Ack)
			} else {
				g.challengedAt = time.Now()
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
// proven violation ends the game with the other peer losing (T-12); a
// report that proves nothing changes nothing (REC-D11). This peer reports
// only what its evidence proves (reportOrDrop) or a certificate (T-8).
func (g *Game) accuse(v *protocol.Violation, evidence [][]byte) {
	g.svc.cfg.Logger.Warn("peer violated the rules", "game", g.id, "violation", v.Error())
	var ev [][]byte
	for _, e := range evidence {
		if e != nil {
			ev = append(ev, e)
		}
	}
	body := protocol.ViolationBody{Accused: v.Accused, Rule: v.Rule, Detail: v.Detail, Evidence: ev}
	g.events.push(protocol.EventViolation{Violation: v})
	events, err := g.send(protocol.KindViolation, body)
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
	if g.m.Phase == protocol.PhaseDone {
		g.dropStream()
		return
	}
	g.afterChange()
}

// maxDroppedFrames is how many frames of one stream may be dropped (T-10)
// before the stream is reset; the game resumes on a new one.
const maxDroppedFrames = 256

// ErrBadAttachments reports attachments that do not match the message
// that names them; the message is dropped with them (T-10).
var ErrBadAttachments = errors.New("protocol: attachments that do not match their message")

// EventDropped: input of the other peer was dropped (T-10): not a valid
// signed message of the game, or one that proves nothing. The game is
// unchanged.
type EventDropped struct {
	protocol.SessionEvent
	Reason string
}

// dropFrame drops input that is not a valid signed message of the other
// peer for this game, or proves nothing against it (T-10): it is logged,
// told to the caller and counted against the stream, and never changes
// the game.
func (g *Game) dropFrame(why string, err error) {
	g.dropped++
	if g.dropped <= 8 || g.dropped%64 == 0 {
		g.svc.cfg.Logger.Warn("input of the other peer dropped (T-10)", "game", g.id, "peer", g.peer, "why", why, "err", err, "dropped", g.dropped)
		reason := why
		if err != nil {
			reason += ": " + err.Error()
		}
		g.events.push(EventDropped{Reason: reason})
	}
	if g.dropped > maxDroppedFrames && g.stream != nil {
		g.streamFailed(fmt.Errorf("%w: %d frames dropped on one stream", ErrBulkBudget, g.dropped), nil)
	}
}

// ErrResync is why a stream is dropped after a message of the other peer
// that this peer lacks came unusable: the game resumes on a new stream,
// whose hellos have the other program send it again (T-10).
var ErrResync = errors.New("protocol: a message came unusable; the stream starts again")

// reportOrDrop reports the other peer for the frame raw when the judge
// will find it proof (T-13): a message the other peer signed that breaks
// a rule by itself. Anything else is dropped (T-10): this peer never
// files a report that proves nothing. cause is why the frame was not
// taken. It returns true when the frame was dropped.
func (g *Game) reportOrDrop(raw []byte, cause error) (dropped bool) {
	accused := g.role.Other()
	view := g.m.History()
	var chain []*protocol.Message
	for i := range view {
		if view[i].From == accused {
			chain = append(chain, &view[i])
		}
	}
	probe := func() (*protocol.Machine, error) {
		m := protocol.NewMachine(g.id)
		for i := range view {
			if _, err := m.Apply(&view[i]); err != nil {
				return nil, fmt.Errorf("this peer's game does not replay (message %d: %v)", i, err)
			}
		}
		return m, nil
	}
	v, _, why := protocol.JudgeEvidence(g.id, g.m.Peers[accused], accused, view, chain, probe, raw)
	if v == nil {
		if why == "" {
			why = "a valid message in this peer's game"
		}
		g.dropFrame(why, cause)
		return true
	}
	g.accuse(v, [][]byte{raw})
	return false
}
