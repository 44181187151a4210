package session_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Hostile peers against a real Service on loopback (T-10, T-11): a peer
// that floods invitations, opens hundreds of streams, trickles bytes,
// never answers, answers with garbage or vanishes in the middle of a
// game. In every case the node stays responsive (an honest game on it
// completes meanwhile), nothing but valid messages reaches a record, and
// the goroutines come back to their number before the attack.

// hostileScale multiplies the size of the attacks (invitations, streams,
// rounds of garbage): 1, or KAKURE_HOSTILE_SCALE for a longer run.
func hostileScale(t *testing.T) int {
	if s := os.Getenv("KAKURE_HOSTILE_SCALE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("KAKURE_HOSTILE_SCALE=%q", s)
		}
		return n
	}
	return 1
}

// hostileTimeouts are short timeouts, so that each test takes seconds.
func hostileTimeouts(c *session.Config) {
	c.IdleTimeout = 2 * time.Second
	c.AutoGrace = time.Second
	c.HandshakeTimeout = time.Second
}

// arena is a victim service, an honest peer that plays with it, and the
// bots that play every game the victim accepts.
type arena struct {
	victim  *session.Service
	vhost   host.Host
	vdir    string
	honest  *session.Service
	hhost   host.Host
	ctx     context.Context
	bots    sync.WaitGroup
	stopped chan struct{}
}

// newArena starts the victim and the honest peer; serve makes the victim
// play every game it accepts with a random bot (else nobody reads
// Accepted).
func newArena(t *testing.T, serve bool, cfg func(c *session.Config)) *arena {
	t.Helper()
	return newArenaWith(t, serve, cfg, nil)
}

// newArenaWith is newArena with hcfg (if not nil) changing the honest
// peer's configuration.
func newArenaWith(t *testing.T, serve bool, cfg, hcfg func(c *session.Config)) *arena {
	t.Helper()
	// A minute per unit of KAKURE_HOSTILE_SCALE (the larger runs repeat
	// the attacks that many times), stretched by testenv.Duration.
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(time.Duration(hostileScale(t))*time.Minute))
	a := &arena{ctx: ctx, stopped: make(chan struct{})}
	a.vhost, a.hhost = newHost(t), newHost(t)
	a.vdir = t.TempDir()
	vc := session.Config{Host: a.vhost, Dir: a.vdir, Logger: testLogger(t, 1)}
	hostileTimeouts(&vc)
	if cfg != nil {
		cfg(&vc)
	}
	var err error
	if a.victim, err = session.NewService(vc); err != nil {
		t.Fatal(err)
	}
	hc := session.Config{Host: a.hhost, Dir: t.TempDir(), Logger: testLogger(t, 0)}
	hostileTimeouts(&hc)
	if hcfg != nil {
		hcfg(&hc)
	}
	if a.honest, err = session.NewService(hc); err != nil {
		t.Fatal(err)
	}
	connect(t, a.hhost, a.vhost)
	if serve {
		go func() {
			n := uint64(100)
			for {
				select {
				case g := <-a.victim.Accepted():
					n++
					a.bots.Add(1)
					go func(seed uint64) {
						defer a.bots.Done()
						bot.Run(ctx, g, bot.NewRandom(seed))
					}(n)
				case <-a.stopped:
					return
				}
			}
		}()
	}
	t.Cleanup(func() {
		close(a.stopped)
		cancel()
		a.victim.Close()
		a.honest.Close()
		a.bots.Wait()
	})
	return a
}

// honestGame plays a game of 5x5 Go from the honest peer against the
// victim (whose bots must be serving) and checks that it completes with
// both records valid and agreeing.
func (a *arena) honestGame(t *testing.T, seed uint64) {
	t.Helper()
	a.honestGameOf(t, seed, engine.Options{Variant: engine.VariantGo, Size: 5})
}

// honestGameOf is honestGame with options o.
func (a *arena) honestGameOf(t *testing.T, seed uint64, o engine.Options) {
	t.Helper()
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(30*time.Second))
	defer cancel()
	g, err := a.honest.Invite(ctx, a.vhost.ID(), o)
	if err != nil {
		t.Errorf("honest game: Invite: %v", err)
		return
	}
	out, err := bot.Run(ctx, g, bot.NewRandom(seed))
	if err != nil || out == nil || out.Violation != nil {
		t.Errorf("honest game did not complete: outcome %+v, err %v", out, err)
		return
	}
	vg := a.victim.Game(g.ID())
	if vg == nil {
		t.Errorf("the victim has no game %s", g.ID())
		return
	}
	if err := vg.Wait(ctx); err != nil {
		t.Errorf("the victim's side of the honest game: %v", err)
		return
	}
	if vo := vg.Outcome(); vo == nil || vo.Result != out.Result {
		t.Errorf("the peers disagree: %v and %+v", out.Result, vo)
	}
	checkRecords(t, g, vg)
}

// checkVictimRecords reads every record in the victim's directory: each
// reads (signatures, chains) and replays without a violation by the
// victim itself. It returns how many there are.
func (a *arena) checkVictimRecords(t *testing.T) int {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(a.vdir, "*.record.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		tr, err := session.LoadTranscript(path)
		if err != nil {
			t.Errorf("victim's record: %v", err)
			continue
		}
		rep := protocol.Verify(tr)
		if v := rep.Violation; v != nil && tr.Peers[v.Accused] == protocol.PeerID(a.vhost.ID()) {
			t.Errorf("victim's record %s: Verify blames the victim: %v", filepath.Base(path), v)
		}
	}
	return len(paths)
}

// rawPeer is a hostile peer: a bare libp2p host that writes whatever it
// likes on game streams.
type rawPeer struct {
	h   host.Host
	key crypto.PrivKey
}

func newRawPeer(t *testing.T, victim host.Host) *rawPeer {
	t.Helper()
	h := newHost(t)
	connect(t, h, victim)
	return &rawPeer{h: h, key: h.Peerstore().PrivKey(h.ID())}
}

// open opens a game stream to the victim.
func (p *rawPeer) open(ctx context.Context, victim peer.ID) (network.Stream, error) {
	return p.h.NewStream(ctx, victim, protocol.GameProtocol)
}

// invitation returns a signed invitation to a 5x5 game of Go.
func (p *rawPeer) invitation(t *testing.T, victim peer.ID, id protocol.GameID) *protocol.Message {
	return p.invitationOf(t, victim, id, engine.Options{Variant: engine.VariantGo, Size: 5})
}

// invitationOf returns a signed invitation to a game with options o.
func (p *rawPeer) invitationOf(t *testing.T, victim peer.ID, id protocol.GameID, o engine.Options) *protocol.Message {
	t.Helper()
	body := protocol.InviteBody{Version: protocol.Version, Inviter: p.h.ID().String(), Invitee: victim.String(),
		Options: protocol.OptionsToBody(mustNormalize(t, o))}
	m := &protocol.Message{Game: id, From: protocol.Inviter, Ack: -1, Kind: protocol.KindInvite, Body: session.MustEncodeBody(body)}
	if err := m.Sign(p.key); err != nil {
		t.Fatal(err)
	}
	return m
}

func mustNormalize(t *testing.T, o engine.Options) engine.Options {
	t.Helper()
	o, err := o.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// invite opens a stream, sends a hello and the invitation of a new game,
// and reads the answer: the kind of the victim's first message and a
// decline's reason, or the error that ended the stream. The stream stays
// open (the caller closes it).
func (p *rawPeer) invite(t *testing.T, ctx context.Context, victim peer.ID) (network.Stream, protocol.Kind, string, error) {
	id, _ := protocol.NewGameID()
	st, err := p.open(ctx, victim)
	if err != nil {
		return nil, "", "", err
	}
	for _, f := range [][]byte{session.HelloFrame(id), session.FrameOf(p.invitation(t, victim, id))} {
		if err := protocol.WriteFrame(st, f); err != nil {
			return st, "", "", err
		}
	}
	kind, reason, err := readAnswer(st, 5*time.Second)
	return st, kind, reason, err
}

// pingFrame is a keep-alive frame.
var pingFrame = framed([]byte(`{"ping":true}`))

// keepAlive sends keep-alives on st every 300ms until a write fails: the
// peer stays connected but says nothing else, so that the victim waits
// for it by AutoGrace (and forfeits it), not by the idle timeout.
func keepAlive(st network.Stream) {
	for {
		st.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := st.Write(pingFrame); err != nil {
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// readAnswer reads frames until the first message and returns its kind
// (and the reason, for a decline).
func readAnswer(st network.Stream, timeout time.Duration) (protocol.Kind, string, error) {
	m, err := readMessage(bufio.NewReader(st), st, timeout)
	if err != nil {
		return "", "", err
	}
	var db protocol.DeclineBody
	json.Unmarshal(m.Body, &db)
	return m.Kind, db.Reason, nil
}

// readMessage reads frames from r until a message, for at most timeout
// (stretched by testenv.Duration).
// invitedOn sends the hello of game id and the invitation on st, waits
// for the victim's acceptance, and returns the reader of st and the
// acceptance.
func invitedOn(t *testing.T, st network.Stream, id protocol.GameID, invite *protocol.Message) (*bufio.Reader, *protocol.Message) {
	t.Helper()
	for _, f := range [][]byte{session.HelloFrame(id), session.FrameOf(invite)} {
		if err := protocol.WriteFrame(st, f); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(st)
	accept, err := readMessage(r, st, 5*time.Second)
	if err != nil || accept.Kind != protocol.KindAccept {
		t.Fatalf("invitation: %+v, %v", accept, err)
	}
	return r, accept
}

func readMessage(r *bufio.Reader, st network.Stream, timeout time.Duration) (*protocol.Message, error) {
	st.SetReadDeadline(testenv.Deadline(timeout))
	for {
		raw, err := protocol.ReadFrame(r, protocol.MaxFrameSize)
		if err != nil {
			return nil, err
		}
		if m := session.DecodeFrameMessage(raw); m != nil {
			return m, nil
		}
	}
}

// TestT10FloodOfInvitations: a peer sends a hundred invitations, twenty
// at a time, and never plays the games it gets (it only keeps them
// alive). The victim never runs
// more games with it than MaxGamesPerPeer, declines the rest, forfeits
// the silent games after AutoGrace, plays an honest game meanwhile, and
// holds no goroutine for the flood once it is over.
func TestT10FloodOfInvitations(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	const perPeer = 4
	a := newArena(t, true, func(c *session.Config) { c.MaxGamesPerPeer = perPeer })
	a.honestGame(t, 1) // warm up libp2p's per-peer machinery
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)

	var accepted, declined, refused atomic.Int32
	var maxRunning atomic.Int32
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if n := int32(a.victim.RunningGames()); n > maxRunning.Load() {
				maxRunning.Store(n)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var streams sync.Map
	var wg sync.WaitGroup
	sem := make(chan struct{}, 20)
	invitations := 100 * hostileScale(t)
	for range invitations {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			st, kind, reason, err := evil.invite(t, a.ctx, a.vhost.ID())
			if st != nil {
				streams.Store(st, true) // held open, silent but for keep-alives
				if err == nil && kind == protocol.KindAccept {
					go keepAlive(st)
				}
			}
			switch {
			case err != nil:
				refused.Add(1)
			case kind == protocol.KindAccept:
				accepted.Add(1)
			case kind == protocol.KindDecline:
				declined.Add(1)
				if !strings.Contains(reason, "too many") && !strings.Contains(reason, "busy") {
					t.Errorf("decline reason %q", reason)
				}
			default:
				t.Errorf("answer %s to an invitation", kind)
			}
		}()
	}
	a.honestGame(t, 2)
	wg.Wait()
	close(stopSampling)
	<-sampled
	t.Logf("%d invitations: %d accepted, %d declined, %d refused; at most %d games running at once",
		invitations, accepted.Load(), declined.Load(), refused.Load(), maxRunning.Load())
	if accepted.Load() == 0 || declined.Load() == 0 {
		t.Errorf("want some invitations accepted and some declined")
	}
	// The honest game ran beside at most perPeer games of the flood.
	if maxRunning.Load() > perPeer+1 {
		t.Errorf("%d games ran at once, the cap is %d per peer (+1 honest)", maxRunning.Load(), perPeer)
	}
	// The silent games end by forfeit (T-11) after AutoGrace, while the
	// flooder still holds their streams open.
	deadline := testenv.Deadline(10 * time.Second)
	for a.victim.RunningGames() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := a.victim.RunningGames(); n > 0 {
		t.Errorf("%d games still run after the flood", n)
	}
	streams.Range(func(k, _ any) bool { k.(network.Stream).Reset(); return true })
	evil.h.Close()
	if n := a.checkVictimRecords(t); n < int(accepted.Load()) {
		t.Errorf("%d records for %d accepted games", n, accepted.Load())
	}
	waitGoroutines(t, baseline, 0)
}

// TestT10LIMD21AcceptedNobodyReads: a service whose Accepted channel nobody
// reads accepts sixteen invitations and declines the next at once as
// busy, instead of blocking its stream handlers forever; the accepted
// games are there for a reader that comes late. None of the first
// sixteen is declined as busy while the channel has room (LIM-D21: a game
// entering the channel was counted twice for a moment).
func TestT10LIMD21AcceptedNobodyReads(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, false, func(c *session.Config) { c.AutoGrace = time.Minute })
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	var streams []network.Stream
	kinds := map[protocol.Kind]int{}
	for i := range 20 {
		st, kind, reason, err := evil.invite(t, a.ctx, a.vhost.ID())
		if err != nil {
			t.Fatalf("invitation %d: %v", i, err)
		}
		streams = append(streams, st)
		kinds[kind]++
		if i >= 16 && (kind != protocol.KindDecline || !strings.Contains(reason, "busy")) {
			t.Errorf("invitation %d: %s %q, want a decline as busy", i, kind, reason)
		}
		if i < 16 && kind != protocol.KindAccept {
			t.Errorf("invitation %d: %s %q, want an acceptance (the Accepted queue has room)", i, kind, reason)
		}
	}
	if kinds[protocol.KindAccept] != 16 {
		t.Errorf("%d invitations accepted, want 16 (the Accepted queue)", kinds[protocol.KindAccept])
	}
	for _, st := range streams {
		st.Reset()
	}
	evil.h.Close()
	// A reader comes late: it gets the sixteen games, closes them and
	// reads their events to the end.
	for range 16 {
		select {
		case g := <-a.victim.Accepted():
			g.Close()
			for range g.Events() {
			}
		case <-time.After(testenv.Duration(5 * time.Second)):
			t.Fatal("fewer than 16 games in Accepted")
		}
	}
	waitGoroutines(t, baseline, 0)
}

// TestT10HundredsOfStreams: a peer opens 300 game streams at once and
// sends one byte on each. The victim resets all but a few at once (the
// resource manager or the limit of handshakes per peer), the rest when
// the handshake timeout expires, and plays an honest game meanwhile.
func TestT10HundredsOfStreams(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	const handshake = 3 * time.Second
	a := newArena(t, true, func(c *session.Config) { c.HandshakeTimeout = handshake })
	a.honestGame(t, 3)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	n := int32(300 * hostileScale(t))
	var opened, reset, slow atomic.Int32
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := evil.open(a.ctx, a.vhost.ID())
			if err != nil {
				reset.Add(1) // refused by the resource manager
				return
			}
			defer st.Reset()
			if _, err := st.Write([]byte{0x40}); err != nil {
				reset.Add(1)
				return
			}
			opened.Add(1)
			wrote := time.Now()
			st.SetReadDeadline(testenv.Deadline(10 * time.Second))
			if _, err := st.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				reset.Add(1)
			}
			if time.Since(wrote) > handshake*2/3 {
				slow.Add(1) // held until the handshake timeout
			}
		}()
	}
	a.honestGame(t, 4)
	wg.Wait()
	took := time.Since(start)
	t.Logf("%d streams: %d opened, %d reset by the victim, %d of them after the handshake timeout, in %v",
		n, opened.Load(), reset.Load(), slow.Load(), took)
	// Only the few streams within the per-peer limit of handshakes wait
	// for the timeout; the others are reset at once.
	if slow.Load() > 8 {
		t.Errorf("%d streams were held until the handshake timeout, the limit is 8 at once", slow.Load())
	}
	if reset.Load() != n {
		t.Errorf("%d of %d streams were not reset by the victim", n-reset.Load(), n)
	}
	if took > handshake+5*time.Second {
		t.Errorf("the streams were cut after %v, the handshake timeout is %v", took, handshake)
	}
	evil.h.Close()
	waitGoroutines(t, baseline, 0)
}

// trickle writes p one byte every interval until done or an error.
func trickle(st network.Stream, p []byte, interval time.Duration) (int, error) {
	for i := range p {
		if _, err := st.Write(p[i : i+1]); err != nil {
			return i, err
		}
		time.Sleep(interval)
	}
	return len(p), nil
}

// framed returns a frame with its length prefix.
func framed(p []byte) []byte {
	var b bytes.Buffer
	protocol.WriteFrame(&b, p)
	return b.Bytes()
}

// TestT10Trickle: a peer that sends its hello a byte at a time is cut off
// when the handshake timeout expires; one that trickles a message in the
// middle of a game is cut off by the idle timeout or forfeits (T-11).
// An honest game on the victim completes meanwhile.
func TestT10Trickle(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, true, nil)
	a.honestGame(t, 5)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	done := make(chan struct{})
	go func() {
		defer close(done)
		id, _ := protocol.NewGameID()
		st, err := evil.open(a.ctx, a.vhost.ID())
		if err != nil {
			t.Error(err)
			return
		}
		defer st.Reset()
		start := time.Now()
		hello := framed(session.HelloFrame(id))
		n, err := trickle(st, hello, 100*time.Millisecond)
		if err == nil {
			// Writes may land in buffers: the reset shows on a read.
			st.SetReadDeadline(testenv.Deadline(5 * time.Second))
			_, err = st.Read(make([]byte, 1))
		}
		t.Logf("handshake trickle: %d of %d bytes in %v, then %v", n, len(hello), time.Since(start), err)
		if err == nil || time.Since(start) > testenv.Duration(5*time.Second) {
			t.Errorf("a hello trickled for %v was not cut (err %v)", time.Since(start), err)
		}
	}()
	// In a game: a proper invitation, then the coin toss a byte at a time.
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	start := time.Now()
	_, err = trickle(st, bytes.Repeat([]byte{0x7f}, 200), 200*time.Millisecond)
	t.Logf("in-game trickle cut after %v: %v", time.Since(start), err)
	if err == nil {
		t.Error("an in-game trickle of 40s was never cut")
	}
	st.Reset()
	a.honestGame(t, 6)
	<-done
	evil.h.Close()
	a.checkVictimRecords(t)
	waitGoroutines(t, baseline, 3) // the trickler's game may stay adjourned
}

// TestT11SilentPeer: a peer that takes the stream and never answers.
// Invited by the victim, it makes Invite fail after the idle timeout;
// inviting the victim and then saying nothing but keep-alives, it
// forfeits its game after AutoGrace (T-11) and the victim's record says
// so.
func TestT11SilentPeer(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, true, nil)
	a.honestGame(t, 7)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	evil.h.SetStreamHandler(protocol.GameProtocol, func(st network.Stream) {
		go func() { // read everything, answer nothing
			buf := make([]byte, 4096)
			for {
				if _, err := st.Read(buf); err != nil {
					return
				}
			}
		}()
	})
	start := time.Now()
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(30*time.Second))
	defer cancel()
	g, err := a.victim.Invite(ctx, evil.h.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	t.Logf("invitation to a silent peer: %v after %v", err, time.Since(start))
	if err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("Invite of a silent peer returned %v after %v, want an error after the 2s idle timeout", err, time.Since(start))
	}
	if g != nil {
		g.Close()
	}

	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	defer st.Reset()
	go keepAlive(st)
	a.honestGame(t, 8)
	var silent *session.Game
	deadline := testenv.Deadline(5 * time.Second)
	for silent == nil && time.Now().Before(deadline) {
		for _, id := range recordIDs(t, a) {
			if g := a.victim.Game(id); g != nil && g.Peer() == evil.h.ID() && g.Role() == protocol.Invitee {
				silent = g
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if silent == nil {
		t.Fatal("the victim has no game with the silent inviter")
	}
	if err := silent.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	out := silent.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != protocol.Inviter {
		t.Errorf("outcome %+v, want a T-11 forfeit of the silent inviter", out)
	}
	tr, err := session.LoadTranscript(silent.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-11" {
		t.Errorf("Verify on the record: %+v", rep.Violation)
	}
	st.Reset()
	evil.h.Close()
	waitGoroutines(t, baseline, 0)
}

// recordIDs lists the IDs of every record in the victim's directory.
func recordIDs(t *testing.T, a *arena) []protocol.GameID {
	paths, _ := filepath.Glob(filepath.Join(a.vdir, "*.record.json"))
	var ids []protocol.GameID
	for _, p := range paths {
		if id, err := protocol.ParseGameID(strings.TrimSuffix(filepath.Base(p), ".record.json")); err == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// TestT10GarbageHandshakes: streams that start with garbage, an
// oversized frame, a hello and then garbage, or invitations that are not
// valid are reset (or declined) without a game, a record or a goroutine
// left behind, and an honest game completes meanwhile.
func TestT10GarbageHandshakes(t *testing.T) {
	parallelUnlessRace(t)
	trackGoroutines(t)
	a := newArena(t, true, nil)
	a.honestGame(t, 9)
	baseline := goroutines(t)
	evil := newRawPeer(t, a.vhost)
	victim := a.vhost.ID()
	_, otherPub, _ := crypto.GenerateEd25519Key(rand.Reader)
	other, _ := peer.IDFromPublicKey(otherPub)
	inviteFrame := func(change func(m *protocol.Message), id protocol.GameID) []byte {
		m := evil.invitation(t, victim, id)
		change(m)
		return framed(session.FrameOf(m))
	}
	tests := []struct {
		name  string
		bytes func(id protocol.GameID) []byte
	}{
		{"T-10 not a frame", func(protocol.GameID) []byte { return []byte("GET / HTTP/1.1\r\n\r\n") }},
		{"T-10 oversized frame", func(protocol.GameID) []byte { return []byte{0xff, 0xff, 0xff, 0x7f} }},
		{"T-10 frame of garbage", func(protocol.GameID) []byte { return framed([]byte("{not json")) }},
		{"T-10 unknown field", func(protocol.GameID) []byte { return framed([]byte(`{"hello":{"game":"00"},"evil":1}`)) }},
		{"T-10 hello then garbage", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), framed([]byte("]]]"))...)
		}},
		{"T-10 hello then a ping", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), framed([]byte(`{"ping":true}`))...)
		}},
		{"T-3 hello then a move", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) {
				m.Kind, m.Body = protocol.KindMove, session.MustEncodeBody(protocol.MoveBody{Point: "C3"})
				m.Sign(evil.key)
			}, id)...)
		}},
		{"T-3 invitation with a bad signature", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) { m.Sig[0] ^= 1 }, id)...)
		}},
		{"T-3 invitation of another game", func(id protocol.GameID) []byte {
			other, _ := protocol.NewGameID()
			return append(framed(session.HelloFrame(id)), inviteFrame(func(*protocol.Message) {}, other)...)
		}},
		{"T-3 invitation naming other peers", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) {
				var b protocol.InviteBody
				json.Unmarshal(m.Body, &b)
				b.Invitee = other.String()
				m.Body = session.MustEncodeBody(b)
				m.Sign(evil.key)
			}, id)...)
		}},
		{"T-10 invitation with bad options", func(id protocol.GameID) []byte {
			return append(framed(session.HelloFrame(id)), inviteFrame(func(m *protocol.Message) {
				var b protocol.InviteBody
				json.Unmarshal(m.Body, &b)
				b.Options.Size = 99
				m.Body = session.MustEncodeBody(b)
				m.Sign(evil.key)
			}, id)...)
		}},
		{"T-3 resume of a game that does not exist", func(id protocol.GameID) []byte {
			raw, _ := json.Marshal(map[string]any{"hello": map[string]any{"game": id, "have": []int{3, 2}}})
			return framed(raw)
		}},
	}
	for round := range 8 * hostileScale(t) { // several rounds, so that a leak shows
		for i, tt := range tests {
			if i == 0 && round > 0 {
				continue // it waits for the handshake timeout
			}
			id, _ := protocol.NewGameID()
			st, err := evil.open(a.ctx, victim)
			if err != nil {
				t.Fatalf("round %d, %s: %v", round, tt.name, err)
			}
			st.Write(tt.bytes(id))
			kind, _, err := readAnswer(st, 5*time.Second)
			if err == nil && kind != protocol.KindDecline {
				t.Errorf("%s: the victim answered %s", tt.name, kind)
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("%s: the victim neither reset the stream nor answered", tt.name)
			}
			st.Reset()
			if g := a.victim.Game(id); g != nil && round == 0 {
				t.Errorf("%s: the victim registered a game", tt.name)
			}
		}
	}
	a.honestGame(t, 10)
	if n := a.checkVictimRecords(t); n != 2 {
		t.Errorf("%d records in the victim's directory, want the 2 honest games", n)
	}
	evil.h.Close()
	waitGoroutines(t, baseline, 0)
}

// TestT11DisconnectMidGame: a peer vanishes (its host closes) in the
// middle of a game: of plain Go between two moves, of Phantom Go in the
// middle of the secure computation of a try. The victim's game is
// adjourned with a valid record that Unfinished lists, an honest game
// completes meanwhile, and once the adjourned game is closed nothing of
// it remains running.
func TestT11DisconnectMidGame(t *testing.T) {
	parallelUnlessRace(t)
	tests := []struct {
		name string
		o    engine.Options
		// vanish makes the peer on h vanish at some point of the game
		// and close gone: through its player p, or its config c.
		vanish func(h host.Host, gone chan struct{}, c *session.Config) bot.Player
	}{
		{"T-11 plain Go between moves", engine.Options{Variant: engine.VariantGo, Size: 5},
			func(h host.Host, gone chan struct{}, _ *session.Config) bot.Player {
				return &vanisher{p: bot.NewRandom(12), after: 3, h: h, gone: gone}
			}},
		{"T-11 Phantom Go in a secure computation", engine.Options{Variant: engine.VariantPhantom, Size: 5},
			func(h host.Host, gone chan struct{}, c *session.Config) bot.Player {
				var once sync.Once
				n := 0
				session.SetTamper(c, func(m *protocol.Message, _ crypto.PrivKey) [][]byte {
					if strings.HasPrefix(string(m.Kind), "phantom-") && m.Kind != phantomrules.KindCommit && m.Kind != phantomrules.KindSetup {
						if n++; n == 5 {
							once.Do(func() { go func() { h.Close(); close(gone) }() })
						}
					}
					return nil
				})
				return bot.NewRandom(12)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trackGoroutines(t)
			a := newArena(t, true, nil)
			a.honestGame(t, 11)
			baseline := goroutines(t)
			evilHost := newHost(t)
			connect(t, evilHost, a.vhost)
			ec := session.Config{Host: evilHost, Dir: t.TempDir()}
			hostileTimeouts(&ec)
			gone := make(chan struct{})
			player := tt.vanish(evilHost, gone, &ec)
			evil, err := session.NewService(ec)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(30*time.Second))
			defer cancel()
			g, err := evil.Invite(ctx, a.vhost.ID(), tt.o)
			if err != nil {
				t.Fatal(err)
			}
			go bot.Run(ctx, g, player)
			select {
			case <-gone:
			case <-ctx.Done():
				t.Fatal("the vanishing peer never vanished")
			}
			evil.Close()
			a.honestGame(t, 13)
			vg := a.victim.Game(g.ID())
			if vg == nil {
				t.Fatal("the victim has no game with the vanished peer")
			}
			if out := vg.Outcome(); out != nil {
				t.Errorf("the game with the vanished peer ended: %+v, want it adjourned", out)
			}
			tr, err := session.LoadTranscript(vg.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			if rep := protocol.Verify(tr); rep.Violation != nil || rep.Messages != len(tr.Messages) {
				t.Errorf("Verify on the adjourned record: %+v", rep)
			}
			t.Logf("adjourned after %d messages", len(tr.Messages))
			ids, err := a.victim.Unfinished()
			if err != nil || len(ids) != 1 || ids[0] != g.ID() {
				t.Errorf("Unfinished = %v, %v; want the adjourned game", ids, err)
			}
			vg.Close()
			waitGoroutines(t, baseline, 0)
		})
	}
}

// vanisher plays with p, and after a number of moves closes its host in
// the middle of the game.
type vanisher struct {
	p     bot.Player
	after int
	h     host.Host
	moves int
	gone  chan struct{}
	once  sync.Once
}

func (v *vanisher) Choose(view protocol.View) protocol.Action {
	if v.moves >= v.after {
		v.once.Do(func() { v.h.Close(); close(v.gone) })
		return nil
	}
	v.moves++
	return v.p.Choose(view)
}

// TestT10InvitationReusesGameID: an invitation that reuses the ID of a
// game the victim has on disk (an adjourned game, not loaded) is
// declined, and the record of that game is left as it was.
func TestT10InvitationReusesGameID(t *testing.T) {
	a := newArena(t, true, nil)
	evil := newRawPeer(t, a.vhost)
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("first invitation: %s %v", kind, err)
	}
	st.Reset()
	ids := recordIDs(t, a)
	if len(ids) != 1 {
		t.Fatalf("%d records, want 1", len(ids))
	}
	id := ids[0]
	// The victim restarts: its game is on disk, not in memory.
	g := a.victim.Game(id)
	a.victim.Close()
	if g != nil {
		g.Wait(a.ctx)
	}
	path := filepath.Join(a.vdir, id.String()+".record.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vc := session.Config{Host: a.vhost, Dir: a.vdir, Logger: testLogger(t, 1)}
	hostileTimeouts(&vc)
	restarted, err := session.NewService(vc)
	if err != nil {
		t.Fatal(err)
	}
	defer restarted.Close()
	st, err = evil.open(a.ctx, a.vhost.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Reset()
	protocol.WriteFrame(st, session.HelloFrame(id))
	// Another invitation (other options) under the same ID.
	protocol.WriteFrame(st, session.FrameOf(evil.invitationOf(t, a.vhost.ID(), id, engine.Options{Variant: engine.VariantGo, Size: 7})))
	kind, reason, err := readAnswer(st, 5*time.Second)
	if err == nil && (kind != protocol.KindDecline || !strings.Contains(reason, "ID")) {
		t.Errorf("answer %s %q, want a decline naming the game ID", kind, reason)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the invitation overwrote the record of game %s", id)
	}
}

// TestT10HelloFlood: a peer in a game sends hello after hello, each
// claiming it has none of the victim's messages. The victim resends what
// is missing once per stream, not once per hello: a few bytes must not
// buy a copy of the whole game.
func TestT10HelloFlood(t *testing.T) {
	parallelUnlessRace(t)
	a := newArena(t, true, func(c *session.Config) { c.AutoGrace = time.Minute })
	evil := newRawPeer(t, a.vhost)
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	defer st.Reset()
	var gameID protocol.GameID
	for _, id := range recordIDs(t, a) {
		gameID = id
	}
	hello, _ := json.Marshal(map[string]any{"hello": map[string]any{"game": gameID, "have": []int{1, 0}}})
	const hellos = 200
	var flood bytes.Buffer
	for range hellos {
		protocol.WriteFrame(&flood, hello)
	}
	if _, err := st.Write(flood.Bytes()); err != nil {
		t.Fatal(err)
	}
	st.SetReadDeadline(time.Now().Add(1500 * time.Millisecond))
	r := bufio.NewReader(st)
	copies := 0
	for {
		raw, err := protocol.ReadFrame(r, protocol.MaxFrameSize)
		if err != nil {
			break
		}
		if m := session.DecodeFrameMessage(raw); m != nil && m.Kind == protocol.KindAccept {
			copies++
		}
	}
	t.Logf("%d hellos on one stream: the acceptance was sent again %d times", hellos, copies)
	if copies > 1 {
		t.Errorf("%d copies of the acceptance for %d hellos, want at most 1", copies, hellos)
	}
	a.honestGame(t, 14)
}

// TestT10ChatFlood: a peer in a game sends chat line after chat line (the
// one message allowed at any time). The victim keeps MaxChatLines of them
// and takes the next as a violation (T-10) that ends the game: a peer
// cannot grow another's record without end.
func TestT10ChatFlood(t *testing.T) {
	a := newArena(t, true, func(c *session.Config) { c.AutoGrace = time.Minute })
	evil := newRawPeer(t, a.vhost)
	id, _ := protocol.NewGameID()
	st, err := evil.open(a.ctx, a.vhost.ID())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Reset()
	invite := evil.invitation(t, a.vhost.ID(), id)
	_, accept := invitedOn(t, st, id, invite)
	lines := protocol.MaxChatLines + 50
	var flood bytes.Buffer
	prev := invite.Hash()
	for i := range lines {
		m := protocol.Message{Game: id, From: protocol.Inviter, Seq: uint64(i + 1), Prev: prev, Ack: 0, AckHash: accept.Hash(),
			Kind: protocol.KindChat, Body: session.MustEncodeBody(protocol.ChatBody{Text: strings.Repeat("spam ", 100)})}
		if err := m.Sign(evil.key); err != nil {
			t.Fatal(err)
		}
		prev = m.Hash()
		protocol.WriteFrame(&flood, session.FrameOf(&m))
	}
	go st.Write(flood.Bytes())
	a.honestGame(t, 15)
	g := a.victim.Game(id)
	if g == nil {
		t.Fatal("the victim has no game with the flooder")
	}
	if err := g.Wait(a.ctx); err != nil {
		t.Fatal(err)
	}
	out := g.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-10" || out.Violation.Accused != protocol.Inviter {
		t.Fatalf("outcome %+v, want a T-10 violation of the flooder", out)
	}
	tr, err := session.LoadTranscript(g.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	chats := 0
	for _, m := range tr.Messages {
		if m.Kind == protocol.KindChat {
			chats++
		}
	}
	if chats != protocol.MaxChatLines {
		t.Errorf("the record keeps %d chat lines, want %d", chats, protocol.MaxChatLines)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-10" {
		t.Errorf("Verify: %+v", rep.Violation)
	}
}

// TestT10MaxGames: invitations from many peers (each within its own
// share) stop being accepted once MaxGames games run on the node.
func TestT10MaxGames(t *testing.T) {
	a := newArena(t, true, func(c *session.Config) { c.MaxGames, c.AutoGrace = 3, time.Minute })
	accepted, declined := 0, 0
	for range 3 {
		evil := newRawPeer(t, a.vhost)
		for range 2 {
			st, kind, reason, err := evil.invite(t, a.ctx, a.vhost.ID())
			if err != nil {
				t.Fatal(err)
			}
			defer st.Reset()
			switch kind {
			case protocol.KindAccept:
				accepted++
				go keepAlive(st)
			case protocol.KindDecline:
				declined++
				if !strings.Contains(reason, "too many games") {
					t.Errorf("decline reason %q", reason)
				}
			}
		}
	}
	if accepted != 3 || declined != 3 || a.victim.RunningGames() != 3 {
		t.Errorf("%d accepted, %d declined, %d running; want 3, 3, 3 (MaxGames)", accepted, declined, a.victim.RunningGames())
	}
}

// TestT11PeerAcceptsThenFallsSilent: a peer accepts the victim's
// invitation and then says nothing but keep-alives. The victim's Invite
// returns, its coin toss commitment goes, and the silent peer forfeits
// after AutoGrace (T-11); the victim's record proves it.
func TestT11PeerAcceptsThenFallsSilent(t *testing.T) {
	parallelUnlessRace(t)
	a := newArena(t, true, nil)
	evil := newRawPeer(t, a.vhost)
	evil.h.SetStreamHandler(protocol.GameProtocol, func(st network.Stream) {
		r := bufio.NewReader(st)
		invite, err := readMessage(r, st, 5*time.Second)
		if err != nil || invite.Kind != protocol.KindInvite {
			st.Reset()
			return
		}
		accept := protocol.Message{Game: invite.Game, From: protocol.Invitee, Ack: 0, AckHash: invite.Hash(),
			Kind: protocol.KindAccept, Body: session.MustEncodeBody(struct{}{})}
		if err := accept.Sign(evil.key); err != nil {
			t.Error(err)
		}
		hello, _ := json.Marshal(map[string]any{"hello": map[string]any{"game": invite.Game, "have": []int{1, 0}}})
		protocol.WriteFrame(st, hello)
		protocol.WriteFrame(st, session.FrameOf(&accept))
		go io.Copy(io.Discard, st)
		keepAlive(st)
	})
	ctx, cancel := context.WithTimeout(a.ctx, testenv.Duration(20*time.Second))
	defer cancel()
	g, err := a.victim.Invite(ctx, evil.h.ID(), engine.Options{Variant: engine.VariantGo, Size: 5})
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	a.honestGame(t, 16)
	if err := g.Wait(ctx); err != nil {
		t.Fatalf("the game with the silent peer did not end: %v", err)
	}
	out := g.Outcome()
	if out == nil || out.Violation == nil || out.Violation.Rule != "T-11" || out.Violation.Accused != protocol.Invitee {
		t.Fatalf("outcome %+v, want a T-11 forfeit of the silent invitee", out)
	}
	tr, err := session.LoadTranscript(g.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Rule != "T-11" || rep.Violation.Accused != protocol.Invitee {
		t.Errorf("Verify on the record: %+v", rep.Violation)
	}
}

// TestT10AttachmentInAGameWithout: a peer sends an attachment (a bulk
// frame, as the Phantom Go computation does) in a game of plain Go. The
// victim takes it as a violation (T-10) at once, from the frame's header,
// instead of reading and holding it.
func TestT10AttachmentInAGameWithout(t *testing.T) {
	a := newArena(t, true, func(c *session.Config) { c.AutoGrace = time.Minute })
	evil := newRawPeer(t, a.vhost)
	st, kind, _, err := evil.invite(t, a.ctx, a.vhost.ID())
	if err != nil || kind != protocol.KindAccept {
		t.Fatalf("invitation: %s %v", kind, err)
	}
	defer st.Reset()
	ids := recordIDs(t, a)
	if len(ids) != 1 {
		t.Fatalf("%d records", len(ids))
	}
	// The victim refuses the attachment from its header (LIM-D8), before
	// its body is read: the write may meet the reset.
	if err := protocol.WriteFrame(st, append([]byte{'B'}, bytes.Repeat([]byte{0xa5}, 200<<10)...)); err != nil {
		t.Logf("writing the attachment: %v", err)
	}
	// It is dropped with the stream (T-10): no report (nobody signed it),
	// the game unchanged and adjourned until the other program comes
	// back on a new stream.
	g := a.victim.Game(ids[0])
	deadline := testenv.Deadline(10 * time.Second)
	for !g.View().Adjourned {
		if time.Now().After(deadline) {
			t.Fatalf("the victim's game never dropped the stream of the attachment: %+v", g.View())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if out := g.Outcome(); out != nil {
		t.Errorf("outcome %+v after an attachment, want the game unchanged", out)
	}
	for _, m := range g.Transcript().Messages {
		if m.Kind == protocol.KindViolation {
			t.Errorf("the victim reported %s: an attachment proves nothing", m.Body)
		}
	}
}
