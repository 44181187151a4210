package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	ma "github.com/multiformats/go-multiaddr"
)

// Game is one running game seen from this peer. Its caller (a user
// interface or a bot) reads Events, looks at View and calls Do; the game
// does the rest: signing, sending, checking, saving, the automatic steps
// of the protocol.
type Game struct {
	svc  *Service
	id   GameID
	role Role
	peer peer.ID

	// mu guards the state below for readers outside the loop (View).
	mu     sync.Mutex
	tr     *Transcript
	m      *Machine
	player variantPlayer
	toss   *commit.Opening
	closed bool
	// endErr is the error that stopped the loop (a panic, LIM-D9).
	endErr  error
	adjourn bool

	events   *eventQueue
	actions  chan actionReq
	attach   chan attachReq
	done     chan struct{}
	onAnswer func(error)
	// crashed carries the panic of a helper goroutine to the loop.
	crashed chan error

	// bulkMu guards the attachment bytes this game holds of the service's
	// budget (LIM-D10): readers charge them, the loop refunds them, and
	// the end of the loop gives back what is left.
	bulkMu     sync.Mutex
	bulkHeld   int64
	bulkClosed bool

	// Owned by the loop goroutine.
	stream    network.Stream
	streamGen int
	incoming  chan incomingFrame
	// record and secrets write the record and the secrets file.
	record  *recordLog
	secrets *secretsLog
	// inBulk holds the bulk frames received since the last message; they
	// belong to the next message of the other peer.
	inBulk      [][]byte
	inBulkBytes int
	// inBulkCharge is what inBulk holds of the budget; inBulkAt is when
	// its last frame came.
	inBulkCharge int64
	inBulkAt     time.Time
	// awaitHello is true on a stream this peer opened until the other
	// peer's hello arrives; messages made meanwhile wait for resend.
	awaitHello bool
	// sentOnStream marks the own messages already written on the current
	// stream, so that answering a hello never sends one twice (the other
	// peer would rightly take the copy for a replay).
	sentOnStream map[uint64]bool
	// ownBulk holds the attachments of this peer's messages that the other
	// peer may not have yet, by sequence number, to send again on resume.
	ownBulk   map[uint64][][]byte
	autoSince time.Time

	// redialed delivers the streams that maybeRedial opened (nil on
	// failure); dialing and nextDial pace the attempts.
	redialed chan network.Stream
	dialing  bool
	nextDial time.Time
	dialWait time.Duration
	// connected is set when a new connection to the peer comes up (the
	// node redialled it, or the peer did): the next redial goes at once
	// instead of waiting out its pause.
	connected atomic.Bool

	// helloGen is the stream generation whose hello was answered: one
	// hello per stream is answered by resending what the other side
	// lacks; more would let a peer make this one resend the whole game
	// for every few bytes it sends.
	helloGen int

	// clk is this peer's measurement of the clocks (CLK-D8).
	clk gameClockState
}

type actionReq struct {
	a     Action
	reply chan error
}

type attachReq struct {
	st network.Stream
	r  *bufio.Reader
	h  *hello
}

type incomingFrame struct {
	gen int
	f   frame
	raw []byte
	err error
	// charge is what the frame holds of the attachment budget.
	charge int64
}

// ID returns the game's ID.
func (g *Game) ID() GameID { return g.id }

// Role returns this peer's role.
func (g *Game) Role() Role { return g.role }

// Peer returns the other peer.
func (g *Game) Peer() peer.ID { return g.peer }

// Events delivers what happens in the game, in order. The channel is
// closed when the game is over and every event has been read.
func (g *Game) Events() <-chan Event { return g.events.out }

// Done is closed when the game's loop has stopped.
func (g *Game) Done() <-chan struct{} { return g.done }

// Outcome returns how the game ended, or nil while it goes on.
func (g *Game) Outcome() *Outcome {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m.Outcome == nil {
		return nil
	}
	o := *g.m.Outcome
	return &o
}

// Transcript returns a copy of the transcript so far.
func (g *Game) Transcript() *Transcript {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tr.Clone()
}

// RecordPath returns where the transcript is saved ("" when not saved).
func (g *Game) RecordPath() string {
	if g.svc.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(g.svc.cfg.Dir, g.id.String()+".record.json")
}

func (g *Game) secretsPath() string {
	if g.svc.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(g.svc.cfg.Dir, g.id.String()+".secrets.json")
}

// Do asks the game to carry out an action of the local player. It returns
// once the action was checked and sent, or refused.
func (g *Game) Do(a Action) error {
	req := actionReq{a: a, reply: make(chan error, 1)}
	select {
	case g.actions <- req:
	case <-g.done:
		return g.stopped()
	}
	select {
	case err := <-req.reply:
		return err
	case <-g.done:
		return g.stopped()
	}
}

// stopped is the error of an action on a game whose loop has stopped:
// the error that stopped it (LIM-D9), or the game is over.
func (g *Game) stopped() error {
	if err := g.Err(); err != nil {
		return err
	}
	return fmt.Errorf("protocol: game %s: %w", g.id, engine.ErrGameOver)
}

// Close stops the game's loop and closes its stream. A game that is not
// over stays on disk and can be resumed.
func (g *Game) Close() {
	g.mu.Lock()
	already := g.closed
	g.closed = true
	g.mu.Unlock()
	if !already {
		select {
		case g.actions <- actionReq{a: closeAction{}, reply: make(chan error, 1)}:
		case <-g.done:
		}
	}
	<-g.done
	// A closed game is no longer served: Resume and the other peer's
	// resume load it again from disk.
	g.svc.forget(g)
}

type closeAction struct{}

func (closeAction) action() {}

// secretsFile is what a peer keeps to itself about a game, to resume it.
type secretsFile struct {
	Role    Role            `json:"role"`
	Toss    *commit.Opening `json:"toss,omitempty"`
	Variant json.RawMessage `json:"variant"`
	Addrs   []string        `json:"peer_addrs,omitempty"`
}

// saveSecrets appends the change of this peer's secrets to its secrets
// file (mode 0600) and syncs it.
func (g *Game) saveSecrets() error {
	path := g.secretsPath()
	if path == "" {
		return nil
	}
	vs, err := g.player.secrets()
	if err != nil {
		return err
	}
	var addrs []string
	for _, a := range g.svc.cfg.Host.Peerstore().Addrs(g.peer) {
		addrs = append(addrs, a.String())
	}
	data, err := json.Marshal(secretsFile{Role: g.role, Toss: g.toss, Variant: vs, Addrs: addrs})
	if err != nil {
		return fmt.Errorf("protocol: encode secrets: %w", err)
	}
	if g.secrets == nil {
		g.secrets = &secretsLog{file: appendFile{path: path}}
	}
	g.secrets.hook = g.storageHook()
	return g.secrets.save(data)
}

// save appends the transcript's new messages to the record file. Before
// one of this peer's own messages leaves, the save is durable (synced): a
// message sent must survive a crash, or the peer could sign a different
// one with the same number after a restart. A received message needs no
// sync of its own: if it is lost in a crash, the other peer sends it
// again on resume, and the next durable save (before any message that
// acknowledges it) keeps it. A finished game's record gets its closing
// line: the file is then the JSON document of docs/record.md.
func (g *Game) save(durable bool) error {
	path := g.RecordPath()
	if path == "" {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.record == nil {
		g.record = newRecordLog(path, 0, 0, false)
	}
	g.record.hook = g.storageHook()
	return g.record.append(g.tr, durable, g.m.Phase == PhaseDone)
}

// storageHook is the test hook called between an append and its sync.
func (g *Game) storageHook() func(string) {
	if g.svc.cfg.panicHook == nil {
		return nil
	}
	return g.hook
}

// closeFiles closes the record and secrets files.
func (g *Game) closeFiles() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.record != nil {
		g.record.file.close()
	}
	if g.secrets != nil {
		g.secrets.file.close()
	}
}

// writeHello sends the hello frame on st.
func (g *Game) writeHello(st network.Stream) error {
	raw, err := encodeFrame(frame{Hello: &hello{Game: g.id, Have: [2]uint64{g.tr.Count(Inviter), g.tr.Count(Invitee)}}})
	if err != nil {
		return err
	}
	st.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
	return writeFrame(st, raw)
}

// build makes, signs and returns the next message of this peer.
func (g *Game) build(kind Kind, body any) (Message, error) {
	raw, err := encodeBody(body)
	if err != nil {
		return Message{}, err
	}
	seq, prev := g.tr.Next(g.role)
	ack, ackHash := g.tr.AckFor(g.role)
	m := Message{Game: g.id, From: g.role, Seq: seq, Prev: prev, Ack: ack, AckHash: ackHash, Kind: kind, Body: raw}
	if err := m.Sign(g.svc.key); err != nil {
		return Message{}, err
	}
	return m, nil
}

// writeMessageDirect builds a message, appends it and writes it to st
// without the machine (for a decline before any game exists).
func (g *Game) writeMessageDirect(st network.Stream, kind Kind, body any) error {
	m, err := g.build(kind, body)
	if err != nil {
		return err
	}
	if err := g.tr.Append(m); err != nil {
		return err
	}
	return g.writeMessage(st, &m)
}

func (g *Game) writeMessage(st network.Stream, m *Message) error {
	frames := [][]byte(nil)
	if g.svc.cfg.tamper != nil {
		c := *m
		frames = g.svc.cfg.tamper(&c, g.svc.key)
	}
	if frames == nil {
		raw, err := encodeFrame(frame{Msg: m})
		if err != nil {
			return err
		}
		frames = [][]byte{raw}
	}
	st.SetWriteDeadline(time.Now().Add(g.svc.cfg.IdleTimeout))
	for _, raw := range frames {
		if err := writeFrameUnchecked(st, raw); err != nil {
			return err
		}
	}
	if st == g.stream && m.From == g.role && g.sentOnStream != nil {
		g.sentOnStream[m.Seq] = true
	}
	return nil
}

// send makes the next message, checks it against the machine, appends
// and saves it, then writes it to the stream if there is one. It is the
// only way this peer's messages come to be.
func (g *Game) send(kind Kind, body any) ([]Event, error) {
	cheat := false
	body = g.stampMove(kind, body)
	if g.svc.cfg.rewrite != nil {
		kind, body, cheat = g.svc.cfg.rewrite(g, kind, body)
	}
	m, err := g.build(kind, body)
	if err != nil {
		return nil, err
	}
	events, err := g.apply(&m, "", cheat)
	if err != nil {
		var v *Violation
		if errors.As(err, &v) {
			// Our own message breaks the rules: the action is refused and
			// nothing is sent.
			return nil, fmt.Errorf("protocol: %s refused: %s: %w", kind, v.Detail, engine.ErrWrongPhase)
		}
		return nil, err
	}
	g.trackClock(time.Now())
	// The attachments are kept in memory for the message to go again
	// on a new stream; after a crash the player makes them again
	// (PN-D14).
	if bb, ok := body.(bulkBody); ok {
		g.keepBulk(m.Seq, bb.attachments())
	}
	// The secrets first: in Phantom Go what the messages taken since the
	// last save changed in them is not written yet (PN-D15), and the
	// record must never be ahead of them (a chat line, a resignation, a
	// report go without the player's own step before them).
	if _, defers := g.player.(bulkReceiver); defers {
		if err := g.saveSecrets(); err != nil {
			return nil, err
		}
	}
	if err := g.save(true); err != nil {
		return nil, err
	}
	g.hook("saved")
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
	}
	return events, nil
}

// attachStream hands a resumed stream to the loop.
func (g *Game) attachStream(st network.Stream, r *bufio.Reader, h *hello) {
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
func (g *Game) serveFinished(st network.Stream, h *hello) {
	if h == nil || !g.finished() {
		st.Reset()
		return
	}
	g.mu.Lock()
	var mine []Message
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

func (g *Game) useStream(st network.Stream, r *bufio.Reader) {
	g.stream = st
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
			f, raw, err := readFrameJSONWith(r, func(n uint64, bulk bool) error {
				if !bulk {
					return nil
				}
				if !takesBulk {
					// Refused before its body is read (LIM-D8).
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
			select {
			case g.incoming <- incomingFrame{gen: gen, f: f, raw: raw, err: err, charge: charge}:
			case <-g.done:
				g.refundBulk(charge)
				return
			}
			if err != nil {
				return
			}
		}
	}()
}

// endLinger is how long a finished game's stream stays half open after
// its last message, for the other program to read it, before it is reset.
const endLinger = 5 * time.Second

func (g *Game) dropStream() {
	if g.stream != nil {
		if g.m.Phase == PhaseDone {
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
	if g.m.Phase == PhaseDone || g.m.Phase == PhaseConfirm {
		return
	}
	g.mu.Lock()
	was := g.adjourn
	g.adjourn = true
	g.mu.Unlock()
	if !was {
		g.svc.cfg.Logger.Info("connection lost; the game is adjourned", "game", g.id, "peer", g.peer, "err", err)
		g.events.push(EventAdjourned{Reason: err.Error()})
	}
}

// streamFailed handles a read error: an oversized or malformed frame is a
// violation; a broken or silent connection adjourns the game (T-11).
func (g *Game) streamFailed(err error, raw []byte) {
	switch {
	case errors.Is(err, errBulkRefused):
		g.accuse(violation(g.role.Other(), 0, "T-10", "attachment in a game of %s, which has none", g.m.Options.Variant), nil)
	case errors.Is(err, ErrFrameTooLarge):
		g.accuse(&Violation{Accused: g.role.Other(), Rule: "T-10", Seq: -1, Detail: err.Error(), Err: err}, nil)
	case errors.Is(err, ErrMalformed):
		g.accuse(&Violation{Accused: g.role.Other(), Rule: "T-10", Seq: -1, Detail: err.Error(), Err: err}, [][]byte{raw})
	default:
		if errors.Is(err, ErrBulkBudget) {
			g.svc.cfg.Logger.Warn("attachments over the budget; the game is adjourned", "game", g.id, "peer", g.peer, "err", err)
		}
		g.dropStream()
		g.adjournAfter(err)
		if g.onAnswer != nil && g.m.Phase == PhaseAnswer {
			g.onAnswer(fmt.Errorf("protocol: no answer to the invitation: %w", err))
			g.onAnswer = nil
		}
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

// resend sends the messages of this peer that the other side lacks.
func (g *Game) resend(h *hello) {
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
	g.settleMove(lastCharge, mark, received)
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

// act carries out a local action.
func (g *Game) act(a Action) error {
	if g.m.Phase == PhaseDone {
		return fmt.Errorf("protocol: the game is over: %w", engine.ErrGameOver)
	}
	var kind Kind
	var body any
	switch a := a.(type) {
	case accept:
		kind, body = KindAccept, AcceptBody{Name: g.svc.cfg.Name}
	case Resign:
		if g.m.resigned != nil {
			return fmt.Errorf("protocol: the game is already resigned: %w", engine.ErrGameOver)
		}
		kind, body = KindResign, struct{}{}
	case Chat:
		kind, body = KindChat, ChatBody{Text: a.Text}
	case RequestAdjourn, AcceptAdjourn:
		k, b, err := g.adjournMessage(a)
		if err != nil {
			return err
		}
		kind, body = k, b
	case RequestUndo, AnswerUndo:
		k, b, err := g.undoMessage(a)
		if err != nil {
			return err
		}
		kind, body = k, b
	default:
		if g.m.Outcome != nil || g.m.resigned != nil {
			// Decided, or resigned with only the end audit to run: a
			// move chosen a moment before is too late, not wrong.
			return fmt.Errorf("protocol: %T: the game is decided: %w", a, engine.ErrGameOver)
		}
		if g.m.Phase != PhasePlay {
			return fmt.Errorf("protocol: %T during %s: %w", a, g.m.Phase, engine.ErrWrongPhase)
		}
		k, b, err := g.player.message(g.m, g.role, a)
		if err != nil {
			return err
		}
		if err := g.saveSecrets(); err != nil {
			return err
		}
		if k == "" {
			// The action only changed this peer's secrets (HMG cards
			// chosen before their turn); what is due goes automatically.
			g.afterChange()
			return nil
		}
		kind, body = k, b
	}
	events, err := g.send(kind, body)
	if err != nil {
		return err
	}
	g.emit(events)
	g.afterChange()
	return nil
}

// automaticKinds are the messages programs send by themselves; the other
// program has AutoGrace to send them (T-11).
var automaticKinds = map[Kind]bool{KindTossCommit: true, KindTossReveal: true, KindResult: true}

// afterChange sends whatever this peer must send by itself now, and
// starts the grace clock when the other program owes an automatic message.
func (g *Game) afterChange() {
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
		// crash before the message does (Phantom Go's referee state).
		if err := g.saveSecrets(); err != nil {
			g.svc.cfg.Logger.Error("automatic step", "game", g.id, "err", err)
			return
		}
		events, err := g.send(kind, body)
		if err != nil {
			g.svc.cfg.Logger.Error("automatic step", "game", g.id, "kind", kind, "err", err)
			return
		}
		g.emit(events)
	}
	from, kinds := g.m.Expected()
	owes := false
	if from != g.role && g.m.Phase != PhaseDone {
		for _, k := range kinds {
			owes = owes || automaticKinds[k]
		}
	}
	if owes {
		if g.autoSince.IsZero() {
			g.autoSince = time.Now()
		}
	} else {
		g.autoSince = time.Time{}
	}
}

// checkGrace forfeits a peer that holds back an automatic message (T-11),
// as long as the connection is up (a lost connection adjourns instead).
func (g *Game) checkGrace() {
	if g.autoSince.IsZero() || g.stream == nil || time.Since(g.autoSince) < g.svc.cfg.AutoGrace {
		return
	}
	_, kinds := g.m.Expected()
	g.autoSince = time.Time{}
	g.accuse(violation(g.role.Other(), 0, "T-11", "did not send %v within %s", kinds, g.svc.cfg.AutoGrace), nil)
}

// automatic returns the message this peer must send by itself now.
func (g *Game) automatic() (Kind, any, bool, error) {
	from, kinds := g.m.Expected()
	if from != g.role || len(kinds) == 0 {
		return "", nil, false, nil
	}
	switch kinds[0] {
	case KindTossCommit:
		value := make([]byte, 32)
		c, o, err := commit.New(tossDomain, g.id[:], uint8(g.role), 0, randomBytes(value))
		if err != nil {
			return "", nil, false, err
		}
		g.toss = &o
		if err := g.saveSecrets(); err != nil {
			return "", nil, false, err
		}
		return KindTossCommit, CommitBody{Commitment: c}, true, nil
	case KindTossReveal:
		if g.toss == nil {
			return "", nil, false, errors.New("protocol: coin toss opening lost")
		}
		return KindTossReveal, OpenBody{Opening: *g.toss}, true, nil
	case KindResult:
		if k, b, refuse := g.answerTimeout(); refuse {
			return k, b, true, nil
		}
		return KindResult, ResultBody{Result: g.m.Outcome.Result.String()}, true, nil
	}
	if g.m.Phase == PhasePlay {
		g.hook("auto")
		return g.player.auto(g.m, g.role)
	}
	return "", nil, false, nil
}

// loadGame reads a saved game to resume it.
func (s *Service) loadGame(id GameID) (g *Game, err error) {
	defer recoverError(&err, "loading game "+id.String())
	if s.cfg.Dir == "" {
		return nil, errors.New("protocol: no games directory")
	}
	base := filepath.Join(s.cfg.Dir, id.String())
	tr, rs, err := loadRecord(base + ".record.json")
	if err != nil {
		return nil, err
	}
	var sf secretsFile
	doc, secretsValid, err := loadSecrets(base + ".secrets.json")
	switch {
	case errors.Is(err, errNoSecrets):
		// The first secrets never reached the disk whole, so no message
		// that needs them was sent: the game goes on as if this peer had
		// no secrets yet (its role is its place in the record).
		sf.Role = Invitee
		if tr.Peers[Inviter] == s.cfg.Host.ID() {
			sf.Role = Inviter
		}
	case err != nil:
		return nil, fmt.Errorf("protocol: secrets of game %s: %w", id, err)
	default:
		if err := unmarshalStrict(doc, &sf); err != nil {
			return nil, fmt.Errorf("protocol: secrets of game %s: %w", id, err)
		}
	}
	if tr.Peers[sf.Role] != s.cfg.Host.ID() {
		return nil, fmt.Errorf("protocol: game %s was played by another identity", id)
	}
	g = s.newGame(id, sf.Role, NewTranscript(id, tr.Peers[0], tr.Peers[1]))
	for i := range tr.Messages {
		msg := tr.Messages[i]
		if _, err := g.m.Apply(&msg); err != nil {
			return nil, fmt.Errorf("protocol: replaying game %s: message %d: %w", id, i, err)
		}
		if err := g.tr.Append(msg); err != nil {
			return nil, err
		}
		if g.player == nil && g.m.Options.Variant != "" {
			g.player = newVariantPlayer[g.m.Options.Variant](id, g.m.Options, sf.Role)
		}
	}
	if g.player == nil {
		return nil, fmt.Errorf("protocol: game %s has no invitation", id)
	}
	if doc != nil {
		if err := g.player.restore(sf.Variant); err != nil {
			return nil, err
		}
	}
	if r, ok := g.player.(resumer); ok {
		if err := r.resumed(g.m); err != nil {
			return nil, fmt.Errorf("protocol: resuming game %s: %w", id, err)
		}
	}
	g.toss = sf.Toss
	// Later lines go where the valid parts end: a torn last line (never
	// synced, so nothing in it was sent) is cut before the first.
	g.record = newRecordLog(base+".record.json", rs.valid, len(tr.Messages), rs.closed)
	g.secrets = &secretsLog{file: appendFile{path: base + ".secrets.json", size: int64(secretsValid)}, raw: doc}
	if doc != nil {
		if g.secrets.doc, err = decodeJSONValue(doc); err != nil {
			return nil, fmt.Errorf("protocol: secrets of game %s: %w", id, err)
		}
	}
	// Remember where the other peer was, to dial it again.
	for _, a := range sf.Addrs {
		if addr, err := ma.NewMultiaddr(a); err == nil {
			s.cfg.Host.Peerstore().AddAddr(g.peer, addr, peerstore.RecentlyConnectedAddrTTL)
		}
	}
	return g, nil
}

// resumer is a player that rebuilds its state from its restored secrets
// and the record once both are loaded, before the game takes any new
// message.
type resumer interface {
	resumed(m *Machine) error
}

// Resume loads a saved game and reconnects to the other peer.
func (s *Service) Resume(ctx context.Context, id GameID) (*Game, error) {
	g, loaded, err := s.loadRegistered(id)
	if err != nil {
		return nil, err
	}
	if !loaded {
		return g, nil
	}
	st, err := s.openStream(ctx, g.peer)
	if err != nil {
		go g.run(nil)
		return g, fmt.Errorf("protocol: resume game %s: %w", id, err)
	}
	if err := g.writeHello(st); err != nil {
		st.Reset()
		go g.run(nil)
		return g, err
	}
	go g.run(st)
	return g, nil
}

// ErrCorruptRecord reports a record file that is torn, damaged or forged:
// it is never used, only reported.
var ErrCorruptRecord = errors.New("protocol: corrupt record")

// Unfinished lists the games in the games directory that are not over.
// Records that cannot be read or replayed are left out and reported in the
// error (wrapping ErrCorruptRecord, one per file), alongside the games
// that can be resumed.
func (s *Service) Unfinished() ([]GameID, error) { return s.saved(false) }

// Finished lists the games in the games directory that are over, to be
// opened (Open) and replayed. Unreadable records are reported as by
// Unfinished.
func (s *Service) Finished() ([]GameID, error) { return s.saved(true) }

// Open loads a finished game of the games directory to be read: its
// view, its record and its replay. It connects to nobody; Close the game
// when done. An unfinished game is refused (Resume it).
func (s *Service) Open(id GameID) (*Game, error) {
	g, loaded, err := s.loadRegistered(id)
	if err != nil {
		return nil, err
	}
	if loaded {
		go g.run(nil)
	}
	if g.Outcome() == nil {
		if loaded {
			g.Close()
		}
		return nil, fmt.Errorf("protocol: game %s is not over: resume it", id)
	}
	return g, nil
}

// saved lists the games of the games directory that are over (done) or
// not.
func (s *Service) saved(done bool) ([]GameID, error) {
	if s.cfg.Dir == "" {
		return nil, nil
	}
	matches, err := filepath.Glob(filepath.Join(s.cfg.Dir, "*.record.json"))
	if err != nil {
		return nil, err
	}
	var ids []GameID
	var bad []error
	for _, path := range matches {
		tr, err := LoadTranscript(path)
		if errors.Is(err, ErrNoGame) {
			// The invitation never reached the disk whole, so it was
			// never sent: there is no game to resume.
			s.cfg.Logger.Info("record without a game", "path", path)
			continue
		}
		if err != nil {
			s.cfg.Logger.Warn("unreadable record", "path", path, "err", err)
			bad = append(bad, fmt.Errorf("%w: %v", ErrCorruptRecord, err))
			continue
		}
		m, err := replay(tr)
		if err != nil {
			s.cfg.Logger.Warn("record does not replay", "path", path, "err", err)
			bad = append(bad, fmt.Errorf("%w: %s: does not replay: %v", ErrCorruptRecord, path, err))
			continue
		}
		if (m.Phase == PhaseDone) == done {
			ids = append(ids, tr.Game)
		}
	}
	return ids, errors.Join(bad...)
}

// Wait returns when the game is over, or ctx ends.
func (g *Game) Wait(ctx context.Context) error {
	select {
	case <-g.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// bulkBody is implemented by message bodies with large attachments: each
// attachment travels as a bulk frame just before the signed message, whose
// body names the attachments' hashes (the variant's business).
type bulkBody interface{ attachments() [][]byte }

// bulkReceiver is implemented by variant players that take attachments:
// receiveBulk gets a message of the other peer, just applied, with the
// bulk frames that came before it. An error is a violation by the sender.
type bulkReceiver interface {
	receiveBulk(m *Machine, me Role, msg *Message, bulk [][]byte) error
}

// bulkMaker is implemented by variant players whose own attachments are
// not stored (PN-D14): remakeBulk makes the attachments of the player's
// own message msg again, from its seed and secrets, checked against the
// digests msg signs.
type bulkMaker interface {
	remakeBulk(m *Machine, me Role, msg *Message) ([][]byte, error)
}

// maxPendingBulk caps what a peer may send as bulk frames before a
// message: a few attachments of the largest size.
const maxPendingBulk = 4 * MaxBulkSize

func (g *Game) bulkPath(seq uint64) string {
	if g.svc.cfg.Dir == "" {
		return ""
	}
	return filepath.Join(g.svc.cfg.Dir, fmt.Sprintf("%s.bulk-%d", g.id, seq))
}

// keepBulk keeps the attachments of own message seq in memory until the
// other peer acknowledges it. They are not written to disk: after a
// restart the player makes them again from its seed and secrets
// (bulkMaker, PN-D14).
func (g *Game) keepBulk(seq uint64, att [][]byte) {
	if g.ownBulk == nil {
		g.ownBulk = map[uint64][][]byte{}
	}
	g.ownBulk[seq] = att
}

// bulkOf returns the attachments of own message seq: from memory, or
// made again by the player after a restart, or from the file an earlier
// version of this program kept them in.
func (g *Game) bulkOf(seq uint64) [][]byte {
	if att, ok := g.ownBulk[seq]; ok {
		return att
	}
	var att [][]byte
	if bm, ok := g.player.(bulkMaker); ok {
		err := g.locked(func() error {
			for i := range g.tr.Messages {
				if m := &g.tr.Messages[i]; m.From == g.role && m.Seq == seq {
					var err error
					att, err = bm.remakeBulk(g.m, g.role, m)
					return err
				}
			}
			return nil
		})
		if err != nil {
			g.svc.cfg.Logger.Warn("attachments not made again", "game", g.id, "seq", seq, "err", err)
			att = nil
		}
	}
	if att == nil {
		att = g.oldBulkFile(seq)
	}
	if att != nil {
		g.keepBulk(seq, att)
	}
	return att
}

// oldBulkFile reads the attachments of own message seq from the file an
// earlier version of this program wrote them to (GAMEID.bulk-SEQ, write,
// sync, rename), for a game it left unfinished; pruneBulk removes it.
func (g *Game) oldBulkFile(seq uint64) [][]byte {
	path := g.bulkPath(seq)
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var att [][]byte
	if json.Unmarshal(data, &att) != nil {
		return nil
	}
	return att
}

// pruneBulk forgets the attachments of own messages up to ack, which the
// other peer has received.
func (g *Game) pruneBulk(ack int64) {
	for seq := range g.ownBulk {
		if int64(seq) <= ack {
			delete(g.ownBulk, seq)
			if path := g.bulkPath(seq); path != "" {
				os.Remove(path)
			}
		}
	}
}

// writeBulk sends the attachments of own message seq, if any.
func (g *Game) writeBulk(st network.Stream, seq uint64) error {
	for _, a := range g.bulkOf(seq) {
		if err := writeBulkFrame(st, a); err != nil {
			return err
		}
	}
	return nil
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
// inviter dials the invitee again, with growing pauses (1 s to 30 s); the
// invitee waits, so that the two never race with two streams. A program
// that restarts dials by itself (Service.Resume).
func (g *Game) maybeRedial() {
	if g.connected.Swap(false) && g.stream == nil {
		g.nextDial, g.dialWait = time.Time{}, 0
	}
	if g.stream != nil || g.dialing || g.role != Inviter || time.Now().Before(g.nextDial) {
		return
	}
	if g.m.Phase == PhaseInvite || g.m.Phase == PhaseAnswer || g.m.Phase == PhaseDone {
		return
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
