package node

import (
	"testing"

	"github.com/libp2p/go-libp2p/core/protocol"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"

	kprotocol "github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
)

// TestLIMD12SpectatorProtocolsCapped: the resource manager's limits give
// every spectator protocol (GossipSub's, FloodSub's, the backlog's) a
// cap of its own, in total and per peer, and together they hold less
// than half of the system's inbound streams, while the game protocol
// keeps libp2p's default protocol scope (LIM-D12). The backlog's
// protocol here is protocol/watch's, and the hub's own admission
// refuses, with its reason, below the resource manager's caps.
func TestLIMD12SpectatorProtocolsCapped(t *testing.T) {
	if WatchBacklogProtocol != watch.BacklogProtocol {
		t.Fatalf("node names the backlog %q, protocol/watch %q", WatchBacklogProtocol, watch.BacklogProtocol)
	}
	if WatchGamesProtocol != watch.GamesProtocol {
		t.Fatalf("node names the listing of live games %q, protocol/watch %q", WatchGamesProtocol, watch.GamesProtocol)
	}
	limits := ResourceLimits().ToPartialLimitConfig()
	system := limits.System.StreamsInbound
	if system == rcmgr.DefaultLimit || system <= 0 {
		t.Fatalf("the system's inbound streams: %v", system)
	}
	sum := 0
	for _, id := range SpectatorProtocols {
		total, ok := limits.Protocol[id]
		if !ok {
			t.Fatalf("no limit of its own for %s", id)
		}
		perPeer, ok := limits.ProtocolPeer[id]
		if !ok {
			t.Fatalf("no per-peer limit for %s", id)
		}
		in := int(total.StreamsInbound)
		if in <= 0 || in > 128 {
			t.Errorf("%s: %d inbound streams in total", id, in)
		}
		if p := int(perPeer.StreamsInbound); p <= 0 || p > 4 {
			t.Errorf("%s: %d inbound streams per peer", id, p)
		}
		sum += in
	}
	if 2*sum >= int(system) {
		t.Errorf("the spectator protocols may hold %d of the system's %d inbound streams", sum, system)
	}
	if b := int(limits.Protocol[WatchBacklogProtocol].StreamsInbound); b < watch.BacklogStreams || int(limits.ProtocolPeer[WatchBacklogProtocol].StreamsInbound) < watch.BacklogPerPeer {
		t.Errorf("the resource manager caps the backlog at %d streams, below the hub's admission (%d)", b, watch.BacklogStreams)
	}
	if g := int(limits.Protocol[WatchGamesProtocol].StreamsInbound); g < watch.GamesStreams {
		t.Errorf("the resource manager caps the listing at %d streams, below the hub's (%d)", g, watch.GamesStreams)
	}
	if _, ok := limits.Protocol[protocol.ID(kprotocol.GameProtocol)]; ok {
		t.Error("the game protocol has a limit of its own: it keeps libp2p's default protocol scope")
	}
}
