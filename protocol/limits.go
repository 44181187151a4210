package protocol

import (
	"errors"
	"fmt"
	"os"
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
