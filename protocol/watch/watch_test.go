package watch_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/leakcheck"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// recorder is a player's publisher as the tests see it: every
// publication goes through tamper (nil: none; a cheating publisher's
// changes) and is kept, in order, before the hub takes it.
type recorder struct {
	hub    *watch.Hub
	tamper func(p session.Publication, publish func(session.Publication))
	mu     sync.Mutex
	pubs   []session.Publication
}

func (r *recorder) Publish(p session.Publication) {
	publish := func(p session.Publication) {
		r.mu.Lock()
		r.pubs = append(r.pubs, p)
		r.mu.Unlock()
		r.hub.Publish(p)
	}
	if r.tamper != nil {
		r.tamper(p, publish)
		return
	}
	publish(p)
}

func (r *recorder) published() []session.Publication {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.pubs)
}

// player is one player's program: its host, hub, service and home.
type player struct {
	h   host.Host
	hub *watch.Hub
	svc *session.Service
	dir string
	rec *recorder
}

func newHub(t testing.TB, h host.Host) *watch.Hub {
	t.Helper()
	hub, err := watch.New(h, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	return hub
}

func newPlayer(t *testing.T, tamper func(session.Publication, func(session.Publication))) *player {
	t.Helper()
	return newDelayedPlayer(t, tamper, protocol.BroadcastDelay{})
}

// newDelayedPlayer is newPlayer whose program proposes (and asks for at
// least) the broadcast delay d (SPEC-D12).
func newDelayedPlayer(t *testing.T, tamper func(session.Publication, func(session.Publication)), d protocol.BroadcastDelay) *player {
	t.Helper()
	p := &player{h: testnet.Host(t), dir: t.TempDir()}
	p.hub = newHub(t, p.h)
	p.rec = &recorder{hub: p.hub, tamper: tamper}
	p.svc = testnet.ServiceOn(t, p.h, func(c *session.Config) { c.Dir, c.Publisher, c.BroadcastDelay = p.dir, p.rec, d })
	return p
}

func connect(t *testing.T, ctx context.Context, a, b host.Host) {
	t.Helper()
	if err := a.Connect(ctx, peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
}

// spectator is a third node watching one player's games.
type spectator struct {
	h         host.Host
	hub       *watch.Hub
	publisher *player
	w         *watch.Watch
	mu        sync.Mutex
	lines     []watch.Line
	done      chan struct{}
}

func (s *spectator) shown() []watch.Line {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.lines)
}

// watchedGame is a game between two players with three spectators,
// two of the inviter and one of the invitee (SPEC-3).
type watchedGame struct {
	a, b       *player
	spectators []*spectator
	outcomes   [2]*protocol.Outcome
	// bots play the game, once it is started.
	bots atomic.Pointer[testnet.BotGame]
}

// game returns role r's game, or nil before it exists.
func (g *watchedGame) game(r protocol.Role) *session.Game {
	if b := g.bots.Load(); b != nil {
		return b.Game(r)
	}
	return nil
}

// watchSetup is what a test changes of playWatched's game: the inviter's
// cheating publisher (tamperA), what runs once the spectators are
// subscribed (before), the broadcast delay both programs ask for
// (SPEC-D10), and what is done with each line a spectator shows, as it
// comes (onLine).
type watchSetup struct {
	tamperA func(session.Publication, func(session.Publication))
	before  func(*watchedGame)
	delay   protocol.BroadcastDelay
	onLine  func(g *watchedGame, s *spectator, l watch.Line)
}

// playWatched plays a game of o between two built-in bots, watched by
// three spectators who subscribed before it started, and waits until
// each spectator checked the record.
// before, if not nil, runs once the spectators are subscribed.
func playWatched(t *testing.T, o engine.Options, tamperA func(session.Publication, func(session.Publication)), before func(*watchedGame)) *watchedGame {
	t.Helper()
	return playWatchedWith(t, o, watchSetup{tamperA: tamperA, before: before})
}

// playWatchedWith is playWatched with the changes of setup.
func playWatchedWith(t *testing.T, o engine.Options, setup watchSetup) *watchedGame {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(120*time.Second))
	t.Cleanup(cancel)
	before := setup.before
	g := &watchedGame{a: newDelayedPlayer(t, setup.tamperA, setup.delay), b: newDelayedPlayer(t, nil, setup.delay)}
	connect(t, ctx, g.a.h, g.b.h)
	for i := range 3 {
		s := &spectator{h: testnet.Host(t), publisher: g.a, done: make(chan struct{})}
		if i == 2 {
			s.publisher = g.b
		}
		s.hub = newHub(t, s.h)
		connect(t, ctx, s.h, g.a.h)
		connect(t, ctx, s.h, g.b.h)
		for _, other := range g.spectators {
			connect(t, ctx, s.h, other.h)
		}
		w, err := s.hub.Watch(ctx, s.publisher.h.ID(), protocol.GameID{})
		if err != nil {
			t.Fatal(err)
		}
		s.w = w
		go func() {
			defer close(s.done)
			for l := range w.Lines() {
				s.mu.Lock()
				s.lines = append(s.lines, l)
				s.mu.Unlock()
				if setup.onLine != nil {
					setup.onLine(g, s, l)
				}
			}
		}()
		g.spectators = append(g.spectators, s)
	}
	// The game starts once each publisher's topic reaches its
	// spectators: GossipSub keeps no history (SPEC-D5).
	for _, s := range g.spectators {
		for !slices.Contains(s.publisher.hub.Subscribers(s.publisher.h.ID()), s.h.ID()) {
			if ctx.Err() != nil {
				t.Fatalf("the topic of %s never reached spectator %s", s.publisher.h.ID(), s.h.ID())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if before != nil {
		before(g)
	}
	level := bot.Level{Playouts: 60}
	bots := testnet.StartBotGame(ctx, g.a.svc, g.b.svc, g.b.h.ID(), o, [2]bot.Player{bot.New(level, 1), bot.New(level, 2)})
	g.bots.Store(bots)
	g.outcomes = bots.Wait(t)
	if g.outcomes[0] == nil || g.outcomes[1] == nil || g.outcomes[0].Result != g.outcomes[1].Result {
		t.Fatalf("outcomes %v and %v", g.outcomes[0], g.outcomes[1])
	}
	for i, s := range g.spectators {
		select {
		case <-s.done:
		case <-ctx.Done():
			t.Fatalf("spectator %d never checked the record; it showed:\n%s", i, linesText(s.shown()))
		}
	}
	return g
}

func linesText(lines []watch.Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.String() + "\n")
	}
	return b.String()
}

// readSole reads the one file of dir that matches pattern.
func readSole(t *testing.T, dir, pattern string) []byte {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(paths) != 1 {
		t.Fatalf("%d files %s in %s", len(paths), pattern, dir)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func record(t *testing.T, p *player) *protocol.Transcript {
	t.Helper()
	tr, err := protocol.ParseTranscript(readSole(t, p.dir, "*.record.json"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// publicPart is SPEC-1's public part of a record: each message, whole
// or as its header.
func publicPart(v engine.Variant, tr *protocol.Transcript) []watch.Item {
	var items []watch.Item
	for i := range tr.Messages {
		m := &tr.Messages[i]
		items = append(items, watch.Item{Pos: uint64(i), From: m.From, Seq: m.Seq, Kind: m.Kind, Hash: m.Hash(),
			Whole: session.PublicKind(v, m.Kind)})
	}
	return items
}

// ofRole keeps role r's items, without their positions.
func ofRole(items []watch.Item, r protocol.Role) []watch.Item {
	var out []watch.Item
	for _, it := range items {
		if it.From == r {
			it.Pos = 0
			out = append(out, it)
		}
	}
	return out
}

// checkViews checks that every spectator's view is the public part of
// both records (SPEC-3, SPEC-4): the messages its publisher's record
// holds in its order, each role's as the other record holds them, the
// announcements the audit gives, and `kakure verify`'s verdict shown.
func checkViews(t *testing.T, g *watchedGame, o engine.Options, honest bool) {
	t.Helper()
	recs := map[*player]*protocol.Transcript{g.a: record(t, g.a), g.b: record(t, g.b)}
	for i, s := range g.spectators {
		var items []watch.Item
		var announced map[uint64]string
		var done, ok bool
		s.w.Spectator(func(sp *watch.Spectator) {
			items, announced = sp.Items(), sp.Announcements()
			done, ok = sp.Done()
		})
		lines := s.shown()
		if !done || !ok {
			t.Errorf("spectator %d: done %v, ok %v; it showed:\n%s", i, done, ok, linesText(lines))
		}
		own := recs[s.publisher]
		for _, it := range items {
			if it.Whole != wantWhole(o.Variant, it.Kind) {
				t.Errorf("spectator %d took the %s's message %d (%s) whole: %v", i, it.From, it.Seq, it.Kind, it.Whole)
			}
		}
		if want := publicPart(o.Variant, own); !slices.Equal(items, want) {
			t.Errorf("spectator %d took %d messages, not the %d of its publisher's record's public part:\n%s", i, len(items), len(want), linesText(lines))
		}
		for r, tr := range recs {
			for _, role := range []protocol.Role{protocol.Inviter, protocol.Invitee} {
				if !slices.Equal(ofRole(items, role), ofRole(publicPart(o.Variant, tr), role)) {
					t.Errorf("spectator %d: the %s's messages are not those of the record of %s", i, role, r.h.ID())
				}
			}
		}
		verdict := false
		for _, l := range lines {
			if l.Status == watch.Refused && honest {
				t.Errorf("spectator %d refused a publication of an honest game: %s", i, l)
			}
			verdict = verdict || (l.Status == watch.Verdict && strings.HasPrefix(l.Text, "ok: result"))
		}
		if !verdict {
			t.Errorf("spectator %d did not show verify's verdict:\n%s", i, linesText(lines))
		}
		if o.Variant != engine.VariantPhantom {
			if len(announced) > 0 {
				t.Errorf("spectator %d took %d announcements in %s", i, len(announced), o.Variant)
			}
			continue
		}
		want, err := session.PublicAnnouncements(own)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || len(announced) != len(want) {
			t.Errorf("spectator %d took %d announcements of %d tries", i, len(announced), len(want))
		}
		for _, a := range want {
			if announced[a.Try] != a.Text {
				t.Errorf("spectator %d: try %d announced %q, the audit gives %q", i, a.Try, announced[a.Try], a.Text)
			}
		}
	}
}

// TestSPEC1PublicViewEqualsRecords plays a game of every variant (Phantom
// Go under the common rules; under the three rule sets in the full tier;
// none under -race) between two players with three spectators on real
// libp2p nodes on loopback: each spectator's view is the public part of
// both records, every message whole that SPEC-1 makes public, the rest
// as headers, Phantom Go's announcements those of the audit, and it
// shows `kakure verify`'s verdict (SPEC-1, SPEC-3, SPEC-4; SPEC-D1's
// messages, headers and announcements, SPEC-D6's record in parts). No
// hidden value reaches a publication before the rules make it public
// (SPEC-2, T-5).
func TestSPEC1PublicViewEqualsRecords(t *testing.T) {
	games := []engine.Options{
		{Variant: engine.VariantGo, Size: 5},
		{Variant: engine.VariantHMG, Size: 5, Cards: 2},
		{Variant: engine.VariantGomoku, Size: 7},
		{Variant: engine.VariantFGo, Size: 5},
		{Variant: engine.VariantBridge, Size: 5},
	}
	phantomRules := []engine.PhantomRules{engine.RulesCommon}
	if testenv.Full() {
		phantomRules = append(phantomRules, engine.RulesHamburg, engine.RulesKriegspiel)
	}
	if !testenv.Race {
		// Under the race detector the secure computation is ten to
		// fifty times slower: no Phantom Go.
		for _, r := range phantomRules {
			games = append(games, engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: r, Komi: 7.5, KomiSet: true})
		}
	}
	for _, o := range games {
		name := string(o.Variant)
		if o.Variant == engine.VariantPhantom {
			name += "-" + string(o.Rules)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g := playWatched(t, o, nil, nil)
			checkViews(t, g, o, true)
			checkNoLeak(t, g, o)
			if o.Variant == engine.VariantPhantom {
				checkPhantomLies(t, g)
			}
		})
	}
}

// checkNoLeak scans every byte both players published before the
// record for the hidden values of both (SPEC-2, as T-5's leak tests
// scan the records): a value counts as public once a message published
// whole opened it (in Phantom Go only the record opens anything), and
// a Phantom Go announcement never names the point tried.
func checkNoLeak(t *testing.T, g *watchedGame, o engine.Options) {
	t.Helper()
	phantomGame := o.Variant == engine.VariantPhantom
	checked := 0
	for _, owner := range []*player{g.a, g.b} {
		_, vals, err := leakcheck.Values(readSole(t, owner.dir, "*.secrets.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, publisher := range []*player{g.a, g.b} {
			pubs := publisher.rec.published()
			for _, v := range vals {
				for k, p := range pubs {
					if p.Record != nil {
						break
					}
					if p.Message != nil && v.OpensAt([]protocol.Message{*p.Message}) == 0 {
						break
					}
					data, err := session.MarshalPublication(p)
					if err != nil {
						t.Fatal(err)
					}
					checked++
					if where := mentions(p, data, v); where != "" {
						t.Errorf("publication %d of %s: %s holds %s, hidden by the %s", k, publisher.h.ID(), where, v.Text, v.Owner)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no value checked against any publication")
	}
	t.Logf("%d (value, publication) pairs checked", checked)
	if phantomGame {
		for _, publisher := range []*player{g.a, g.b} {
			for k, p := range publisher.rec.published() {
				if p.Message != nil && !spectatorPublicPhantom[p.Message.Kind] {
					t.Errorf("publication %d of %s: a %s message whole in Phantom Go", k, publisher.h.ID(), p.Message.Kind)
				}
			}
		}
	}
}

// wantWhole is SPEC-1 as this test reads it, written out here so that
// the test does not take it from the code it checks: in Phantom Go the
// kinds of spectatorPublicPhantom are published whole, in the other
// hidden variants all but violation reports, in plain Go and Bridge Go
// every kind.
func wantWhole(v engine.Variant, k protocol.Kind) bool {
	switch v {
	case engine.VariantPhantom:
		return spectatorPublicPhantom[k]
	case engine.VariantGo, engine.VariantBridge:
		return true
	}
	return k != "violation"
}

// spectatorPublicPhantom are SPEC-1's kinds of Phantom Go published
// whole, written out here so that the test does not take them from the
// code it checks.
var spectatorPublicPhantom = map[protocol.Kind]bool{
	"invite": true, "accept": true, "decline": true, "toss-commit": true, "toss-reveal": true,
	"resign": true, "chat": true, "result": true, "timeout": true, "timeout-refuse": true,
	"adjourn-request": true, "adjourn-accept": true, "abandon": true, "mark": true, "agree": true,
	"undo-request": true, "undo-accept": true, "undo-decline": true,
}

// mentions returns where publication p (its bytes data) holds the
// hidden value v, or "".
func mentions(p session.Publication, data []byte, v leakcheck.Value) string {
	if v.Salt != "" && strings.Contains(string(data), v.Salt) {
		return "the salt"
	}
	if !v.Vertex {
		if v.In(string(data)) {
			return "the bytes"
		}
		return ""
	}
	switch {
	case p.Announcement != nil:
		// The captured points are public under common rules; the point
		// tried is never.
		text := p.Announcement.Text
		if i := strings.Index(text, "has captured "); i >= 0 {
			end := strings.Index(text[i:], ";")
			if end < 0 {
				end = len(text) - i
			}
			text = text[:i] + text[i+end:]
		}
		if leakcheck.ContainsWord(text, v.Text) {
			return "the announcement"
		}
	case p.Message != nil:
		if key := v.InBody(p.Message.Body); key != "" {
			return "the body's " + key
		}
	}
	return ""
}

// TestSPEC3ForgedPublicationsRefused: a cheating publisher adds to its
// honest publications an altered message, a message published before
// its turn, a message of another game, and a header that withholds a
// public message; a third node publishes on the publisher's topic. Each
// spectator of that publisher refuses each one and names it; the game
// and the spectators' views of it are unaffected (SPEC-3; the third
// node on the publisher's own topic is SPEC-D2's author check).
func TestSPEC3ForgedPublicationsRefused(t *testing.T) {
	o := engine.Options{Variant: engine.VariantGo, Size: 5}
	other, err := protocol.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	forged := map[string]bool{}
	var heldPos uint64
	var held *session.Publication
	tamper := func(p session.Publication, publish func(session.Publication)) {
		mu.Lock()
		defer mu.Unlock()
		m := p.Message
		switch {
		case m != nil && m.Kind == protocol.KindMove && p.Pos >= 6 && !forged["altered"]:
			forged["altered"] = true
			f := p
			c := *m
			c.Body = json.RawMessage(strings.Replace(string(c.Body), `"`, `"x`, 1))
			f.Message = &c
			publish(f)
		case m != nil && m.Kind == protocol.KindMove && p.Pos >= 10 && !forged["early"] && held == nil:
			// Hold this one back; publish the next one in its place
			// first.
			heldPos, held = p.Pos, &p
			return
		case held != nil && p.Pos == heldPos+1 && m != nil:
			forged["early"] = true
			f := p
			f.Pos = heldPos
			publish(f)
			publish(*held)
			held = nil
		case m != nil && m.Kind == protocol.KindMove && p.Pos >= 14 && !forged["foreign"]:
			forged["foreign"] = true
			f := p
			c := *m
			c.Game = other
			f.Message = &c
			publish(f)
		case m != nil && m.Kind == protocol.KindMove && p.Pos >= 16 && !forged["withheld"]:
			forged["withheld"] = true
			w := session.Withhold(m)
			publish(session.Publication{Game: p.Game, Pos: p.Pos, Withheld: &w})
		}
		publish(p)
	}
	// A third node publishes on the inviter's topic before the game;
	// GossipSub signs it with the third node's key.
	thirdParty := func(g *watchedGame) {
		forger := g.spectators[2]
		for _, s := range g.spectators[:2] {
			for !slices.Contains(forger.hub.Subscribers(g.a.h.ID()), s.h.ID()) {
				time.Sleep(20 * time.Millisecond)
			}
		}
		data, err := session.MarshalPublication(session.Publication{Announcement: &session.PublicAnnouncement{Text: "Black has moved"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := forger.hub.PublishRaw(context.Background(), g.a.h.ID(), data); err != nil {
			t.Fatal(err)
		}
	}
	g := playWatched(t, o, tamper, thirdParty)
	mu.Lock()
	for _, f := range []string{"altered", "early", "foreign", "withheld"} {
		if !forged[f] {
			t.Fatalf("the game was too short to publish the %s message", f)
		}
	}
	mu.Unlock()
	want := map[string]string{
		"altered":     "bad signature",
		"early":       fmt.Sprintf("position %d", heldPos),
		"foreign":     "another game",
		"withheld":    "withheld, which SPEC-1 publishes whole",
		"third-party": "not by the publisher " + g.a.h.ID().String(),
	}
	for i, s := range g.spectators[:2] {
		lines := s.shown()
		for name, words := range want {
			found := false
			for _, l := range lines {
				found = found || (l.Status == watch.Refused && strings.Contains(l.Text, words))
			}
			if !found {
				t.Errorf("spectator %d did not refuse the %s publication (%q); it showed:\n%s", i, name, words, linesText(lines))
			}
		}
	}
	checkViews(t, g, o, false)
}

// TestSPEC6RefusedSpectatorsSeeNothing: a player whose program has no
// publisher (spectators refused) publishes nothing of its game, while
// its opponent's spectators watch the same game to its end (SPEC-6,
// SPEC-D4: the refusal is the player's own, the invitation unchanged).
func TestSPEC6RefusedSpectatorsSeeNothing(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(60*time.Second))
	defer cancel()
	refusing := &player{h: testnet.Host(t), dir: t.TempDir()}
	refusing.hub = newHub(t, refusing.h)
	refusing.svc = testnet.ServiceOn(t, refusing.h, func(c *session.Config) { c.Dir = refusing.dir })
	allowing := newPlayer(t, nil)
	connect(t, ctx, refusing.h, allowing.h)
	var watches [2]*watch.Watch
	for i, p := range []*player{refusing, allowing} {
		h := testnet.Host(t)
		hub := newHub(t, h)
		connect(t, ctx, h, refusing.h)
		connect(t, ctx, h, allowing.h)
		w, err := hub.Watch(ctx, p.h.ID(), protocol.GameID{})
		if err != nil {
			t.Fatal(err)
		}
		watches[i] = w
		for !slices.Contains(p.hub.Subscribers(p.h.ID()), h.ID()) {
			if ctx.Err() != nil {
				t.Fatal("the topic never reached its spectator")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	testnet.StartBotGame(ctx, refusing.svc, allowing.svc, allowing.h.ID(), engine.Options{Variant: engine.VariantGo, Size: 5},
		[2]bot.Player{bot.New(bot.Level{Playouts: 60}, 1), bot.New(bot.Level{Playouts: 60}, 2)}).Wait(t)
	// The allowing player's spectator sees the game to its record; by
	// then the refusing player's would have seen its publications.
	var shown []watch.Line
	for l := range watches[1].Lines() {
		shown = append(shown, l)
	}
	if len(shown) == 0 || shown[len(shown)-1].Status != watch.Verdict {
		t.Fatalf("the allowing player's spectator showed:\n%s", linesText(shown))
	}
	watches[0].Spectator(func(s *watch.Spectator) {
		if items := s.Items(); len(items) > 0 || s.Game() != (protocol.GameID{}) {
			t.Errorf("the refusing player published %d messages of game %s", len(items), s.Game())
		}
	})
	select {
	case l, ok := <-watches[0].Lines():
		if ok {
			t.Errorf("the refusing player's spectator showed %s", l)
		}
	default:
	}
}
