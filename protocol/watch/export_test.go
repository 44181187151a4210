package watch

import (
	"math"

	"github.com/kakure/kakure/protocol"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// SetBacklogForger makes the hub a forger of its backlog: it answers the
// backlog protocol itself, f changing the publications of each reply,
// which it writes ignoring the frame cap its spectators read with (tests
// only: the hub's own answer has no such lever). A nil f makes the hub
// answer honestly again.
func (hub *Hub) SetBacklogForger(f func(game protocol.GameID, pubs [][]byte) [][]byte) {
	if f == nil {
		hub.host.SetStreamHandler(BacklogProtocol, hub.serveBacklog)
		return
	}
	hub.host.SetStreamHandler(BacklogProtocol, func(st network.Stream) {
		hub.answerBacklog(st, func(r backlogRequest) (backlogReply, [][]byte, int) {
			reply, items := hub.backlog(r)
			items = f(r.Game, items)
			reply.Count = len(items)
			return reply, items, math.MaxInt
		})
	})
}

// SetGamesServing sets how many listing streams the hub serves, as if
// they were open (tests only).
func (hub *Hub) SetGamesServing(n int) {
	hub.liveMu.Lock()
	defer hub.liveMu.Unlock()
	hub.live.serving = n
}

// The bounds and the head of a reply of the backlog protocol, and the
// error of a refused backlog, as the external tests name them: only tests
// use them outside the package, which keeps them unexported (issue 33).
const (
	BacklogReplyCount = backlogReplyCount
	BacklogFrame      = backlogFrame
)

// BacklogReply is backlogReply (tests only).
type BacklogReply = backlogReply

// ErrBacklogRefused is errBacklogRefused (tests only).
var ErrBacklogRefused = errBacklogRefused

// BacklogsServing returns how many backlog streams of p the hub is
// answering now (tests only).
func (hub *Hub) BacklogsServing(p peer.ID) int {
	hub.histMu.Lock()
	defer hub.histMu.Unlock()
	return hub.serving[p]
}
