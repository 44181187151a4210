package node

import (
	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/protocol"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
)

// WatchBacklogProtocol is the protocol of the spectators' backlog
// (protocol/watch.BacklogProtocol, docs/spectators.md SPEC-D8), named
// here so that the node need not import the game's packages.
const WatchBacklogProtocol = "/kakure/watch-backlog/1.0.0"

// WatchGamesProtocol is the protocol of the listing of a node's live
// games (protocol/watch.GamesProtocol, docs/spectators.md SPEC-D14).
const WatchGamesProtocol = "/kakure/watch-games/1.0.0"

// SpectatorProtocols are the protocols of spectators: GossipSub's (and
// FloodSub's, which GossipSub also speaks), the backlog's and the
// listing's. The
// resource manager gives each a cap of its own (LIM-D12).
var SpectatorProtocols = []protocol.ID{
	"/meshsub/1.0.0", "/meshsub/1.1.0", "/meshsub/1.2.0", "/meshsub/1.3.0", "/floodsub/1.0.0",
	WatchBacklogProtocol, WatchGamesProtocol,
}

// The resource manager's caps of each spectator protocol, in total and
// per peer (LIM-D12). A GossipSub peer keeps one stream each way; a
// spectator asks for one backlog at a time, and the hub's own admission
// (watch.BacklogPerPeer, watch.BacklogStreams) answers with a reason
// below these caps.
var (
	spectatorProtocolLimit = rcmgr.BaseLimit{StreamsInbound: 128, StreamsOutbound: 1024, Streams: 1152, Memory: 64 << 20}
	spectatorPeerLimit     = rcmgr.BaseLimit{StreamsInbound: 4, StreamsOutbound: 4, Streams: 8, Memory: 8 << 20}
	backlogProtocolLimit   = rcmgr.BaseLimit{StreamsInbound: 32, StreamsOutbound: 64, Streams: 96, Memory: 32 << 20}
	// The hub serves watch.GamesStreams listings at once and resets the
	// others, below this cap.
	gamesProtocolLimit = rcmgr.BaseLimit{StreamsInbound: 16, StreamsOutbound: 64, Streams: 80, Memory: 4 << 20}
)

// ResourceLimits returns the resource manager's limits of a kakure node:
// libp2p's defaults, scaled to the machine, with every spectator
// protocol capped in a scope of its own, so that spectators, however
// many, hold at most 5 × 128 + 32 + 16 of the system's inbound streams (at
// least 1024): a spectator flood does not take the streams of the game
// protocol, whose scope is its own too (LIM-D12).
func ResourceLimits() rcmgr.ConcreteLimitConfig {
	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	for _, id := range SpectatorProtocols {
		total := spectatorProtocolLimit
		switch id {
		case WatchBacklogProtocol:
			total = backlogProtocolLimit
		case WatchGamesProtocol:
			total = gamesProtocolLimit
		}
		limits.AddProtocolLimit(id, total, rcmgr.BaseLimitIncrease{})
		limits.AddProtocolPeerLimit(id, spectatorPeerLimit, rcmgr.BaseLimitIncrease{})
	}
	return limits.AutoScale()
}
