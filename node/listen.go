package node

import (
	"errors"
	"fmt"
	"net"
	"syscall"

	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// ErrAddrInUse means a listen address with a fixed port is taken by
// another program (NET-D26).
var ErrAddrInUse = errors.New("node: listen address in use")

// checkListenFree refuses the listen addresses with a fixed port that
// another program holds. go-libp2p binds its TCP and QUIC sockets with
// SO_REUSEPORT, so a second kakure relay on the port of a first one would
// start without a word and share (or lose) its traffic; a bind of our own
// without it tells. Other failures (an address family this machine
// lacks) are left to go-libp2p, which listens on what it can.
func checkListenFree(addrs []ma.Multiaddr) error {
	for _, a := range addrs {
		network, hostport, err := manet.DialArgs(a)
		if err != nil {
			continue
		}
		_, port, err := net.SplitHostPort(hostport)
		if err != nil || port == "0" {
			continue
		}
		var closer interface{ Close() error }
		switch network {
		case "tcp", "tcp4", "tcp6":
			l, err := net.Listen(network, hostport)
			if err != nil {
				if errors.Is(err, syscall.EADDRINUSE) {
					return fmt.Errorf("%w: %s is taken by another program (another kakure relay?): stop it, or choose another port with --listen", ErrAddrInUse, a)
				}
				continue
			}
			closer = l
		case "udp", "udp4", "udp6":
			c, err := net.ListenPacket(network, hostport)
			if err != nil {
				if errors.Is(err, syscall.EADDRINUSE) {
					return fmt.Errorf("%w: %s is taken by another program (another kakure relay?): stop it, or choose another port with --listen", ErrAddrInUse, a)
				}
				continue
			}
			closer = c
		default:
			continue
		}
		closer.Close()
	}
	return nil
}
