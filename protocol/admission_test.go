package protocol_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// Fair admission of new game streams (LIM-D11, issue 30 case 7): peer
// IDs cost nothing, so a flood of fresh identities must not keep an
// honest invitation, or a known peer's stream, from being read.

// flood is a crowd of fresh identities, each a real libp2p host
// connected to the victim, that keep idle game streams open on it: each
// stream gets one byte of a frame (or a whole hello, every other one)
// and nothing more. A stream the victim resets is opened again at once;
// one it keeps is dropped and opened again every renew, so that the
// handshake timeout never frees its slot for long.
type flood struct {
	peers  []*rawPeer
	stop   chan struct{}
	wg     sync.WaitGroup
	opened atomic.Int64 // streams opened and written to
	reset  atomic.Int64 // of them, reset by the victim
	quick  atomic.Int64 // of them, reset within 100 ms of opening
	held   atomic.Int64 // streams open right now, not yet reset
}

// startFlood connects ids fresh identities to the victim and has each
// keep perPeer idle game streams open on it.
func startFlood(t *testing.T, ctx context.Context, victim *arena, ids, perPeer int, renew time.Duration) *flood {
	t.Helper()
	f := &flood{stop: make(chan struct{})}
	for range ids {
		f.peers = append(f.peers, newRawPeer(t, victim.vhost))
	}
	for i, p := range f.peers {
		for j := range perPeer {
			f.wg.Add(1)
			go f.keep(ctx, p, victim.vhost.ID(), (i+j)%2 == 1, renew)
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
			payload = framed(protocol.HelloFrame(id))
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
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			f.reset.Add(1)
			if time.Since(start) < 100*time.Millisecond {
				f.quick.Add(1)
			}
			// Again at once, as far as a goroutine's pause: the slot the
			// victim freed is taken back before an honest stream comes.
			time.Sleep(5 * time.Millisecond)
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
// handshake timeout (10 s), reopening at once every stream the victim
// resets (after 5 ms) and renewing the others every 2 s: more than the victim's 128
// slots for streams that are not yet a game. Meanwhile an honest peer,
// a stranger to the victim, invites it to a game of 5x5 Go once (as
// `kakure bot --invite` does): the invitation must be accepted and the
// game played to its end, both records agreeing.
func TestLIMD11FreshIdentityFlood(t *testing.T) {
	const ids, perPeer = 24, 8
	a := newArena(t, true, func(c *protocol.Config) {
		c.HandshakeTimeout = protocol.DefaultHandshakeTimeout
		c.Logger = nil // the flood would fill the test's log
	})
	a.honestGame(t, 21) // warm up libp2p's per-peer machinery
	baseline := goroutines()
	f := startFlood(t, a.ctx, a, ids*hostileScale(t), perPeer, 2*time.Second)
	defer f.close()
	f.waitSaturated(t, 2*128, 128)
	time.Sleep(500 * time.Millisecond)
	t.Logf("flood of %d identities x %d streams: %d opened, %d held, %d reset by the victim (%d within 100 ms)",
		len(f.peers), perPeer, f.opened.Load(), f.held.Load(), f.reset.Load(), f.quick.Load())

	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(60*time.Second))
	defer cancel()
	start := time.Now()
	g, err := a.honest.Invite(ctx, a.vhost.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	started := time.Since(start)
	if err != nil {
		t.Fatalf("the honest invitation during the flood failed after %v: %v", started, err)
	}
	out, err := bot.Run(ctx, g, bot.NewRandom(22))
	finished := time.Since(start)
	if err != nil || out == nil || out.Violation != nil {
		t.Fatalf("the honest game during the flood did not complete: outcome %+v, err %v", out, err)
	}
	vg := a.victim.Game(g.ID())
	if vg == nil {
		t.Fatalf("the victim has no game %s", g.ID())
	}
	if err := vg.Wait(ctx); err != nil {
		t.Fatalf("the victim's side of the honest game: %v", err)
	}
	if vo := vg.Outcome(); vo == nil || vo.Result != out.Result {
		t.Errorf("the peers disagree: %v and %+v", out.Result, vo)
	}
	checkRecords(t, g, vg)
	t.Logf("honest game during the flood: accepted after %v, over after %v (%s); flood: %d opened, %d held, %d reset by the victim (%d within 100 ms)",
		started, finished, out.Result, f.opened.Load(), f.held.Load(), f.reset.Load(), f.quick.Load())
	f.close()
	waitGoroutines(t, baseline, 0)
}

// streamHeld opens an idle game stream from h to the victim (one byte of
// a frame) and reports how long the victim kept it, up to max.
func streamHeld(ctx context.Context, p *rawPeer, victim peer.ID, max time.Duration) (time.Duration, error) {
	st, err := p.open(ctx, victim)
	if err != nil {
		return 0, err
	}
	defer st.Reset()
	start := time.Now()
	if _, err := st.Write([]byte{0x40}); err != nil {
		return time.Since(start), err
	}
	st.SetReadDeadline(time.Now().Add(max))
	_, err = st.Read(make([]byte, 1))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = nil
	}
	return time.Since(start), err
}

var _ network.Stream // keeps the import when the tests change
