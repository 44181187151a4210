package protocol

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// Limits that keep a node responsive when a peer floods it (T-10, T-11).
// A peer can open streams and send invitations as fast as it likes; each
// one costs this node a goroutine and, once accepted, a game with files
// on disk. The limits below bound what one peer, and all peers together,
// can make this node hold at once.
const (
	// DefaultHandshakeTimeout is how long a new stream has to send its
	// hello and invitation (Config.HandshakeTimeout).
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultMaxGamesPerPeer and DefaultMaxGames cap the games running at
	// once with one peer and in all (Config.MaxGamesPerPeer, MaxGames).
	DefaultMaxGamesPerPeer = 64
	DefaultMaxGames        = 1024
	// maxHandshakesPerPeer and maxHandshakes cap the incoming streams that
	// have not yet become a game (hello and invitation being read, or the
	// invitation waiting for Config.OnInvite); more are reset at once.
	maxHandshakesPerPeer = 8
	maxHandshakes        = 128
	// acceptedQueue is how many accepted games wait for a reader of
	// Service.Accepted; while it is full, invitations are declined.
	acceptedQueue = 16
)

// Reasons an invitation is declined by the service itself.
var (
	ErrBusy          = errors.New("protocol: busy: too many accepted games are waiting to be picked up")
	ErrTooManyGames  = errors.New("protocol: too many games in progress")
	ErrGameIDInUse   = errors.New("protocol: the invitation reuses the ID of a game this node already has")
	errHandshakeFull = errors.New("protocol: too many game streams opening at once")
)

// limitState is the Service's bookkeeping of the limits, guarded by
// Service.mu.
type limitState struct {
	handshakes     map[peer.ID]int
	handshakeTotal int
	// reserved counts the slots of the Accepted channel promised to games
	// being accepted, so that the send that delivers them never blocks.
	reserved int
}

// beginHandshake counts a new incoming stream of p, or refuses it when p or
// all peers together already have too many streams opening.
func (s *Service) beginHandshake(p peer.ID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.handshakes == nil {
		s.limits.handshakes = map[peer.ID]int{}
	}
	if s.limits.handshakes[p] >= maxHandshakesPerPeer || s.limits.handshakeTotal >= maxHandshakes {
		return errHandshakeFull
	}
	s.limits.handshakes[p]++
	s.limits.handshakeTotal++
	return nil
}

// endHandshake uncounts a stream counted by beginHandshake.
func (s *Service) endHandshake(p peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits.handshakeTotal--
	if s.limits.handshakes[p]--; s.limits.handshakes[p] <= 0 {
		delete(s.limits.handshakes, p)
	}
}

// admitInvitation registers g, a game offered by an invitation, if the
// limits allow it, and reserves its place in the Accepted channel: the
// caller must call deliverAccepted or releaseAccepted once. The checks
// and the registration happen under one lock, so that concurrent
// invitations cannot pass the limits together.
func (s *Service) admitInvitation(g *Game) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.games[g.id]; ok {
		return ErrGameIDInUse
	}
	if path := g.RecordPath(); path != "" {
		if _, err := os.Stat(path); err == nil {
			// An invitation must not overwrite the record of a game that
			// is on disk but not loaded (an adjourned game, say).
			return ErrGameIDInUse
		}
	}
	running, withPeer := 0, 0
	for _, o := range s.games {
		select {
		case <-o.done:
			continue
		default:
		}
		running++
		if o.peer == g.peer {
			withPeer++
		}
	}
	if withPeer >= s.cfg.MaxGamesPerPeer {
		return fmt.Errorf("%w with this peer (%d)", ErrTooManyGames, withPeer)
	}
	if running >= s.cfg.MaxGames {
		return fmt.Errorf("%w (%d)", ErrTooManyGames, running)
	}
	if len(s.invites)+s.limits.reserved >= cap(s.invites) {
		return ErrBusy
	}
	s.limits.reserved++
	s.games[g.id] = g
	return nil
}

// deliverAccepted hands g to the reader of Accepted, in the place
// admitInvitation reserved: it never blocks.
func (s *Service) deliverAccepted(g *Game) {
	s.invites <- g
	s.releaseAccepted()
}

// releaseAccepted gives back a place reserved by admitInvitation.
func (s *Service) releaseAccepted() {
	s.mu.Lock()
	s.limits.reserved--
	s.mu.Unlock()
}

// The budget of attachments (LIM-D10). A game of Phantom Go may hold up to
// maxPendingBulk bytes of attachments before the message that names them
// (a T-10 violation beyond); the budget bounds what all games together,
// and the games with one peer, hold at once, so that a peer with many
// games cannot make the node hold maxPendingBulk for each.
const (
	// DefaultBulkBudget and DefaultBulkBudgetPerPeer are the defaults of
	// Config.BulkBudget and Config.BulkBudgetPerPeer.
	DefaultBulkBudget        = 256 << 20
	DefaultBulkBudgetPerPeer = 2 * maxPendingBulk
)

// ErrBulkBudget reports attachments that did not fit in the node's budget
// within the idle timeout: the stream is dropped and the game adjourned,
// not lost (LIM-D10).
var ErrBulkBudget = errors.New("protocol: attachments over this node's budget")

// errBulkRefused reports an attachment in a game whose variant takes none
// (LIM-D8), refused before its body is read.
var errBulkRefused = errors.New("protocol: attachment in a game that takes none")

// bulkBudget counts the bytes of attachments held by all games and by the
// games of each peer; readers wait for room (back-pressure).
type bulkBudget struct {
	limit, peerLimit int64

	mu      sync.Mutex
	total   int64
	perPeer map[peer.ID]int64
	peak    int64
	// changed is closed (and replaced) whenever bytes are given back.
	changed chan struct{}
}

func newBulkBudget(limit, peerLimit int64) *bulkBudget {
	return &bulkBudget{limit: limit, peerLimit: peerLimit, perPeer: map[peer.ID]int64{}, changed: make(chan struct{})}
}

// acquire takes n bytes for a game with p, waiting up to timeout for
// room, or until stop is closed.
func (b *bulkBudget) acquire(p peer.ID, n int64, timeout time.Duration, stop <-chan struct{}) error {
	if n > b.limit || n > b.peerLimit {
		return fmt.Errorf("%w: one attachment of %d bytes (budget %d, %d per peer)", ErrBulkBudget, n, b.limit, b.peerLimit)
	}
	var timer *time.Timer
	for {
		b.mu.Lock()
		if b.total+n <= b.limit && b.perPeer[p]+n <= b.peerLimit {
			b.total += n
			b.perPeer[p] += n
			b.peak = max(b.peak, b.total)
			b.mu.Unlock()
			if timer != nil {
				timer.Stop()
			}
			return nil
		}
		changed := b.changed
		full := fmt.Sprintf("the node's budget is full (%d of %d bytes held)", b.total, b.limit)
		if b.perPeer[p]+n > b.peerLimit {
			full = fmt.Sprintf("this peer's budget is full (%d of %d bytes held)", b.perPeer[p], b.peerLimit)
		}
		b.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(timeout)
		}
		select {
		case <-changed:
		case <-timer.C:
			return fmt.Errorf("%w: an attachment of %d bytes did not fit within %v: %s", ErrBulkBudget, n, timeout, full)
		case <-stop:
			timer.Stop()
			return fmt.Errorf("%w: the game stopped", ErrBulkBudget)
		}
	}
}

// release gives back n bytes taken for a game with p.
func (b *bulkBudget) release(p peer.ID, n int64) {
	if n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total -= n
	if b.perPeer[p] -= n; b.perPeer[p] <= 0 {
		delete(b.perPeer, p)
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

// chargeBulk takes n bytes of the budget for an attachment of this game,
// waiting up to the idle timeout for room.
func (g *Game) chargeBulk(n int64) error {
	if err := g.svc.bulk.acquire(g.peer, n, g.svc.cfg.IdleTimeout, g.done); err != nil {
		return err
	}
	g.bulkMu.Lock()
	defer g.bulkMu.Unlock()
	if g.bulkClosed {
		g.svc.bulk.release(g.peer, n)
		return fmt.Errorf("%w: the game stopped", ErrBulkBudget)
	}
	g.bulkHeld += n
	return nil
}

// refundBulk gives back n bytes charged by chargeBulk (nothing once the
// loop has stopped: closeBulk gave back everything).
func (g *Game) refundBulk(n int64) {
	if n <= 0 {
		return
	}
	g.bulkMu.Lock()
	defer g.bulkMu.Unlock()
	if g.bulkClosed {
		return
	}
	g.bulkHeld -= n
	g.svc.bulk.release(g.peer, n)
}

// closeBulk gives back all the game holds, when its loop stops.
func (g *Game) closeBulk() {
	g.bulkMu.Lock()
	defer g.bulkMu.Unlock()
	g.bulkClosed = true
	g.svc.bulk.release(g.peer, g.bulkHeld)
	g.bulkHeld = 0
}

// clearBulk drops the attachments waiting for their message.
func (g *Game) clearBulk() {
	g.refundBulk(g.inBulkCharge)
	g.inBulk, g.inBulkBytes, g.inBulkCharge = nil, 0, 0
}

// checkBulk adjourns a game whose attachments wait for their message
// longer than the idle timeout: an honest program sends the message right
// after them, so a peer cannot park attachments in the budget by sending
// keep-alives (LIM-D10).
func (g *Game) checkBulk() {
	if len(g.inBulk) == 0 || g.stream == nil || time.Since(g.inBulkAt) < g.svc.cfg.IdleTimeout {
		return
	}
	g.streamFailed(fmt.Errorf("%w: %d bytes of attachments held without their message for %v", ErrBulkBudget, g.inBulkBytes, g.svc.cfg.IdleTimeout), nil)
}
