package session_test

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Fair admission of new game streams (LIM-D11, issue 30 case 7): peer
// IDs cost nothing, so a flood of fresh identities must not keep an
// honest invitation, or a known peer's stream, from being read.

// flood is a crowd of fresh identities, each a real libp2p host
// connected to the victim, that keep idle game streams open on it: each
// stream gets one byte of a frame (or a whole hello, every other one)
// and nothing more. A stream the victim resets is opened again after
// pause; one it keeps is dropped and opened again every renew, so that
// the handshake timeout never frees its slot for long.
type flood struct {
	peers []*rawPeer
	// pause is how long a flooder waits to reopen a stream the victim
	// reset.
	pause  time.Duration
	stop   chan struct{}
	wg     sync.WaitGroup
	opened atomic.Int64 // streams opened and written to
	reset  atomic.Int64 // of them, reset by the victim
	quick  atomic.Int64 // of them, reset within 100 ms of opening
	held   atomic.Int64 // streams open right now, not yet reset
}

// startFlood connects ids fresh identities to the victim and has each
// keep perPeer idle game streams open on it, reopening a stream the
// victim resets after pause.
func startFlood(t *testing.T, ctx context.Context, victim host.Host, ids, perPeer int, renew, pause time.Duration) *flood {
	t.Helper()
	f := &flood{stop: make(chan struct{}), pause: pause}
	for range ids {
		f.peers = append(f.peers, newRawPeer(t, victim))
	}
	for i, p := range f.peers {
		for j := range perPeer {
			f.wg.Add(1)
			go f.keep(ctx, p, victim.ID(), (i+j)%2 == 1, renew)
		}
	}
	return f
}

// keep keeps one idle stream of p open on the victim until the flood
// stops; hello says whether it sends a whole hello or one byte.
func (f *flood) keep(ctx context.Context, p *rawPeer, victim peer.ID, hello bool, renew time.Duration) {
	defer f.wg.Done()
	for {
		select {
		case <-f.stop:
			return
		default:
		}
		st, err := p.open(ctx, victim)
		if err != nil {
			// Refused before the stream was open (the resource manager,
			// or the flood is over): try again shortly.
			select {
			case <-f.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			continue
		}
		start := time.Now()
		payload := []byte{0x40}
		if hello {
			id, _ := protocol.NewGameID()
			payload = framed(session.HelloFrame(id))
		}
		if _, err := st.Write(payload); err != nil {
			st.Reset()
			continue
		}
		f.opened.Add(1)
		f.held.Add(1)
		// Idle until the victim resets the stream or it is time to
		// renew it; a read is the way to see the reset.
		st.SetReadDeadline(time.Now().Add(renew))
		done := make(chan struct{})
		go func() {
			select {
			case <-f.stop:
				st.Reset()
			case <-done:
			}
		}()
		_, err = st.Read(make([]byte, 1))
		close(done)
		f.held.Add(-1)
		st.Reset()
		if err != nil && !isTimeout(err) {
			f.reset.Add(1)
			if time.Since(start) < 100*time.Millisecond {
				f.quick.Add(1)
			}
			time.Sleep(f.pause)
		}
	}
}

// close stops the flood and closes its hosts.
func (f *flood) close() {
	select {
	case <-f.stop:
		return
	default:
	}
	close(f.stop)
	f.wg.Wait()
	for _, p := range f.peers {
		p.h.Close()
	}
}

// waitSaturated waits until the flood has opened at least n streams and
// holds at least hold of them at once, or fails.
func (f *flood) waitSaturated(t *testing.T, n, hold int64) {
	t.Helper()
	deadline := testenv.Deadline(20 * time.Second)
	for f.opened.Load() < n || f.held.Load() < hold {
		if time.Now().After(deadline) {
			t.Fatalf("the flood never got going: %d streams opened, %d held", f.opened.Load(), f.held.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLIMD11FreshIdentityFlood (issue 30 case 7): 24 fresh identities
// keep 8 idle game streams each open on a victim with the default
// handshake timeout (10 s), reopening every stream the victim resets
// (after 5 ms) and renewing the others every 2 s: more than the victim's
// 128 slots for streams that are not yet a game. Meanwhile a stranger
// (a peer the victim has never seen) invites it to a game of 5x5 Go
// once, as `kakure bot --invite` does, and then a peer that played with
// the victim before does the same: both invitations must be accepted and
// both games played to their end, the records agreeing.
func TestLIMD11FreshIdentityFlood(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	const ids, perPeer = 24, 8
	// The flood loads the machine: the games get graces as long as the
	// defaults, so that a late automatic message is not a forfeit.
	graces := func(c *session.Config) {
		c.IdleTimeout = testenv.Duration(45 * time.Second)
		c.AutoGrace = testenv.Duration(60 * time.Second)
	}
	a := newArenaWith(t, true, func(c *session.Config) {
		graces(c)
		c.HandshakeTimeout = session.DefaultHandshakeTimeout
		c.Logger = nil // the flood would fill the test's log
	}, graces)
	// The honest peer's first game, before the flood: it is a stranger
	// then, and known to the victim after.
	var quiet time.Duration
	a.honestGameTimed(t, a.honest, 21, &quiet)
	baseline := goroutines(t)
	f := startFlood(t, a.ctx, a.vhost, ids*hostileScale(t), perPeer, 2*time.Second, 5*time.Millisecond)
	defer f.close()
	f.waitSaturated(t, 2*128, 128)
	time.Sleep(500 * time.Millisecond)
	t.Logf("flood of %d identities x %d streams: %d opened, %d held, %d reset by the victim (%d within 100 ms)",
		len(f.peers), perPeer, f.opened.Load(), f.held.Load(), f.reset.Load(), f.quick.Load())

	shost := newHost(t)
	stranger, err := session.NewService(session.Config{Host: shost, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	connect(t, shost, a.vhost)
	var strangerWait, knownWait time.Duration
	if !a.honestGameTimed(t, stranger, 22, &strangerWait) {
		t.FailNow()
	}
	a.honestGameTimed(t, a.honest, 23, &knownWait)
	t.Logf("invitation accepted after %v without a flood; during the flood, after %v (a stranger), %v (a peer known from a game)",
		quiet, strangerWait, knownWait)
	t.Logf("flood: %d streams opened, %d held, %d reset by the victim (%d within 100 ms)",
		f.opened.Load(), f.held.Load(), f.reset.Load(), f.quick.Load())
	f.close()
	shost.Close()
	waitGoroutines(t, baseline, 0)
}

// honestGameTimed plays a game of 5x5 Go from inviter against the victim
// (whose bots must be serving), inviting once; it sets accepted to the
// time the invitation took and reports whether the game completed with
// both records valid and agreeing.
func (a *arena) honestGameTimed(t *testing.T, inviter *session.Service, seed uint64, accepted *time.Duration) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(60*time.Second))
	defer cancel()
	start := time.Now()
	g, err := inviter.Invite(ctx, a.vhost.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	*accepted = time.Since(start)
	if err != nil {
		t.Errorf("the invitation failed after %v: %v", *accepted, err)
		return false
	}
	out, err := bot.Run(ctx, g, bot.NewRandom(seed))
	if err != nil || out == nil || out.Violation != nil {
		t.Errorf("the game did not complete: outcome %+v, err %v", out, err)
		return false
	}
	vg := a.victim.Game(g.ID())
	if vg == nil {
		t.Errorf("the victim has no game %s", g.ID())
		return false
	}
	if err := vg.Wait(ctx); err != nil {
		t.Errorf("the victim's side of the game: %v", err)
		return false
	}
	if vo := vg.Outcome(); vo == nil || vo.Result != out.Result {
		t.Errorf("the peers disagree: %v and %+v", out.Result, vo)
		return false
	}
	checkRecords(t, g, vg)
	t.Logf("game %s: accepted after %v, over after %v (%s)", g.ID(), *accepted, time.Since(start), out.Result)
	return !t.Failed()
}

// idleStream opens a game stream from h to the victim and writes one
// byte of a frame: the victim waits for the rest.
func idleStream(ctx context.Context, h host.Host, victim peer.ID) (network.Stream, error) {
	st, err := h.NewStream(ctx, victim, protocol.GameProtocol)
	if err != nil {
		return nil, err
	}
	if _, err := st.Write([]byte{0x40}); err != nil {
		st.Reset()
		return nil, err
	}
	return st, nil
}

// wasReset reports whether the victim reset st: a read ends with an
// error other than its deadline.
func wasReset(st network.Stream) (bool, error) {
	st.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	_, err := st.Read(make([]byte, 1))
	if isTimeout(err) {
		return false, nil
	}
	return err != nil, err
}

// TestLIMD11KnownPeersKeepTheirSlots: while fresh identities churn
// through the victim's pool of handshake slots for every peer (each
// stream evicted by a newcomer's reopens at once and evicts the oldest),
// a stranger's idle stream is evicted, but not the idle streams of the
// peers the victim knows, which take the slots kept for them: a peer it
// has a petname for (Config.Known), a peer it invited, a peer it played
// a game with before it restarted (known from its games directory only)
// and a peer whose game it runs. The pools are made small (4 and 4) so
// that a few identities fill them.
func TestLIMD11KnownPeersKeepTheirSlots(t *testing.T) {
	parallelUnlessRace(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	vhost, vdir := newHost(t), t.TempDir()
	opts := engine.Options{Variant: engine.VariantGo, Size: 5}

	// A game with the victim before it restarts: only its record stays.
	played := newHost(t)
	playedSvc, err := session.NewService(session.Config{Host: played, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer playedSvc.Close()
	before, err := session.NewService(session.Config{Host: vhost, Dir: vdir})
	if err != nil {
		t.Fatal(err)
	}
	connect(t, played, vhost)
	g, err := playedSvc.Invite(ctx, vhost.ID(), opts)
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	before.Close()

	petnamed := newHost(t)
	vc := session.Config{Host: vhost, Dir: vdir, HandshakeTimeout: testenv.Duration(time.Minute),
		Known: func(p peer.ID) bool { return p == petnamed.ID() }}
	session.SetHandshakePools(&vc, 4, 4)
	victim, err := session.NewService(vc)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()

	// A peer the victim invited: the invitation fails (it speaks no
	// kakure), but the victim asked for it.
	invited := newHost(t)
	connect(t, vhost, invited)
	if _, err := victim.Invite(ctx, invited.ID(), opts); err == nil {
		t.Fatal("an invitation to a peer without the game protocol succeeded")
	}
	// A peer whose game the victim runs (accepted, never played).
	inGame := newHost(t)
	inGameSvc, err := session.NewService(session.Config{Host: inGame, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer inGameSvc.Close()
	connect(t, inGame, vhost)
	g, err = inGameSvc.Invite(ctx, vhost.ID(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	select {
	case vg := <-victim.Accepted():
		defer vg.Close()
	case <-ctx.Done():
		t.Fatal("the victim accepted no game")
	}
	stranger := newHost(t)
	connect(t, petnamed, vhost)
	connect(t, stranger, vhost)

	f := startFlood(t, ctx, vhost, 6, 1, time.Minute, 100*time.Millisecond)
	defer f.close()
	f.waitSaturated(t, 20, 4)
	streams := map[string]network.Stream{}
	for name, h := range map[string]host.Host{"petnamed": petnamed, "invited": invited, "played": played, "in a game": inGame, "stranger": stranger} {
		st, err := idleStream(ctx, h, vhost.ID())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer st.Reset()
		streams[name] = st
	}
	// Enough evictions for the four slots to turn over many times.
	resets := f.reset.Load()
	deadline := testenv.Deadline(20 * time.Second)
	for f.reset.Load() < resets+30 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("flood of %d identities: %d streams opened, %d reset by the victim (%d since the streams under test opened)",
		len(f.peers), f.opened.Load(), f.reset.Load(), f.reset.Load()-resets)
	if f.reset.Load() < resets+30 {
		t.Fatalf("the flood made only %d evictions", f.reset.Load()-resets)
	}
	for name, st := range streams {
		reset, err := wasReset(st)
		t.Logf("%s: reset %v (%v)", name, reset, err)
		if reset != (name == "stranger") {
			if name == "stranger" {
				t.Errorf("the stranger's idle stream outlived %d evictions in a pool of 4", f.reset.Load()-resets)
			} else {
				t.Errorf("the idle stream of a known peer (%s) was reset: %v", name, err)
			}
		}
	}
}

// isTimeout reports whether err is a read deadline's (yamux's own error,
// or the os one).
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}

// TestLIMD11InvitationBeingAnsweredKeepsItsSlot: a stranger's signed
// invitation waits for the victim's decision (Config.OnInvite, a user
// who takes their time) while fresh identities churn through the
// victim's pool of handshake slots (4, so that a few identities fill
// it): the invitation keeps its slot, is accepted once decided, and the
// game starts. A stream whose invitation is read is no longer evictable.
func TestLIMD11InvitationBeingAnsweredKeepsItsSlot(t *testing.T) {
	parallelUnlessRace(t)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Minute))
	defer cancel()
	vhost := newHost(t)
	// The flood knocks until the victim's service starts.
	f := startFlood(t, ctx, vhost, 6, 1, time.Minute, 100*time.Millisecond)
	defer f.close()
	deciding := make(chan struct{})
	vc := session.Config{Host: vhost, Dir: t.TempDir(), HandshakeTimeout: testenv.Duration(time.Minute),
		OnInvite: func(peer.ID, string, engine.Options) error {
			// The user decides after the flood has evicted 20 streams
			// (the pool of 4 turned over 5 times).
			close(deciding)
			resets := f.reset.Load()
			for f.reset.Load() < resets+20 {
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(20 * time.Millisecond):
				}
			}
			t.Logf("invitation decided after %d evictions", f.reset.Load()-resets)
			return nil
		}}
	session.SetHandshakePools(&vc, 4, 4)
	victim, err := session.NewService(vc)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	go func() {
		select {
		case g := <-victim.Accepted():
			<-ctx.Done()
			g.Close()
		case <-ctx.Done():
		}
	}()
	shost := newHost(t)
	stranger, err := session.NewService(session.Config{Host: shost, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	connect(t, shost, vhost)
	f.waitSaturated(t, 20, 4)
	start := time.Now()
	g, err := stranger.Invite(ctx, vhost.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	select {
	case <-deciding:
	default:
		t.Fatalf("the invitation never reached the decision: %v", err)
	}
	if err != nil {
		t.Fatalf("the invitation failed while it was being decided on, after %v: %v", time.Since(start), err)
	}
	defer g.Close()
	t.Logf("invitation accepted after %v; flood: %d streams opened, %d reset by the victim", time.Since(start), f.opened.Load(), f.reset.Load())
}
