package session_test

import (
	"bytes"
	"context"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// publications keeps what a program published, in order.
type publications struct {
	mu   sync.Mutex
	pubs []session.Publication
}

func (p *publications) Publish(pub session.Publication) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pubs = append(p.pubs, pub)
}

func (p *publications) all() []session.Publication {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]session.Publication(nil), p.pubs...)
}

// waitMyTurn waits until it is the local player's turn in g.
func waitMyTurn(t *testing.T, ctx context.Context, g *session.Game) {
	t.Helper()
	for !g.View().MyTurn {
		if ctx.Err() != nil {
			t.Fatalf("the %s's turn never came: %+v", g.Role(), g.View())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSPECD32NoPublicationBeforeTheDisk: the inviter's program stops
// (an injected crash) after its move's line reached the record file and
// before the sync, and the line is lost; resumed, it plays another move
// in its place. Its publications never hold two different messages at
// one position, each is the message of the finished record there, and
// the resumed program published the record so far again, so that every
// position of the record was published and the record itself (SPEC-D32:
// a program publishes its own message once its save is durable, and a
// resumed program republishes its record from the first message).
func TestSPECD32NoPublicationBeforeTheDisk(t *testing.T) {
	var armed atomic.Bool
	var lastLine atomic.Int64
	published := &publications{}
	p := newPair(t, func(i int, cfg *session.Config) {
		if i != 0 {
			return
		}
		cfg.Publisher = published
		session.SetPanicHook(cfg, func(g *session.Game, at string) {
			if at != "record-appended" || !armed.CompareAndSwap(true, false) {
				return
			}
			if data, err := os.ReadFile(filePath(g, "record")); err == nil {
				lastLine.Store(int64(bytes.LastIndexByte(data[:len(data)-1], '\n') + 1))
			}
			panic(panicValue)
		})
	})
	ctx := testenv.Context(t, 60*time.Second)
	accepted := make(chan *session.Game, 1)
	go func() {
		select {
		case g := <-p.services[1].Accepted():
			accepted <- g
		case <-ctx.Done():
		}
	}()
	ga, err := p.services[0].Invite(ctx, p.hosts[1].ID(), engine.Options{Variant: engine.VariantGo, Size: 5, InviterColor: engine.Black})
	if err != nil {
		t.Fatal(err)
	}
	var gb *session.Game
	select {
	case gb = <-accepted:
	case <-ctx.Done():
		t.Fatal("the invitation was not accepted")
	}
	do := func(g *session.Game, a protocol.Action) {
		t.Helper()
		waitMyTurn(t, ctx, g)
		if err := g.Do(a); err != nil {
			t.Fatalf("the %s's %+v: %v", g.Role(), a, err)
		}
	}
	do(ga, protocol.Play{Point: 0})
	do(gb, protocol.Play{Point: 24})
	waitMyTurn(t, ctx, ga)
	armed.Store(true)
	ga.Do(protocol.Play{Point: 6}) // the crash: its error is the game's
	if err := ga.Wait(ctx); err != nil {
		t.Fatalf("the game did not stop: %v", err)
	}
	if armed.Load() {
		t.Fatal("no crash was injected")
	}
	ga.Close()
	path := filePath(ga, "record")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The move's line never reached the disk.
	if err := os.WriteFile(path, data[:lastLine.Load()], 0o600); err != nil {
		t.Fatal(err)
	}
	saved, err := session.LoadTranscript(path)
	if err != nil {
		t.Fatal(err)
	}
	before := len(published.all())
	resumed, err := p.services[0].Resume(ctx, ga.ID())
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	// Resumed, before anything new, the program published its record
	// so far again, from the first message.
	again := published.all()[before:]
	for i := range saved.Messages {
		if i >= len(again) || again[i].Pos != uint64(i) || again[i].Record != nil {
			t.Fatalf("resumed, the program published %d publications again, not the %d messages of its record from the first", len(again), len(saved.Messages))
		}
	}
	do(resumed, protocol.Play{Point: 12})
	do(gb, protocol.Resign{})
	for _, g := range []*session.Game{resumed, gb} {
		if err := g.Wait(ctx); err != nil || g.Outcome() == nil {
			t.Fatalf("the %s's game did not end: %v", g.Role(), err)
		}
	}
	tr, err := session.LoadTranscript(resumed.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]int, len(tr.Messages))
	record := false
	for _, pub := range published.all() {
		if pub.Record != nil {
			record = true
			continue
		}
		var hash protocol.Hash
		switch {
		case pub.Message != nil:
			hash = pub.Message.Hash()
		case pub.Withheld != nil:
			hash = pub.Withheld.Hash
		default:
			continue
		}
		if pub.Pos >= uint64(len(tr.Messages)) {
			t.Errorf("a publication at position %d, after the record's %d messages", pub.Pos, len(tr.Messages))
			continue
		}
		if want := &tr.Messages[pub.Pos]; hash != want.Hash() {
			t.Errorf("the publication at position %d is not the record's message there (the %s's message %d, %s)", pub.Pos, want.From, want.Seq, want.Kind)
		}
		seen[pub.Pos]++
	}
	for pos, n := range seen {
		if n == 0 {
			t.Errorf("position %d of the record was never published", pos)
		}
	}
	if !record {
		t.Error("the record was not published")
	}
	if gb.Outcome().Result != resumed.Outcome().Result {
		t.Errorf("the outcomes differ: %+v and %+v", gb.Outcome(), resumed.Outcome())
	}
}
