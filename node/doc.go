// Package node owns kakure's libp2p host: the identity key, listening,
// discovery on the LAN, dialling and relays. It hands streams to protocol
// and knows nothing of game rules.
//
// New starts a Node from a Config; the identity comes from
// LoadOrCreateIdentity (T-1), and go-libp2p's and quic-go's logs go to a
// file (RedirectLibp2pLogs), never to the terminal. For play across NATs
// (docs/internet.md) a node uses kakure relays (Config.Relays or the
// configuration file, LoadFileConfig), hosts and joins invite codes
// (HostInvite, JoinInvite) and reports its connections (ConnectionInfo,
// Ping); Config.Relay makes it a relay.
package node
