package ui

import (
	"context"
	"fmt"
	"time"
)

// InviteCodes is implemented by a Network that can play over the
// internet with invite codes (node.HostInvite and node.JoinInvite): the
// lobby offers hosting and joining with a code only then.
type InviteCodes interface {
	// HostCode registers a fresh invite code on the relays and returns
	// it, with the function that withdraws it. Guests who type it reach
	// this peer and invite it; their invitations arrive as any other.
	HostCode(ctx context.Context) (code string, withdraw func(), err error)
	// JoinCode finds the peer hosting code on the relays, connects to it
	// and returns its peer ID. Invite then invites it by that ID.
	JoinCode(ctx context.Context, code string) (peerID string, err error)
}

// Connections is implemented by a Network that can tell the state of its
// connection to a peer.
type Connections interface {
	// Connection measures a round trip to peer (it may block until ctx
	// ends) and describes the connection that carries the game with it.
	// ok is false for a peer whose connection is not worth showing (the
	// built-in bot, in the same program).
	Connection(ctx context.Context, peer string) (c ConnState, ok bool)
}

// NetStatuses is implemented by a Network that can tell where this peer
// stands on the internet: on the DHT, reachable or not, holding relay
// reservations (node.NetStatus). The lobby shows it under the peer's ID.
type NetStatuses interface {
	// NetStatus returns one line, e.g. "DHT: 14 peers; reachability:
	// private; relay reservations: 2 (12D3KooWAbc…, …)". It does not
	// block.
	NetStatus() string
}

// Notices is implemented by a Network that learns news for the player
// by itself: a guest that could not reach this peer, and why (NET-D23 in
// docs/internet.md). The lobby shows each on its status line.
type Notices interface {
	// Notices returns the channel of the news, one line each.
	Notices() <-chan string
}

// connRefresh is how often the application measures the connection to
// the opponent of the game shown (and to a peer met by code in the
// lobby).
const connRefresh = 3 * time.Second

// ConnState is the state of the connection to a peer as the UI shows it.
type ConnState struct {
	// Kind is "direct", "hole-punched", "relayed" or "none" (not
	// connected).
	Kind string
	// RTT is the round-trip time last measured on the connection; zero
	// when not measured.
	RTT time.Duration
	// Reconnecting, when not connected, says how the program is trying
	// to reconnect, e.g. "reconnecting directly and via relay (3rd try)".
	Reconnecting string
}

// String returns e.g. "relayed, round trip 23.4 ms", "not connected", or
// "not connected: reconnecting via relay (3rd try)".
func (c ConnState) String() string {
	if c.Kind == "" || c.Kind == "none" {
		if c.Reconnecting != "" {
			return "not connected: " + c.Reconnecting
		}
		return "not connected"
	}
	if c.RTT <= 0 {
		return c.Kind
	}
	return fmt.Sprintf("%s, round trip %s", c.Kind, formatRTT(c.RTT))
}

// formatRTT writes a round-trip time in milliseconds, to a tenth below a
// second.
func formatRTT(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.1f ms", ms)
	default:
		return fmt.Sprintf("%.2f s", ms/1000)
	}
}

// watchConnection measures the connection to peer now and every
// connRefresh until ctx ends, off the application's goroutine, and hands
// each state to set on the application's goroutine. It does nothing when
// the network cannot tell connections.
func (a *App) watchConnection(ctx context.Context, peer string, set func(ConnState)) {
	conns, ok := a.cfg.Network.(Connections)
	if !ok {
		return
	}
	go func() {
		t := time.NewTicker(connRefresh)
		defer t.Stop()
		for {
			c, ok := conns.Connection(ctx, peer)
			if !ok || ctx.Err() != nil {
				return
			}
			a.update(func() {
				if ctx.Err() == nil {
					set(c)
				}
			})
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// watchNetStatus hands the network's status to the lobby now and every
// connRefresh, when it changed, until the application stops. It does
// nothing when the network cannot tell it.
func (a *App) watchNetStatus() {
	ns, ok := a.cfg.Network.(NetStatuses)
	if !ok {
		return
	}
	t := time.NewTicker(connRefresh)
	defer t.Stop()
	last := ""
	for {
		if s := ns.NetStatus(); s != last {
			last = s
			a.update(func() { a.lobby.SetNetStatus(s) })
		}
		select {
		case <-a.ctx.Done():
			return
		case <-t.C:
		}
	}
}
