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
	"github.com/kakure/kakure/protocol/session"
)

// TopicOf returns the GossipSub topic on which peer p publishes its
// games (SPEC-D2).
func TopicOf(p peer.ID) string { return "/kakure/watch/1/" + p.String() }

// QueueSize is how many publications a hub holds for sending; beyond, a
// publication is dropped (SPEC-5, SPEC-D7).
const QueueSize = 1024

// Hub is a node's GossipSub for spectators: it publishes this node's
// games on its own topic (it is a session.Publisher) and watches other
// peers' games.
type Hub struct {
	host   host.Host
	ps     *pubsub.PubSub
	logger *slog.Logger
	queue  chan session.Publication
	// dropped counts the publications dropped for a full queue.
	dropped atomic.Int64
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}

	mu     sync.Mutex
	topics map[string]*pubsub.Topic

	// histMu guards the games' histories (SPEC-D8) and the backlog
	// streams being served (SPEC-D9).
	histMu         sync.Mutex
	history        map[protocol.GameID]*history
	histBytes      int
	touch          uint64
	serving        map[peer.ID]int
	servingAll     int
	refusedBacklog int64

	// liveMu guards the table of this node's live games (SPEC-D14).
	liveMu sync.Mutex
	live   liveGames
}

// New starts GossipSub on h and the goroutine that publishes this node's
// games. logger receives what fails (nil discards it). Close stops it.
func New(h host.Host, logger *slog.Logger) (*Hub, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Flood-publish (SPEC-D30): each publication goes to every
	// subscriber this node is connected to, not to its mesh alone.
	ps, err := pubsub.NewGossipSub(ctx, h, pubsub.WithFloodPublish(true))
	if err != nil {
		cancel()
		return nil, fmt.Errorf("watch: gossipsub: %w", err)
	}
	hub := &Hub{host: h, ps: ps, logger: logger, queue: make(chan session.Publication, QueueSize),
		ctx: ctx, cancel: cancel, done: make(chan struct{}), topics: map[string]*pubsub.Topic{},
		history: map[protocol.GameID]*history{}, serving: map[peer.ID]int{},
		live: liveGames{games: map[protocol.GameID]*LiveGame{}, codes: map[protocol.GameID]string{}}}
	own, err := hub.topic(h.ID())
	if err != nil {
		cancel()
		return nil, err
	}
	h.SetStreamHandler(BacklogProtocol, hub.serveBacklog)
	h.SetStreamHandler(GamesProtocol, hub.serveGames)
	go hub.run(own)
	return hub, nil
}

// Close stops publishing and watching.
func (hub *Hub) Close() {
	hub.host.RemoveStreamHandler(BacklogProtocol)
	hub.host.RemoveStreamHandler(GamesProtocol)
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
func (hub *Hub) Publish(p session.Publication) {
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
			data, err := session.MarshalPublication(p)
			if err == nil {
				err = own.Publish(hub.ctx, data)
			}
			if err == nil {
				// Kept as the topic carried it, for a backlog (SPEC-D8).
				hub.keep(p, data)
				// What the topic carried tells the live games
				// (SPEC-D14).
				hub.liveMu.Lock()
				hub.live.track(p)
				hub.liveMu.Unlock()
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
// ends or the record was checked (SPEC-3, SPEC-4). With a game given, it
// asks the publisher for the game's backlog at once, and again (from
// where it stands) when a publication comes before those it lacks, at
// most backlogAsks times (SPEC-D8).
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
	ctx, stop := context.WithCancel(ctx)
	in := make(chan input, 64)
	ask := make(chan uint64, 1)
	go func() {
		for {
			msg, err := sub.Next(ctx)
			if err != nil {
				return
			}
			select {
			case in <- input{author: msg.GetFrom(), data: msg.Data}:
			case <-ctx.Done():
				return
			}
		}
	}()
	go hub.askBacklogs(ctx, w, publisher, in, ask)
	if game != (protocol.GameID{}) {
		ask <- 0
	}
	go func() {
		defer close(w.lines)
		defer sub.Cancel()
		defer stop()
		asks := 1
		quietFor := BacklogQuiet
		// graceEnds is when the spectator stops waiting for the
		// messages before the record it holds, counted from the record's
		// coming (zero while it does not wait): what comes meanwhile,
		// backlogs asked when quiet included (SPEC-D31), does not put it
		// off.
		var graceEnds time.Time
		// One timer for the loop, reset at each turn: while the
		// spectator waits out the record's grace, it runs to the grace's
		// end; otherwise for the quiet ask. Not the quiet ask while
		// waiting out the grace: the backlog's replies would restart it
		// for ever.
		timer := time.NewTimer(quietFor)
		defer timer.Stop()
		for {
			w.mu.Lock()
			waiting := w.spec.Waiting()
			w.mu.Unlock()
			switch {
			case !waiting:
				graceEnds = time.Time{}
			case graceEnds.IsZero():
				graceEnds = time.Now().Add(RecordGrace)
			}
			if waiting {
				timer.Reset(time.Until(graceEnds))
			} else {
				timer.Reset(quietFor)
			}
			var lines []Line
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
				if waiting {
					// The record's grace is over: checked without the
					// messages still missing.
					w.mu.Lock()
					lines = w.spec.Finish()
					w.mu.Unlock()
				} else {
					quietFor = w.askWhenQuiet(ask, quietFor)
				}
			case x := <-in:
				if x.note == "" && !x.backlog {
					quietFor = BacklogQuiet
				}
				w.mu.Lock()
				switch {
				case x.note != "":
					lines = []Line{{Notice, x.note}}
				case x.backlog:
					lines = w.spec.TakeBacklog(x.author, x.data)
				default:
					lines = w.spec.Take(x.author, x.data)
				}
				if from, behind := w.spec.Behind(); behind && asks < backlogAsks {
					select {
					case ask <- from:
						asks++
					default:
					}
				}
				w.mu.Unlock()
			}
			w.mu.Lock()
			done, _ := w.spec.Done()
			w.mu.Unlock()
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

// askWhenQuiet asks the backlog from where the spectator stands, after
// nothing came for quietFor (SPEC-D31), and returns the next wait: less
// often each time.
func (w *Watch) askWhenQuiet(ask chan<- uint64, quietFor time.Duration) time.Duration {
	w.mu.Lock()
	from, _ := w.spec.Behind()
	known := w.spec.Game() != (protocol.GameID{})
	w.mu.Unlock()
	if known {
		select {
		case ask <- from:
		default:
		}
	}
	return min(2*quietFor, BacklogQuietMax)
}

// backlogAsks caps the backlogs one watch asks for when it sees a gap;
// backlogPause is the least time between two asks.
const (
	backlogAsks  = 4
	backlogPause = time.Second
)

// BacklogQuiet is how long a watch of a known game waits with nothing
// received before it asks the publisher's backlog from where it stands;
// each further quiet ask waits twice as long, up to BacklogQuietMax, and
// a publication received starts again from BacklogQuiet (SPEC-D31).
const (
	BacklogQuiet    = 3 * time.Second
	BacklogQuietMax = time.Minute
)

// input is what a watch's loop takes: a publication, live or from the
// backlog, or a notice.
type input struct {
	author  peer.ID
	data    []byte
	backlog bool
	note    string
}

// askBacklogs asks publisher for the backlog of the watched game from
// each position ask gives, and hands its publications to the watch's
// loop (SPEC-D8).
func (hub *Hub) askBacklogs(ctx context.Context, w *Watch, publisher peer.ID, in chan<- input, ask <-chan uint64) {
	send := func(x input) bool {
		select {
		case in <- x:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		var from uint64
		select {
		case from = <-ask:
		case <-ctx.Done():
			return
		}
		var game protocol.GameID
		w.Spectator(func(s *Spectator) { game = s.Game() })
		if game == (protocol.GameID{}) {
			continue
		}
		pubs, truncated, err := hub.Backlog(ctx, publisher, game, from)
		for _, data := range pubs {
			if !send(input{author: publisher, data: data, backlog: true}) {
				return
			}
		}
		switch {
		case err != nil && ctx.Err() == nil:
			if !send(input{note: fmt.Sprintf("no backlog from position %d: %v", from, err)}) {
				return
			}
		case truncated:
			if !send(input{note: "the publisher kept no more of the game's backlog: the record at the end checks the rest"}) {
				return
			}
		}
		select {
		case <-time.After(backlogPause):
		case <-ctx.Done():
			return
		}
	}
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
