// Package node owns kakure's libp2p host: the identity key, listening,
// discovery on the LAN, dialling and relays. It hands streams to protocol
// and knows nothing of game rules.
package node
