package session

// The game's stream: hellos and writing frames on it, taking a new one on
// resume, losing it (adjourning), and redialling. Moved from game.go
// unchanged (issue 19).
//
// Locking (see Game): the stream and the redial's fields are owned by the
// loop, and these methods run in it, except: attachStream runs on the
// service's stream handler and only hands the stream over a channel;
// serveFinished runs there once the loop has stopped and reads the
// transcript with mu held; writeHello and writeMessage also run before
// the loop starts (Resume, writeMessageDirect for a decline) or after it
// stopped (serveFinished). adjournAfter and setAdjourned write adjourn
// with mu held. useStream starts the stream's reader goroutine and
// maybeRedial the dialling goroutine: they touch only the bulk budget
// (bulkMu), the channels and fields that never change.

import (
	"github.com/kakure/kakure/protocol"

	"bufio"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
)

// writeHello sends the hello frame on st.
func (g *Game) writeHello(st network.Stream) error {
	raw, err := protocol.EncodeFrame(protocol.Frame{Hello: &protocol.Hello{Game: g.id, Have: [2]uint64{g.tr.Count(protocol.Inviter), g.tr.Count(protocol.Invitee)}}})
	if err != nil {
		return err
	}
	st.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
	return protocol.WriteFrame(st, raw)
}

// writeMessageDirect builds a message, appends it and writes it to st
// without the machine (for a decline before any game exists).
func (g *Game) writeMessageDirect(st network.Stream, kind protocol.Kind, body any) error {
	m, err := g.build(kind, body)
	if err != nil {
		return err
	}
	if err := g.tr.Append(m); err != nil {
		return err
	}
	return g.writeMessage(st, &m)
}

func (g *Game) writeMessage(st network.Stream, m *protocol.Message) error {
	frames := [][]byte(nil)
	if g.svc.cfg.tamper != nil {
		c := *m
		frames = g.svc.cfg.tamper(&c, g.svc.key)
	}
	st.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
	if frames == nil {
		raw, err := protocol.EncodeFrame(protocol.Frame{Msg: m})
		if err != nil {
			return err
		}
		if len(raw) > protocol.MaxFrameSize && m.Kind == protocol.KindViolation {
			// A report whose certificate does not fit a message frame
			// goes as a report frame (MPC-D31).
			err = protocol.WriteReportFrame(st, raw)
		} else {
			err = protocol.WriteFrameUnchecked(st, raw)
		}
		if err != nil {
			return err
		}
	}
	for _, raw := range frames {
		if err := protocol.WriteFrameUnchecked(st, raw); err != nil {
			return err
		}
	}
	if st == g.stream && m.From == g.role && g.sentOnStream != nil {
		g.sentOnStream[m.Seq] = true
	}
	return nil
}

// attachStream hands a resumed stream to the loop.
func (g *Game) attachStream(st network.Stream, r *bufio.Reader, h *protocol.Hello) {
	select {
	case <-g.done:
		// The loop has stopped: never park the stream in the buffer of
		// attach, where nothing would read or close it.
		g.serveFinished(st, h)
		return
	default:
	}
	select {
	case g.attach <- attachReq{st: st, r: r, h: h}:
	case <-g.done:
		g.serveFinished(st, h)
	}
}

// serveFinished answers a resume of a game whose loop has stopped. If the
// game is over here, the other peer may still lack this peer's last
// messages (it was killed before they reached it, T-11): they go once
// more, then the stream closes. Otherwise the stream is reset.
func (g *Game) serveFinished(st network.Stream, h *protocol.Hello) {
	if h == nil || !g.finished() {
		st.Reset()
		return
	}
	g.mu.Lock()
	var mine []protocol.Message
	for _, m := range g.tr.Messages {
		if m.From == g.role && m.Seq >= h.Have[g.role] {
			mine = append(mine, m)
		}
	}
	g.mu.Unlock()
	if err := g.writeHello(st); err != nil {
		st.Reset()
		return
	}
	for i := range mine {
		err := g.writeBulk(st, mine[i].Seq)
		if err == nil {
			err = g.writeMessage(st, &mine[i])
		}
		if err != nil {
			st.Reset()
			return
		}
	}
	st.CloseWrite()
	time.AfterFunc(2*time.Second, func() { st.Close() })
}

func (g *Game) useStream(st network.Stream, r *bufio.Reader) {
	g.stream = st
	g.dropped = 0
	g.sentOnStream = map[uint64]bool{}
	g.awaitHello = false
	g.streamGen++
	// Attachments belong to the next message on their own stream: the
	// other peer sends them again with the message on the new one.
	g.clearBulk()
	gen := g.streamGen
	idle := g.svc.cfg.IdleTimeout
	_, takesBulk := g.player.(bulkReceiver)
	go func() {
		defer g.recoverTo("stream reader")
		for {
			st.SetReadDeadline(time.Now().Add(idle))
			var charge int64
			f, raw, err := protocol.ReadFrameJSONWith(r, func(n uint64, kind protocol.FrameKind) error {
				if kind == protocol.FrameMessage {
					return nil
				}
				if !takesBulk {
					// Refused before its body is read (LIM-D8): only a
					// variant that takes attachments has certificates
					// that need a report frame (MPC-D31).
					if kind == protocol.FrameReport {
						return errReportRefused
					}
					return errBulkRefused
				}
				// The bytes are counted before they are allocated; over
				// the budget, this stream waits (LIM-D10).
				if err := g.chargeBulk(int64(n)); err != nil {
					return err
				}
				charge = int64(n)
				st.SetReadDeadline(time.Now().Add(idle))
				return nil
			})
			if err != nil && charge > 0 {
				g.refundBulk(charge)
				charge = 0
			}
			g.hook("reader")
			if f.Msg != nil {
				g.hookAt("read", f.Msg.Kind)
			}
			select {
			case g.incoming <- incomingFrame{gen: gen, f: f, raw: raw, err: err, charge: charge}:
			case <-g.done:
				g.refundBulk(charge)
				return
			}
			if err != nil && !errors.Is(err, protocol.ErrMalformed) {
				return
			}
			// A malformed frame was read whole: the stream goes on
			// (T-10 drops it).
		}
	}()
}

// endLinger is how long a finished game's stream stays half open after
// its last message, for the other program to read it, before it is reset.
const endLinger = 5 * time.Second

func (g *Game) dropStream() {
	if g.stream != nil {
		if g.m.Phase == protocol.PhaseDone {
			// The game's last message (a result, a report) must reach
			// the other program: a reset lets it throw away what it has
			// not read yet, and the other program, left without the
			// message that ended the game, would wait adjourned for
			// ever. Closing the write side sends it after everything
			// written; the reset follows endLinger later, so that a
			// peer that goes on writing (T-10) is still cut off.
			st := g.stream
			st.CloseWrite()
			time.AfterFunc(endLinger, func() { st.Reset() })
		} else {
			g.stream.Reset()
		}
		g.stream = nil
		g.streamGen++
	}
	g.clearBulk()
}

// streamLost drops a stream that failed on a write: the game is
// adjourned as when a read fails (the reader's error, of a stream
// generation now gone, is not seen), unless it is over.
func (g *Game) streamLost(err error) {
	g.dropStream()
	g.adjournAfter(err)
}

// adjournAfter marks the game adjourned after the loss of its stream and
// tells the caller once, unless the game is over.
func (g *Game) adjournAfter(err error) {
	if g.m.Phase == protocol.PhaseDone || g.m.Phase == protocol.PhaseConfirm {
		return
	}
	g.mu.Lock()
	was := g.adjourn
	g.adjourn = true
	g.mu.Unlock()
	if !was {
		g.svc.cfg.Logger.Info("connection lost; the game is adjourned", "game", g.id, "peer", g.peer, "err", err)
		g.events.push(protocol.EventAdjourned{Reason: err.Error()})
	}
}

// streamFailed handles a read error: a malformed frame is dropped and the
// stream goes on (T-10); an oversized frame or a refused attachment,
// whose body was not read, is dropped with the stream; a broken or
// silent connection adjourns the game (T-11). None of them changes the
// game: a new stream resumes it.
func (g *Game) streamFailed(err error, raw []byte) {
	switch {
	case errors.Is(err, protocol.ErrMalformed):
		if g.reportOrDrop(raw, err) && g.stream != nil {
			// It may have stood for a message this peer lacks: the
			// hellos of a new stream say what to send again.
			g.streamFailed(fmt.Errorf("%w: %v", ErrResync, err), nil)
		}
		return
	case errors.Is(err, errBulkRefused):
		g.dropFrame("an attachment in a game of "+string(g.m.Options.Variant)+", which has none", nil)
	case errors.Is(err, errReportRefused):
		g.dropFrame("a report frame in a game of "+string(g.m.Options.Variant)+", which has no certificates", nil)
	case errors.Is(err, protocol.ErrFrameTooLarge):
		g.dropFrame("a frame over the size cap", err)
	}
	if errors.Is(err, ErrResync) || errors.Is(err, ErrBadAttachments) || errors.Is(err, ErrBulkBudget) ||
		errors.Is(err, errBulkRefused) || errors.Is(err, errReportRefused) || errors.Is(err, protocol.ErrFrameTooLarge) {
		g.badInputAt = time.Now()
	}
	switch {
	default:
		if errors.Is(err, ErrBulkBudget) {
			g.svc.cfg.Logger.Warn("attachments over the budget; the game is adjourned", "game", g.id, "peer", g.peer, "err", err)
		}
		g.dropStream()
		g.adjournAfter(err)
		if g.onAnswer != nil && g.m.Phase == protocol.PhaseAnswer {
			g.onAnswer(fmt.Errorf("%w: %w", ErrNoAnswer, err))
			g.onAnswer = nil
		}
	}
}

// resend sends the messages of this peer that the other side lacks.
func (g *Game) resend(h *protocol.Hello) {
	have := h.Have[g.role]
	for i := range g.tr.Messages {
		m := &g.tr.Messages[i]
		if m.From == g.role && m.Seq >= have && g.stream != nil && !g.sentOnStream[m.Seq] {
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
}

// setAdjourned records whether the connection to the other peer is down,
// and returns what it was.
func (g *Game) setAdjourned(v bool) (was bool) {
	g.mu.Lock()
	was, g.adjourn = g.adjourn, v
	g.mu.Unlock()
	return was
}

// maybeRedial reconnects an adjourned game while both programs run: the
// inviter opens a new stream, with growing pauses (1 s to 30 s), at once
// when a new connection to the invitee comes up; the invitee waits, so
// that the two never race with two streams. The inviter dials the
// invitee for it unless the caller redials it (Config.Redialled): then
// it waits for a connection. A program that restarts dials by itself
// (Service.Resume).
func (g *Game) maybeRedial() {
	if g.connected.Swap(false) && g.stream == nil {
		g.nextDial, g.dialWait = time.Time{}, 0
	}
	if g.stream != nil || g.dialing || g.role != protocol.Inviter || time.Now().Before(g.nextDial) {
		return
	}
	if g.m.Phase == protocol.PhaseInvite || g.m.Phase == protocol.PhaseAnswer || g.m.Phase == protocol.PhaseDone {
		return
	}
	leftToCaller := g.svc.cfg.Redialled != nil && g.svc.cfg.Redialled(g.peer)
	if leftToCaller && g.svc.cfg.Host.Network().Connectedness(g.peer) != network.Connected {
		return // peerConnected wakes it when the caller's redial connects
	}
	if g.dialWait == 0 {
		g.dialWait = time.Second
	} else if g.dialWait *= 2; g.dialWait > 30*time.Second {
		g.dialWait = 30 * time.Second
	}
	g.nextDial = time.Now().Add(g.dialWait)
	g.dialing = true
	go func() {
		defer g.recoverTo("redial")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if leftToCaller {
			ctx = network.WithNoDial(ctx, "kakure: the caller redials")
		}
		st, err := g.svc.openStream(ctx, g.peer)
		if err != nil {
			g.svc.cfg.Logger.Info("redial failed", "game", g.id, "peer", g.peer, "err", err, "next in", g.dialWait)
			st = nil
		} else {
			g.svc.cfg.Logger.Info("redialled", "game", g.id, "peer", g.peer, "remote", st.Conn().RemoteMultiaddr())
		}
		select {
		case g.redialed <- st:
		case <-g.done:
			if st != nil {
				st.Reset()
			}
		}
	}()
}
