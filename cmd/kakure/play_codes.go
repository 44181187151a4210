package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/ui"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The internet side of `kakure play`: invite codes (ui.InviteCodes) and
// the state of connections (ui.Connections), with node.HostInvite,
// node.JoinInvite, node.ConnectionInfo and node.Ping.

var (
	_ ui.InviteCodes = (*playNetwork)(nil)
	_ ui.Connections = (*playNetwork)(nil)
	_ ui.Notices     = (*playNetwork)(nil)
)

// connPingTimeout bounds one measurement of a round trip.
const connPingTimeout = 5 * time.Second

// HostCode implements ui.InviteCodes.
func (n *playNetwork) HostCode(ctx context.Context) (string, func(), error) {
	inv, err := n.me.node.HostInvite(ctx)
	if err != nil {
		return "", nil, n.codeError(err)
	}
	return inv.Code, func() { inv.Close() }, nil
}

// JoinCode implements ui.InviteCodes.
func (n *playNetwork) JoinCode(ctx context.Context, code string) (string, error) {
	info, err := n.me.node.JoinInvite(ctx, code)
	if err != nil {
		return "", n.codeError(err)
	}
	return info.ID.String(), nil
}

// codeError says what to do when no relay is configured.
func (n *playNetwork) codeError(err error) error {
	if errors.Is(err, node.ErrNoRelays) {
		return fmt.Errorf("no relay configured and the DHT is off: invite codes need the DHT (remove \"dht\": \"off\" from %[1]s) or a kakure relay (start kakure play with --relay MULTIADDR, or list relays in %[1]s; see docs/internet.md)",
			filepath.Join(n.me.node.Home(), node.ConfigFileName))
	}
	return err
}

// Notices implements ui.Notices: the node's notices (a guest that found
// no path to this peer, NET-D23), by their headlines.
func (n *playNetwork) Notices() <-chan string {
	out := make(chan string, 4)
	go func() {
		for {
			select {
			case nt := <-n.me.node.Notices():
				select {
				case out <- nt.Headline:
				case <-n.ctx.Done():
					return
				}
			case <-n.ctx.Done():
				return
			}
		}
	}()
	return out
}

// NetStatus implements ui.NetStatuses: the node's DHT peers,
// reachability and relay reservations.
func (n *playNetwork) NetStatus() string { return n.me.node.NetStatus().String() }

// Connection implements ui.Connections: a ping, then the connection's
// kind and round trip. The built-in bot's connection is not shown.
func (n *playNetwork) Connection(ctx context.Context, p string) (ui.ConnState, bool) {
	pid, err := peer.Decode(p)
	if err != nil {
		return ui.ConnState{}, false
	}
	n.botMu.Lock()
	b := n.bot
	n.botMu.Unlock()
	if b != nil && b.node.ID() == pid {
		return ui.ConnState{}, false
	}
	pctx, cancel := context.WithTimeout(ctx, connPingTimeout)
	n.me.node.Ping(pctx, pid)
	cancel()
	info := n.me.node.ConnectionInfo(pid)
	return ui.ConnState{Kind: info.Kind.String(), RTT: info.RTT, Reconnecting: info.Reconnecting}, true
}
