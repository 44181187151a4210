package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"

	"bufio"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
)

// Game is one running game seen from this peer. Its caller (a user
// interface or a bot) reads Events, looks at View and calls Do; the game
// does the rest: signing, sending, checking, saving, the automatic steps
// of the protocol.
//
// One goroutine, the game's loop (run, game_loop.go), does the work;
// callers and helper goroutines reach it through channels. Three locking
// rules guard the fields:
//
//   - mu: tr, m, player, toss, closed, endErr, adjourn, and clk's mark
//     and seen. Goroutines other than the loop (View, Outcome,
//     Transcript, Err, finished, serveFinished, Close) read them only
//     with mu held; the loop writes them with mu held (apply and locked,
//     setAdjourned, adjournAfter, fail, the clock's marks) and reads them
//     without it. closed is read and written with mu held only (Close).
//     toss and player are set before the loop starts (newGame's callers,
//     loadGame) or by the loop itself (automatic sets toss).
//   - bulkMu: bulkHeld and bulkClosed, the game's share of the service's
//     attachment budget (LIM-D10): any goroutine (the stream readers
//     charge it, the loop refunds it, the loop's end closes it) touches
//     them with bulkMu held (chargeBulk, refundBulk, closeBulk in
//     limits.go).
//   - Owned by the loop: stream, streamGen, incoming, record, secrets,
//     inBulk, inBulkBytes, inBulkCharge, inBulkAt, inBulkFirst, awaitHello,
//     sentOnStream, ownBulk, autoSince, dialing, nextDial, dialWait,
//     helloGen, onAnswer and the rest of clk. Only the loop's goroutine
//     touches them, with no lock (the stream readers it starts only send
//     on incoming, set before them); before the loop starts (newGame,
//     loadGame, Resume, the invitation) and after it stopped
//     (serveFinished) nothing else runs on them.
//
// The rest is set by newGame and never changed (svc, id, role, peer, and
// the channels events, actions, attach, done, crashed, redialed, each
// safe for concurrent use), or is atomic (connected, set by the
// service's connection notifier). The comment at the top of each game_*
// file says which rule its methods follow.
type Game struct {
	svc  *Service
	id   protocol.GameID
	role protocol.Role
	peer peer.ID
	// pub is the game's publication for spectators, nil if none
	// (SPEC-2, SPEC-6).
	pub *publishing

	// mu guards the state below for readers outside the loop (View).
	mu     sync.Mutex
	tr     *protocol.Transcript
	m      *protocol.Machine
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
	// secretsSaves counts the encodings of this peer's secrets for its
	// file (saveSecrets; tests: one per own message, PN-D20).
	secretsSaves atomic.Int64
	// inBulk holds the bulk frames received since the last message; they
	// belong to the next message of the other peer.
	inBulk      [][]byte
	inBulkBytes int
	// inBulkCharge is what inBulk holds of the budget; inBulkAt is when
	// its last frame came.
	inBulkCharge int64
	inBulkAt     time.Time
	// inBulkFirst is when the first of inBulk came (CLK-D16).
	inBulkFirst time.Time
	// awaitHello is true on a stream this peer opened until the other
	// peer's hello arrives; messages made meanwhile wait for resend.
	awaitHello bool
	// sentOnStream marks the own messages already written on the current
	// stream, so that answering a hello never sends one twice (the other
	// peer would rightly take the copy for a replay).
	sentOnStream map[uint64]bool
	// ownBulk holds the attachments of this peer's messages that the other
	// peer may not have yet, by sequence number, to send again on resume.
	ownBulk map[uint64][][]byte
	// autoSince is when the other program came to owe a message on a
	// grace (T-11), autoOf how many messages of its this peer had then,
	// autoCount whether the grace is the count's. challengedAt is when
	// this peer's open challenge went out; lingerUntil how long a game
	// this peer abandoned still reads (REC-D12, REC-D13), and
	// abandonHeard whether the other program has been heard from (a
	// keep-alive, a hello or a message) since the abandonment (LIM-D20).
	autoSince    time.Time
	autoOf       uint64
	autoCount    bool
	challengedAt time.Time
	lingerUntil  time.Time
	abandonHeard bool
	// dropped counts the frames of the current stream dropped as not
	// valid signed messages of the other peer (T-10); badInputAt is when
	// this peer last dropped a stream for such input.
	dropped    int
	badInputAt time.Time
	// helloAt is when the other program last answered a stream with its
	// hello: a program that answers hellos is running, and one that then
	// closes each stream still has its grace run (T-11).
	helloAt time.Time

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
	a     protocol.Action
	reply chan error
}

type attachReq struct {
	st network.Stream
	r  *bufio.Reader
	h  *protocol.Hello
}

type incomingFrame struct {
	gen int
	f   protocol.Frame
	raw []byte
	err error
	// charge is what the frame holds of the attachment budget.
	charge int64
}

// ID returns the game's ID.
func (g *Game) ID() protocol.GameID { return g.id }

// Role returns this peer's role.
func (g *Game) Role() protocol.Role { return g.role }

// Peer returns the other peer.
func (g *Game) Peer() peer.ID { return g.peer }

// Events delivers what happens in the game, in order. The channel is
// closed when the game is over and every event has been read.
func (g *Game) Events() <-chan protocol.Event { return g.events.out }

// Done is closed when the game's loop has stopped.
func (g *Game) Done() <-chan struct{} { return g.done }

// Outcome returns how the game ended, or nil while it goes on.
func (g *Game) Outcome() *protocol.Outcome {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m.Outcome == nil {
		return nil
	}
	o := *g.m.Outcome
	return &o
}

// Transcript returns a copy of the transcript so far.
func (g *Game) Transcript() *protocol.Transcript {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tr.Clone()
}

// Do asks the game to carry out an action of the local player. It returns
// once the action was checked and sent, or refused.
func (g *Game) Do(a protocol.Action) error {
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
	if g.pub != nil {
		g.pub.stop()
	}
	// A closed game is no longer served: Resume and the other peer's
	// resume load it again from disk.
	g.svc.forget(g)
}

// closeAction is the internal action that closes the game's loop.
type closeAction struct{ protocol.SessionAction }

// Wait returns when the game is over, or ctx ends.
func (g *Game) Wait(ctx context.Context) error {
	select {
	case <-g.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// View returns the local player's view of the game now.
func (g *Game) View() (v protocol.View) {
	// A panic in a variant's view stops the game (LIM-D9), not the
	// caller: the view comes without its variant part.
	defer func() {
		if r := recover(); r != nil {
			err := g.panicError("view", r)
			g.svc.cfg.Logger.Error("panic in a game's view", "game", g.id, "err", err)
			g.crash(err)
			v.Variant, v.MyTurn, v.Adjourned = nil, false, true
		}
	}()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hook("view")
	from, kinds := g.m.Expected()
	v = protocol.View{Role: g.role, Color: g.m.Colors[g.role], Options: g.m.Options, Phase: g.m.Phase,
		MyTurn: from == g.role && g.m.Phase == protocol.PhasePlay, Kinds: kinds,
		Chat: append([]protocol.ChatLine(nil), g.m.Chat...), Adjourned: g.adjourn, Names: g.m.Names}
	if ec, ok := g.m.Rules.(protocol.EarlyChooser); ok && g.m.Phase == protocol.PhasePlay && from != g.role && ec.ChoosesEarly(g.role, fgorules.KindCommit) {
		// Both clocks run: this player may commit now (CLK-D14).
		v.MyTurn, v.Kinds = true, []protocol.Kind{fgorules.KindCommit}
	}
	if g.m.Rules != nil {
		v.Variant = g.m.Rules.View(g.role)
		if pv, ok := g.player.(protocol.PrivateViewer); ok {
			v.Variant = pv.PrivateView(g.m, g.role, v.Variant)
		}
	}
	if g.m.Outcome != nil {
		o := *g.m.Outcome
		v.Outcome = &o
	}
	if u := g.m.Undo; u != nil {
		v.UndoMove, v.UndoBy, v.UndoMoves = u.Move, u.By, u.Moves
	}
	if c, ok := g.m.Clock(); ok {
		c.Since = g.clk.mark
		v.Clock = &c
	}
	return v
}
