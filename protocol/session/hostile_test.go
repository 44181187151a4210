package session_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

// framed returns a frame with its length prefix.
func framed(p []byte) []byte {
	var b bytes.Buffer
	protocol.WriteFrame(&b, p)
	return b.Bytes()
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
