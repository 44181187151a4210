package session

import (
	"github.com/kakure/kakure/protocol"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
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
	// maxHandshakesPerPeer caps the incoming streams of one peer that
	// have not yet become a game (hello and invitation being read, or the
	// invitation waiting for Config.OnInvite); more are reset at once.
	maxHandshakesPerPeer = 8
	// maxHandshakes and maxKnownHandshakes are the two pools of slots for
	// such streams (LIM-D11): one for every peer, one kept for the peers
	// this node knows (Service.isKnown), which strangers cannot take.
	maxHandshakes      = 128
	maxKnownHandshakes = 32
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
	// handshakes counts the handshakes of each peer, in both pools.
	handshakes map[peer.ID]int
	// strangers and known are the pools of handshake slots (LIM-D11).
	strangers, known handshakePool
	// knownPeers are the peers this node invited or had a game with
	// (accepted since the service started, or with a record in its games
	// directory) (LIM-D11).
	knownPeers map[peer.ID]struct{}
	// reserved counts the slots of the Accepted channel promised to games
	// being accepted, so that the send that delivers them never blocks.
	reserved int
}

// handshake is an incoming stream that is not yet a game: its hello and
// invitation being read (reading), or the invitation being decided on.
type handshake struct {
	peer   peer.ID
	stream network.Stream
	pool   *handshakePool
	// reading is true until the stream's hello of a resume, or its
	// signed invitation, is read: only then may the stream be evicted.
	reading bool
	// evicted is set when the stream lost its slot to another's
	// (LIM-D11); its slot is free already.
	evicted bool
	// counted is true while the stream holds its slot.
	counted bool
}

// handshakePool is a pool of handshake slots (LIM-D11).
type handshakePool struct {
	limit int
	// streams are the handshakes holding a slot, oldest first.
	streams []*handshake
	perPeer map[peer.ID]int
}

func (p *handshakePool) full() bool { return len(p.streams) >= p.limit }

func (p *handshakePool) add(h *handshake) {
	if p.perPeer == nil {
		p.perPeer = map[peer.ID]int{}
	}
	h.pool = p
	p.streams = append(p.streams, h)
	p.perPeer[h.peer]++
}

func (p *handshakePool) remove(h *handshake) {
	if i := slices.Index(p.streams, h); i >= 0 {
		p.streams = slices.Delete(p.streams, i, i+1)
	}
	if p.perPeer[h.peer]--; p.perPeer[h.peer] <= 0 {
		delete(p.perPeer, h.peer)
	}
}

// victimFor returns the stream a new stream of peer newcomer evicts from
// the full pool, or nil if it evicts none and is refused (LIM-D11): the
// oldest stream still being read of the peer holding the most slots,
// if that peer holds at least two more than the newcomer, or any more
// when the newcomer holds none. A peer thus never loses a slot to a
// peer that would then hold more than it (nor to itself), and a peer
// that holds none always gets one.
func (p *handshakePool) victimFor(newcomer peer.ID) *handshake {
	has := p.perPeer[newcomer]
	var victim *handshake
	most := 0
	for _, h := range p.streams {
		if !h.reading {
			continue
		}
		if n := p.perPeer[h.peer]; n > most {
			victim, most = h, n
		}
	}
	if victim == nil || has > 0 && most <= has+1 {
		return nil
	}
	return victim
}

// beginHandshake counts a new incoming stream st, or refuses it (LIM-D11).
// A stream of a peer that already has maxHandshakesPerPeer is refused.
// A known peer's stream takes a slot of the known pool while there is
// one, else, like any other, a slot of the pool for every peer; when
// that pool is full, the stream takes the slot of the stream victimFor
// names, which is reset, or is refused.
func (s *Service) beginHandshake(st network.Stream) (*handshake, error) {
	p := st.Conn().RemotePeer()
	known := s.isKnown(p)
	s.mu.Lock()
	l := &s.limits
	if l.handshakes == nil {
		l.handshakes = map[peer.ID]int{}
		l.strangers.limit, l.known.limit = maxHandshakes, maxKnownHandshakes
		if sizes := s.cfg.handshakePools; sizes != [2]int{} {
			l.strangers.limit, l.known.limit = sizes[0], sizes[1]
		}
	}
	if n := l.handshakes[p]; n >= maxHandshakesPerPeer {
		s.mu.Unlock()
		return nil, fmt.Errorf("%w (%d of this peer)", errHandshakeFull, n)
	}
	pool := &l.strangers
	var victim *handshake
	switch {
	case known && !l.known.full():
		pool = &l.known
	case pool.full():
		if victim = pool.victimFor(p); victim == nil {
			n := len(pool.streams)
			s.mu.Unlock()
			return nil, fmt.Errorf("%w (%d in all)", errHandshakeFull, n)
		}
		s.dropHandshake(victim)
		victim.evicted = true
	}
	h := &handshake{peer: p, stream: st, reading: true, counted: true}
	pool.add(h)
	l.handshakes[p]++
	s.mu.Unlock()
	if victim != nil {
		s.cfg.Logger.Debug("game stream evicted by a newer one", "peer", victim.peer, "by", p)
		victim.stream.Reset()
	}
	return h, nil
}

// handshakeRead marks h as read (a resume's hello, or a signed
// invitation): it can no longer be evicted. It reports false if h was
// evicted already (its stream is reset).
func (s *Service) handshakeRead(h *handshake) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	h.reading = false
	return !h.evicted
}

// endHandshake uncounts a stream counted by beginHandshake.
func (s *Service) endHandshake(h *handshake) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h.counted {
		s.dropHandshake(h)
	}
}

// dropHandshake frees h's slot; s.mu is held.
func (s *Service) dropHandshake(h *handshake) {
	h.counted = false
	h.pool.remove(h)
	if s.limits.handshakes[h.peer]--; s.limits.handshakes[h.peer] <= 0 {
		delete(s.limits.handshakes, h.peer)
	}
}

// wasEvicted reports whether h lost its slot to another stream.
func (s *Service) wasEvicted(h *handshake) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return h.evicted
}

// addKnown notes p as a peer this node knows (LIM-D11).
func (s *Service) addKnown(p peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addKnownLocked(p)
}

// addKnownLocked is addKnown with s.mu held.
func (s *Service) addKnownLocked(p peer.ID) {
	if s.limits.knownPeers == nil {
		s.limits.knownPeers = map[peer.ID]struct{}{}
	}
	s.limits.knownPeers[p] = struct{}{}
}

// isKnown reports whether this node knows p (LIM-D11): it invited p, has
// a game with p in memory or in its games directory, or Config.Known
// says so (a petname).
func (s *Service) isKnown(p peer.ID) bool {
	s.mu.Lock()
	_, known := s.limits.knownPeers[p]
	s.mu.Unlock()
	return known || s.cfg.Known != nil && s.cfg.Known(p)
}

// loadKnownPeers notes the other peer of every record in the games
// directory as known (LIM-D11). It reads the first line of each record
// (its head names the peers); records it cannot read are left out.
func (s *Service) loadKnownPeers() {
	if s.cfg.Dir == "" {
		return
	}
	paths, err := filepath.Glob(filepath.Join(s.cfg.Dir, "*.record.json"))
	if err != nil {
		return
	}
	me := s.cfg.Host.ID()
	for _, path := range paths {
		peers, err := recordPeers(path)
		if err != nil {
			s.cfg.Logger.Debug("record without a readable head", "path", path, "err", err)
			continue
		}
		for _, p := range peers {
			if p != me {
				s.addKnown(p)
			}
		}
	}
}

// maxRecordHead bounds the first line of a record read by recordPeers:
// a head holds the format, the game's ID and two peer IDs.
const maxRecordHead = 4096

// recordPeers returns the peers named in the head of the record at path,
// from its first line only.
func recordPeers(path string) ([2]peer.ID, error) {
	var peers [2]peer.ID
	f, err := os.Open(path)
	if err != nil {
		return peers, fmt.Errorf("protocol: record head: %w", err)
	}
	defer f.Close()
	buf := make([]byte, maxRecordHead)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return peers, fmt.Errorf("protocol: record head of %s: %w", path, err)
	}
	line, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	const open = `"messages":[`
	if !bytes.HasSuffix(line, []byte(open)) {
		return peers, fmt.Errorf("protocol: record head of %s: the first line is not a record's head", path)
	}
	var head protocol.RecordFile
	if err := json.Unmarshal(append(bytes.Clone(line[:len(line)-len(open)]), `"messages":[]}`...), &head); err != nil {
		return peers, fmt.Errorf("protocol: record head of %s: %w", path, err)
	}
	for i, id := range head.Peers {
		if peers[i], err = peer.Decode(id); err != nil {
			return peers, fmt.Errorf("protocol: record head of %s: %w", path, err)
		}
	}
	return peers, nil
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
	s.addKnownLocked(g.peer)
	return nil
}

// deliverAccepted hands g to the reader of Accepted, in the place
// admitInvitation reserved: it never blocks. The game enters the channel
// and leaves the reserved places under one lock (LIM-D21): between the
// two, admitInvitation would count it twice and decline an invitation as
// busy while the channel has room.
func (s *Service) deliverAccepted(g *Game) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.invites <- g
	s.limits.reserved--
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

// errReportRefused reports a report frame in a game whose variant has no
// certificates (MPC-D31), refused from the frame's header (LIM-D8).
var errReportRefused = errors.New("protocol: report frame in a game that has no certificates")

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
// room, or until stop is closed. waiting (when not nil) is told once,
// with the reason, when the bytes do not fit at once and the stream is
// held back.
func (b *bulkBudget) acquire(p peer.ID, n int64, timeout time.Duration, stop <-chan struct{}, waiting func(full string)) error {
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
			if waiting != nil {
				waiting(full)
			}
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
// waiting up to the idle timeout for room; a wait is logged (the stream
// is held back, LIM-D10).
func (g *Game) chargeBulk(n int64) error {
	waiting := func(full string) {
		g.svc.cfg.Logger.Debug("an attachment waits for room in the budget; its stream is not read meanwhile", "game", g.id, "bytes", n, "reason", full)
	}
	if err := g.svc.bulk.acquire(g.peer, n, g.svc.cfg.IdleTimeout, g.done, waiting); err != nil {
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
