package session

import (
	"github.com/kakure/kakure/protocol"

	"crypto/rand"
	"sync"
)

// eventQueue delivers events in order without ever blocking the game loop:
// a goroutine moves them from an unbounded list to the output channel.
type eventQueue struct {
	mu     sync.Mutex
	items  []protocol.Event
	closed bool
	wake   chan struct{}
	out    chan protocol.Event
	// hook, for tests only, is called before each event is delivered.
	hook func()
}

// newEventQueue returns a queue; its pump is started by the game's loop
// (Game.run), so that a game whose loop never runs holds no goroutine.
func newEventQueue() *eventQueue {
	return &eventQueue{wake: make(chan struct{}, 1), out: make(chan protocol.Event)}
}

func (q *eventQueue) push(e protocol.Event) {
	q.mu.Lock()
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *eventQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *eventQueue) pump() {
	defer close(q.out)
	for {
		q.mu.Lock()
		items, closed := q.items, q.closed
		q.items = nil
		q.mu.Unlock()
		for _, e := range items {
			if q.hook != nil {
				q.hook()
			}
			q.out <- e
		}
		if len(items) == 0 {
			if closed {
				return
			}
			<-q.wake
		}
	}
}

// randomBytes fills b from crypto/rand and returns it.
func randomBytes(b []byte) []byte {
	if _, err := rand.Read(b); err != nil {
		panic("protocol: crypto/rand failed: " + err.Error())
	}
	return b
}
