package watch

import (
	"log/slog"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestSPEC5PublishNeverBlocks: with the hub's queue full (its publishing
// goroutine stopped, as on a network that does not take the
// publications), Publish returns at once and drops the publication,
// counted: the game that publishes never waits (SPEC-5, SPEC-D7).
func TestSPEC5PublishNeverBlocks(t *testing.T) {
	hub := &Hub{queue: make(chan session.Publication, QueueSize), logger: slog.New(slog.DiscardHandler)}
	const extra = 10
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		for i := range QueueSize + extra {
			hub.Publish(session.Publication{Pos: uint64(i)})
		}
	}()
	select {
	case <-returned:
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatalf("Publish blocked with the queue full (%d queued)", hub.Pending())
	}
	if got := hub.Dropped(); got != extra {
		t.Errorf("%d publications dropped, want %d", got, extra)
	}
	if got := hub.Pending(); got != QueueSize {
		t.Errorf("%d publications queued, want %d", got, QueueSize)
	}
}

// TestSPECD8HistoryBounds: a hub keeps at most historyGameBytes of one
// game (beyond, the reply says the rest is not kept) and historyBytes of
// all (beyond, the game whose history grew least recently is forgotten);
// a reply holds at most backlogReplyCount publications and says there
// are more, and the position asked for skips the messages before it,
// never an announcement (SPEC-D8).
func TestSPECD8HistoryBounds(t *testing.T) {
	hub := &Hub{history: map[protocol.GameID]*history{}, serving: map[peer.ID]int{}}
	big := make([]byte, 1<<20)
	var games []protocol.GameID
	for i := range historyBytes/historyGameBytes + 1 {
		g := protocol.GameID{byte(i + 1)}
		games = append(games, g)
		for pos := range historyGameBytes/len(big) + 1 {
			hub.keep(session.Publication{Game: g, Pos: uint64(pos), Withheld: &session.WithheldMessage{}}, big)
		}
	}
	if hub.histBytes > historyBytes {
		t.Errorf("the hub keeps %d bytes, more than %d", hub.histBytes, historyBytes)
	}
	if _, ok := hub.history[games[0]]; ok {
		t.Error("the oldest game was not forgotten")
	}
	reply, items := hub.backlog(backlogRequest{Game: games[len(games)-1]})
	if !reply.Truncated {
		t.Error("a game over its history's cap: the reply does not say so")
	}
	if n := len(items); n == 0 || n*len(big) > backlogReplyBytes {
		t.Errorf("a reply of %d publications of %d bytes, over %d", n, len(big), backlogReplyBytes)
	}
	if reply, _ := hub.backlog(backlogRequest{Game: games[0]}); reply.Refused == "" {
		t.Error("a forgotten game's backlog was not refused")
	}

	g := protocol.GameID{0xff}
	for i := range backlogReplyCount + 5 {
		hub.keep(session.Publication{Game: g, Pos: uint64(i), Withheld: &session.WithheldMessage{}}, []byte{byte(i)})
	}
	hub.keep(session.Publication{Game: g, Announcement: &session.PublicAnnouncement{}}, []byte("announcement"))
	reply, items = hub.backlog(backlogRequest{Game: g})
	if len(items) != backlogReplyCount || reply.Count != backlogReplyCount || !reply.More {
		t.Errorf("the first reply: %d publications, %+v", len(items), reply)
	}
	reply, items = hub.backlog(backlogRequest{Game: g, From: backlogReplyCount + 3})
	if len(items) != 3 || reply.More || string(items[2]) != "announcement" {
		t.Errorf("from position %d: %d publications, %+v", backlogReplyCount+3, len(items), reply)
	}
}
