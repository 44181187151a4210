package watch

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/protocol"
)

// TopicOf returns the GossipSub topic on which peer p publishes its
// games (SPEC-D2).
func TopicOf(p peer.ID) string { return "/kakure/watch/1/" + p.String() }

// QueueSize is how many publications a hub holds for sending; beyond, a
// publication is dropped (SPEC-5, SPEC-D7).
const QueueSize = 1024

// Hub is a node's GossipSub for spectators: it publishes this node's
// games on its own topic (it is a protocol.Publisher) and watches other
// peers' games.
type Hub struct {
	host   host.Host
	ps     *pubsub.PubSub
	logger *slog.Logger
	queue  chan protocol.Publication
	// dropped counts the publications dropped for a full queue.
	dropped atomic.Int64
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}

	mu     sync.Mutex
	topics map[string]*pubsub.Topic
}

// New starts GossipSub on h and the goroutine that publishes this node's
// games. logger receives what fails (nil discards it). Close stops it.
func New(h host.Host, logger *slog.Logger) (*Hub, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ps, err := pubsub.NewGossipSub(ctx, h)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("watch: gossipsub: %w", err)
	}
	hub := &Hub{host: h, ps: ps, logger: logger, queue: make(chan protocol.Publication, QueueSize),
		ctx: ctx, cancel: cancel, done: make(chan struct{}), topics: map[string]*pubsub.Topic{}}
	own, err := hub.topic(h.ID())
	if err != nil {
		cancel()
		return nil, err
	}
	go hub.run(own)
	return hub, nil
}

// Close stops publishing and watching.
func (hub *Hub) Close() {
	hub.cancel()
	<-hub.done
}

// topic joins peer p's topic once.
func (hub *Hub) topic(p peer.ID) (*pubsub.Topic, error) {
	hub.mu.Lock()
	defer hub.mu.Unlock()
	name := TopicOf(p)
	if t, ok := hub.topics[name]; ok {
		return t, nil
	}
	t, err := hub.ps.Join(name)
	if err != nil {
		return nil, fmt.Errorf("watch: join %s: %w", name, err)
	}
	hub.topics[name] = t
	return t, nil
}

// Publish queues p for this node's topic and returns at once; with the
// queue full, p is dropped (SPEC-5).
func (hub *Hub) Publish(p protocol.Publication) {
	select {
	case hub.queue <- p:
	default:
		if hub.dropped.Add(1) == 1 {
			hub.logger.Warn("spectators: a publication dropped, the queue is full", "game", p.Game)
		}
	}
}

// Dropped returns how many publications were dropped for a full queue.
func (hub *Hub) Dropped() int64 { return hub.dropped.Load() }

// Pending returns how many publications wait in the queue.
func (hub *Hub) Pending() int { return len(hub.queue) }

// run publishes the queued publications, in order.
func (hub *Hub) run(own *pubsub.Topic) {
	defer close(hub.done)
	for {
		select {
		case <-hub.ctx.Done():
			return
		case p := <-hub.queue:
			data, err := protocol.MarshalPublication(p)
			if err == nil {
				err = own.Publish(hub.ctx, data)
			}
			if err != nil && hub.ctx.Err() == nil {
				hub.logger.Warn("spectators: a publication failed", "game", p.Game, "err", err)
			}
		}
	}
}

// PublishRaw publishes data as it is on the topic of peer on: for a
// test's forger, which publishes what no honest program would.
func (hub *Hub) PublishRaw(ctx context.Context, on peer.ID, data []byte) error {
	t, err := hub.topic(on)
	if err != nil {
		return err
	}
	return t.Publish(ctx, data)
}

// RecordGrace is how long a spectator that has the record waits for the
// messages before it that have not come yet, before it checks the record
// without them (SPEC-D3, SPEC-D7).
const RecordGrace = 5 * time.Second

// Watch is a spectator of one game: its lines come on Lines until the
// context given to Watch ends or the game's record was checked.
type Watch struct {
	lines chan Line
	mu    sync.Mutex
	spec  *Spectator
}

// Lines returns the lines the spectator shows, in order; it is closed
// when the watch ends.
func (w *Watch) Lines() <-chan Line { return w.lines }

// Spectator runs f with the spectator's state, which the watch's
// goroutine does not change meanwhile.
func (w *Watch) Spectator(f func(s *Spectator)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(w.spec)
}

// Watch subscribes to publisher's topic and watches game on it until ctx
// ends or the record was checked (SPEC-3, SPEC-4).
func (hub *Hub) Watch(ctx context.Context, publisher peer.ID, game protocol.GameID) (*Watch, error) {
	t, err := hub.topic(publisher)
	if err != nil {
		return nil, err
	}
	sub, err := t.Subscribe()
	if err != nil {
		return nil, fmt.Errorf("watch: subscribe %s: %w", TopicOf(publisher), err)
	}
	w := &Watch{lines: make(chan Line, 256), spec: NewSpectator(publisher, game)}
	go func() {
		defer close(w.lines)
		defer sub.Cancel()
		for {
			w.mu.Lock()
			waiting := w.spec.Waiting()
			w.mu.Unlock()
			next, cancel := ctx, context.CancelFunc(func() {})
			if waiting {
				next, cancel = context.WithTimeout(ctx, RecordGrace)
			}
			msg, err := sub.Next(next)
			cancel()
			var lines []Line
			w.mu.Lock()
			switch {
			case err == nil:
				lines = w.spec.Take(msg.GetFrom(), msg.Data)
			case ctx.Err() == nil && waiting:
				lines = w.spec.Finish()
			}
			done, _ := w.spec.Done()
			w.mu.Unlock()
			if err != nil && lines == nil {
				return
			}
			for _, l := range lines {
				select {
				case w.lines <- l:
				case <-ctx.Done():
					return
				}
			}
			if done {
				return
			}
		}
	}()
	return w, nil
}

// Subscribers returns the peers publisher's topic reaches from this
// node, once it watches it.
func (hub *Hub) Subscribers(publisher peer.ID) []peer.ID {
	t, err := hub.topic(publisher)
	if err != nil {
		return nil
	}
	return t.ListPeers()
}
