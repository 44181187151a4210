package watch

import (
	"log/slog"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// TestSPEC5PublishNeverBlocks: with the hub's queue full (its publishing
// goroutine stopped, as on a network that does not take the
// publications), Publish returns at once and drops the publication,
// counted: the game that publishes never waits (SPEC-5, SPEC-D7).
func TestSPEC5PublishNeverBlocks(t *testing.T) {
	hub := &Hub{queue: make(chan protocol.Publication, QueueSize), logger: slog.New(slog.DiscardHandler)}
	const extra = 10
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		for i := range QueueSize + extra {
			hub.Publish(protocol.Publication{Pos: uint64(i)})
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
