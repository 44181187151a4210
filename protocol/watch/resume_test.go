package watch_test

import (
	"context"
	"crypto/rand"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// keyedHost starts a host on loopback with the identity priv: the same
// peer, and so the same topic (SPEC-D2), after a restart.
func keyedHost(t *testing.T, priv crypto.PrivKey) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.Identity(priv), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestSPECD32SpectatorSeesTheGameResume: the inviter's program stops in
// the middle of a game (its host, hub and service closed, its last
// publications lost as its queue would be) and starts again with the same identity and
// games directory, a new hub with no history, and resumes the game to
// its end. A spectator of the inviter (connected to it only, as `kakure
// watch`, which connects again to the restarted program) sees the game
// go on after the resume: it refuses nothing, takes each message of the
// record's public part once (no duplicate, none missing), shows each
// once, and ends with the record checked and `kakure verify`'s verdict
// ok (SPEC-D32: the resumed program republishes its record so far; the
// copies are dropped, SPEC-D3). Plain Go and Phantom Go (not under
// -race), 5×5.
func TestSPECD32SpectatorSeesTheGameResume(t *testing.T) {
	games := []engine.Options{{Variant: engine.VariantGo, Size: 5}}
	if !testenv.Race {
		games = append(games, engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Komi: 7.5, KomiSet: true})
	}
	for _, o := range games {
		t.Run(string(o.Variant), func(t *testing.T) {
			t.Parallel()
			spectatorSeesResume(t, o)
		})
	}
}

func spectatorSeesResume(t *testing.T, o engine.Options) {
	ctx := testenv.Context(t, 120*time.Second)
	priv, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// lost counts what the stopping program published that never left
	// it (its queue at the stop), once losing is set.
	var losing atomic.Bool
	var lost atomic.Int32
	lose := func(p session.Publication, publish func(session.Publication)) {
		if losing.Load() {
			lost.Add(1)
			return
		}
		publish(p)
	}
	start := func() *player {
		p := &player{h: keyedHost(t, priv), dir: dir}
		p.hub = newHub(t, p.h)
		p.rec = &recorder{hub: p.hub, tamper: lose}
		p.svc = testnet.ServiceOn(t, p.h, func(c *session.Config) { c.Dir, c.Publisher = p.dir, p.rec })
		return p
	}
	a, b := start(), newPlayer(t, nil)
	connect(t, ctx, a.h, b.h)
	sh := testnet.Host(t)
	shub := newHub(t, sh)
	reach := func(a *player) {
		t.Helper()
		connect(t, ctx, sh, a.h)
		for !slices.Contains(a.hub.Subscribers(a.h.ID()), sh.ID()) {
			if ctx.Err() != nil {
				t.Fatal("the publisher's topic never reached the spectator")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	connect(t, ctx, sh, a.h)
	w, err := shub.Watch(ctx, a.h.ID(), protocol.GameID{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var shown []watch.Line
	done := make(chan struct{})
	go func() {
		defer close(done)
		for l := range w.Lines() {
			mu.Lock()
			shown = append(shown, l)
			mu.Unlock()
		}
	}()
	lines := func() []watch.Line {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(shown)
	}
	reach(a)
	level := bot.Level{Playouts: 60}
	invitee := make(chan *protocol.Outcome, 1)
	go func() {
		select {
		case g := <-b.svc.Accepted():
			out, err := bot.Run(ctx, g, bot.New(level, 2))
			if err != nil {
				t.Errorf("invitee: %v", err)
			}
			invitee <- out
		case <-ctx.Done():
			invitee <- nil
		}
	}()
	ga, err := a.svc.Invite(ctx, b.h.ID(), o)
	if err != nil {
		t.Fatal(err)
	}
	id := ga.ID()
	playing, stop := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		bot.Run(playing, ga, bot.New(level, 1))
	}()
	// The program stops once the spectator took a dozen messages.
	taken := 0
	for taken < 12 {
		if ctx.Err() != nil {
			t.Fatalf("the spectator took %d messages; it showed:\n%s", taken, linesText(lines()))
		}
		time.Sleep(5 * time.Millisecond)
		w.Spectator(func(s *watch.Spectator) { taken = len(s.Items()) })
	}
	// What the program publishes from now on is lost, as its queue
	// would be at the stop.
	losing.Store(true)
	for lost.Load() < 2 {
		if ctx.Err() != nil || ga.Outcome() != nil {
			t.Fatalf("%d publications lost before the game ended", lost.Load())
		}
		time.Sleep(time.Millisecond)
	}
	a.h.Close()
	stop()
	<-stopped
	a.hub.Close()
	a.svc.Close()
	if ga.Outcome() != nil {
		t.Fatal("the game ended before the program stopped")
	}
	t.Logf("stopped with %d messages taken by the spectator, %d publications lost", taken, lost.Load())
	// Started again: the same identity and games, a new hub.
	losing.Store(false)
	a = start()
	connect(t, ctx, a.h, b.h)
	reach(a)
	resumed, err := a.svc.Resume(ctx, id)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	out, err := bot.Run(ctx, resumed, bot.New(level, 3))
	if err != nil || out == nil || out.Violation != nil {
		t.Fatalf("the resumed game: outcome %+v, err %v", out, err)
	}
	if theirs := <-invitee; theirs == nil || theirs.Result != out.Result {
		t.Fatalf("outcomes %+v and %+v", out, theirs)
	}
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("the spectator never checked the record; it showed:\n%s", linesText(lines()))
	}
	all := lines()
	var items []watch.Item
	var finished, ok bool
	w.Spectator(func(s *watch.Spectator) {
		items = s.Items()
		finished, ok = s.Done()
	})
	if !finished || !ok {
		t.Errorf("the spectator ended with done %v, ok %v; it showed:\n%s", finished, ok, linesText(all))
	}
	if want := publicPart(o.Variant, record(t, a)); !slices.Equal(items, want) {
		t.Errorf("the spectator took %d messages, not the %d of the record's public part:\n%s", len(items), len(want), linesText(all))
	}
	messageLines, verdict := 0, false
	for _, l := range all {
		switch {
		case l.Status == watch.Refused:
			t.Errorf("the spectator refused a publication of the resumed game: %s", l)
		case l.Status == watch.Verdict:
			verdict = verdict || strings.HasPrefix(l.Text, "ok: result")
			switch {
			case strings.Contains(l.Text, "messages of the record were not seen live"):
				t.Errorf("the spectator lacked messages at the end: %s", l)
			case strings.Contains(l.Text, "announcements of the record were not seen live"):
				// Those the stopped program published and lost are
				// not published again (SPEC-D32).
				t.Logf("%s", l.Text)
			}
		case strings.HasPrefix(l.Text, "inviter ") || strings.HasPrefix(l.Text, "invitee "):
			messageLines++
		}
	}
	if messageLines != len(items) {
		t.Errorf("the spectator showed %d message lines for %d messages:\n%s", messageLines, len(items), linesText(all))
	}
	if !verdict {
		t.Errorf("the spectator did not show verify's verdict ok:\n%s", linesText(all))
	}
}
