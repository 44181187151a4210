package watch_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/internal/testnet"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/watch"
)

// pausing is a publisher's tamper that holds the game (Publish is
// called with the game's lock held) before its publication number at,
// until release is closed: the game stands still while a test looks at
// it.
type pausing struct {
	at      int
	n       int
	mu      sync.Mutex
	reached chan struct{}
	release chan struct{}
}

func newPausing(at int) *pausing {
	return &pausing{at: at, reached: make(chan struct{}), release: make(chan struct{})}
}

func (p *pausing) tamper(pub session.Publication, publish func(session.Publication)) {
	p.mu.Lock()
	p.n++
	hold := p.n == p.at
	p.mu.Unlock()
	if hold {
		close(p.reached)
		<-p.release
	}
	publish(pub)
}

// listed asks publisher's live games from a node of its own until ok
// tells they are as wanted, and returns the last answer.
func listed(t *testing.T, ctx context.Context, hub *watch.Hub, p *player, ok func([]watch.LiveGame) bool) []watch.LiveGame {
	t.Helper()
	for {
		games, err := hub.AskLiveGames(ctx, p.h.ID())
		if err != nil {
			t.Fatalf("the live games of %s: %v", p.h.ID(), err)
		}
		if ok(games) {
			return games
		}
		if ctx.Err() != nil {
			t.Fatalf("the live games of %s stayed %+v", p.h.ID(), games)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSPECD14LiveGamesListed: a node asks a publishing player, over
// GamesProtocol between real hosts, which games it plays now. The
// answer (SPEC-D14) is the game of the signed invitation, with its
// variant and size, the players' peer IDs and display names by role,
// the moves its published headers tell, and the watch code its program
// hosts for it (SPEC-D13); once the record was published the game is no
// longer listed. A program that refuses spectators (no hub) answers
// nothing; one whose games do not publish lists nothing.
func TestSPECD14LiveGamesListed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(90*time.Second))
	defer cancel()
	pause := newPausing(12)
	a := &player{h: testnet.Host(t), dir: t.TempDir()}
	a.hub = newHub(t, a.h)
	a.rec = &recorder{hub: a.hub, tamper: pause.tamper}
	a.svc = testnet.ServiceOn(t, a.h, func(c *session.Config) { c.Dir, c.Publisher, c.Name = a.dir, a.rec, "alice" })
	b := &player{h: testnet.Host(t), dir: t.TempDir()}
	b.hub = newHub(t, b.h)
	b.rec = &recorder{hub: b.hub}
	b.svc = testnet.ServiceOn(t, b.h, func(c *session.Config) { c.Dir, c.Publisher, c.Name = b.dir, b.rec, "bob" })
	connect(t, ctx, a.h, b.h)
	lh := testnet.Host(t)
	lister := newHub(t, lh)
	connect(t, ctx, lh, a.h)
	if games := listed(t, ctx, lister, a, func([]watch.LiveGame) bool { return true }); len(games) != 0 {
		t.Fatalf("before any game, %d live games listed: %+v", len(games), games)
	}

	o := engine.Options{Variant: engine.VariantGo, Size: 7}
	g := startGame(t, ctx, a, b, o)
	select {
	case <-pause.reached:
	case <-ctx.Done():
		t.Fatal("the game never reached its 12th publication")
	}
	pubs := a.rec.published()
	game := pubs[0].Game
	moves := 0
	for _, p := range pubs {
		if p.Message != nil && p.Message.Kind == protocol.KindMove {
			moves++
		}
	}
	a.hub.SetCode(game, "maple-otter-quail")
	games := listed(t, ctx, lister, a, func(gs []watch.LiveGame) bool { return len(gs) == 1 && gs[0].Moves == moves })
	want := watch.LiveGame{Game: game, Variant: "go", Size: 7, Peers: [2]string{a.h.ID().String(), b.h.ID().String()},
		Names: [2]string{"alice", "bob"}, Moves: moves, Code: "maple-otter-quail"}
	if games[0] != want || moves == 0 {
		t.Errorf("listed %+v, want %+v (%d moves published)", games[0], want, moves)
	}
	close(pause.release)
	g.wait(t)
	recordKept(t, ctx, a)
	// The record's last part may still be on its way to the topic: the
	// listing empties once it went (listed fails the test otherwise).
	listed(t, ctx, lister, a, func(gs []watch.LiveGame) bool { return len(gs) == 0 })

	// A program that refuses spectators has no hub: it answers nothing.
	refusing := testnet.Host(t)
	connect(t, ctx, lh, refusing)
	if games, err := lister.AskLiveGames(ctx, refusing.ID()); err == nil {
		t.Errorf("a program without a hub listed %+v", games)
	}
	// One whose games do not publish (TestSPEC6RefusedSpectatorsSeeNothing's
	// refusing player) lists none of them.
	quiet := &player{h: testnet.Host(t), dir: t.TempDir()}
	quiet.hub = newHub(t, quiet.h)
	quiet.svc = testnet.ServiceOn(t, quiet.h, func(c *session.Config) { c.Dir = quiet.dir })
	connect(t, ctx, quiet.h, b.h)
	connect(t, ctx, lh, quiet.h)
	g = startGame(t, ctx, quiet, b, engine.Options{Variant: engine.VariantGo, Size: 5})
	g.wait(t)
	if games := listed(t, ctx, lister, quiet, func([]watch.LiveGame) bool { return true }); len(games) != 0 {
		t.Errorf("a program whose games do not publish listed %+v", games)
	}
	// The invitee's program drops the finished game once it published
	// its record (listed fails the test otherwise).
	connect(t, ctx, lh, b.h)
	listed(t, ctx, lister, b, func(gs []watch.LiveGame) bool {
		return !slices.ContainsFunc(gs, func(g watch.LiveGame) bool { return g.Game == game })
	})
}

// TestSPECD14ListingBounds: a hub serving GamesStreams listings at once
// resets the next stream; a spectator refuses a listing of more than
// MaxLiveGames games, and cuts a name longer than
// protocol.MaxNameLength (SPEC-D14).
func TestSPECD14ListingBounds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	ph := testnet.Host(t)
	busy := newHub(t, ph)
	lh := testnet.Host(t)
	lister := newHub(t, lh)
	if err := lh.Connect(ctx, peer.AddrInfo{ID: ph.ID(), Addrs: ph.Addrs()}); err != nil {
		t.Fatal(err)
	}
	if _, err := lister.AskLiveGames(ctx, ph.ID()); err != nil {
		t.Fatalf("an idle hub's listing: %v", err)
	}
	busy.SetGamesServing(watch.GamesStreams)
	if games, err := lister.AskLiveGames(ctx, ph.ID()); err == nil {
		t.Errorf("a hub serving %d listings answered another: %+v", watch.GamesStreams, games)
	}
	busy.SetGamesServing(watch.GamesStreams - 1)
	if _, err := lister.AskLiveGames(ctx, ph.ID()); err != nil {
		t.Errorf("a hub serving %d listings refused one more: %v", watch.GamesStreams-1, err)
	}

	// A forger answers with a listing of its own making.
	fh := testnet.Host(t)
	var answer []watch.LiveGame
	fh.SetStreamHandler(watch.GamesProtocol, func(st network.Stream) {
		defer st.Close()
		data, _ := json.Marshal(answer)
		st.Write(binary.AppendUvarint(nil, uint64(len(data))))
		st.Write(data)
	})
	if err := lh.Connect(ctx, peer.AddrInfo{ID: fh.ID(), Addrs: fh.Addrs()}); err != nil {
		t.Fatal(err)
	}
	answer = make([]watch.LiveGame, watch.MaxLiveGames+1)
	if games, err := lister.AskLiveGames(ctx, fh.ID()); err == nil {
		t.Errorf("a listing of %d games taken (%d)", watch.MaxLiveGames+1, len(games))
	}
	answer = []watch.LiveGame{{Names: [2]string{strings.Repeat("x", 500), "y"}}}
	games, err := lister.AskLiveGames(ctx, fh.ID())
	if err != nil || len(games) != 1 || len(games[0].Names[0]) != protocol.MaxNameLength || games[0].Names[1] != "y" {
		t.Errorf("a listing with a long name: %+v, %v", games, err)
	}
}
