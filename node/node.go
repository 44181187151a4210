package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/discovery/mdns"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	noise "github.com/libp2p/go-libp2p/p2p/security/noise"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/kakure/kakure/node/rendezvous"
)

// ErrBadAddress means a peer address given to Connect cannot be dialled
// as it is: not a multiaddr, no /p2p/ part, or this node's own ID.
var ErrBadAddress = errors.New("node: bad peer address")

// DefaultListenAddrs returns the addresses a node listens on when its
// Config names none: every interface, IPv4 and IPv6, TCP and QUIC, on
// ports the system chooses.
func DefaultListenAddrs() []string {
	return []string{
		"/ip4/0.0.0.0/tcp/0",
		"/ip4/0.0.0.0/udp/0/quic-v1",
		"/ip6/::/tcp/0",
		"/ip6/::/udp/0/quic-v1",
	}
}

// Config says how to start a Node. The zero value is a node with the
// default home and listen addresses, no mDNS and no NAT port mapping.
type Config struct {
	// Home is the directory of the identity key and the log file;
	// empty means DefaultHome().
	Home string
	// ListenAddrs are multiaddrs to listen on; nil means
	// DefaultListenAddrs().
	ListenAddrs []string
	// EnableMDNS announces the node on the local network and reports the
	// kakure peers found there on LANPeers. It sends multicast traffic
	// off this machine.
	EnableMDNS bool
	// NATPortMap asks the router (UPnP, NAT-PMP) to forward a port to
	// this node. It is ignored when every listen address is a loopback
	// address.
	NATPortMap bool
	// LogFile receives the logs of go-libp2p and quic-go (see
	// RedirectLibp2pLogs); empty means Home/kakure.log.
	LogFile string
	// UserAgent is announced to peers by libp2p's identify protocol;
	// empty means "kakure".
	UserAgent string
	// Relays are kakure relays (multiaddrs ending in /p2p/<relay ID>, as
	// `kakure relay` prints them) through which peers behind NATs reach
	// each other, and on which invite codes live (see HostInvite); nil
	// means those of the configuration file (LoadFileConfig), empty none.
	Relays []string
	// Relay, when not nil, makes this node a kakure relay (RelayConfig).
	Relay *RelayConfig
	// DHT is DHTDefault (on unless every listen address is a loopback
	// one), DHTOn or DHTOff; DHTDefault defers to the environment
	// variable KAKURE_DHT (DHTEnv) and then to the configuration file.
	// A relay never joins the DHT.
	DHT string
	// Bootstrap are the DHT's bootstrap peers (multiaddrs ending in
	// /p2p/<ID>); nil means those of the configuration file, or else the
	// Amino DHT's (AminoBootstrapPeers); empty means none, off the DHT.
	Bootstrap []string
}

// MDNSService is the mDNS service name kakure nodes announce, so that
// they find each other and not every libp2p node on the network.
const MDNSService = "_kakure._udp"

// Node is kakure's libp2p host: it listens, dials and hands out streams
// (through Host) to protocol/. It knows nothing of games.
type Node struct {
	host host.Host
	home string
	lock *HomeLock // held from New to Close (T-16)
	mdns mdns.Service
	inet *internet
	// stopOwnCodes stops answering lookups of the codes hosted on the
	// DHT; nil when off the DHT.
	stopOwnCodes func()

	lanMu     sync.Mutex
	lanPeers  chan peer.AddrInfo
	lanClosed bool

	closeOnce sync.Once
	closeErr  error
	// closed ends when Close starts: background redials stop.
	closed      context.Context
	closeCancel context.CancelFunc
}

// closingCtx is a context that ends when the node closes.
func (n *Node) closingCtx() context.Context { return n.closed }

// New starts a node: it locks cfg.Home for this program (LockHome, T-16:
// a second program on the same home gets a *HomeInUseError naming the
// first), loads or creates the identity there (see LoadOrCreateIdentity),
// sends libp2p's logs to cfg.LogFile and listens on
// cfg.ListenAddrs with the TCP and QUIC transports, Noise and TLS for
// authenticated encryption (T-2), yamux and libp2p's resource manager with
// its default limits scaled to the machine. ctx is only checked before
// starting: nothing in New blocks. Close the node when done.
func New(ctx context.Context, cfg Config) (*Node, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	home := cfg.Home
	if home == "" {
		var err error
		if home, err = DefaultHome(); err != nil {
			return nil, err
		}
	}
	lock, err := LockHome(home)
	if err != nil {
		return nil, err
	}
	started := false
	defer func() {
		if !started {
			lock.Release()
		}
	}()
	key, err := LoadOrCreateIdentity(home)
	if err != nil {
		return nil, err
	}
	logFile := cmp.Or(cfg.LogFile, filepath.Join(home, LogFileName))
	if err := RedirectLibp2pLogs(logFile); err != nil {
		return nil, err
	}

	fileCfg, err := LoadFileConfig(home)
	if err != nil {
		return nil, err
	}
	listen := cfg.ListenAddrs
	if listen == nil {
		listen = fileCfg.Listen
	}
	if listen == nil {
		listen = DefaultListenAddrs()
	}
	relayAddrs := cfg.Relays
	if relayAddrs == nil {
		relayAddrs = fileCfg.Relays
	}
	relays, err := ParseRelayAddrs(relayAddrs)
	if err != nil {
		return nil, err
	}
	if len(listen) == 0 {
		return nil, errors.New("node: no listen addresses")
	}
	listenAddrs := make([]ma.Multiaddr, 0, len(listen))
	allLoopback := true
	for _, s := range listen {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return nil, fmt.Errorf("node: listen address %q: %w", s, err)
		}
		listenAddrs = append(listenAddrs, a)
		allLoopback = allLoopback && manet.IsIPLoopback(a)
	}

	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	mgr, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(limits.AutoScale()))
	if err != nil {
		return nil, fmt.Errorf("node: resource manager: %w", err)
	}
	opts := []libp2p.Option{
		libp2p.Identity(key),
		libp2p.ListenAddrs(listenAddrs...),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Security(libp2ptls.ID, libp2ptls.New),
		libp2p.DefaultMuxers,
		libp2p.ResourceManager(mgr),
		libp2p.DisableMetrics(),
		libp2p.UserAgent(cmp.Or(cfg.UserAgent, "kakure")),
	}
	if cfg.NATPortMap && !allLoopback {
		opts = append(opts, libp2p.NATPortMap())
	}
	n := &Node{home: home, lock: lock, lanPeers: make(chan peer.AddrInfo, 32), inet: newInternet(relays)}
	n.closed, n.closeCancel = context.WithCancel(context.Background())
	inetOpts, err := internetOptions(n, cfg, relays)
	if err != nil {
		mgr.Close()
		return nil, err
	}
	opts = append(opts, inetOpts...)
	onDHT, bootstrap, err := dhtSettings(cfg, fileCfg, allLoopback)
	if err != nil {
		mgr.Close()
		return nil, err
	}
	if onDHT {
		opts = append(opts, dhtOptions(n, bootstrap, len(relays) > 0)...)
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		mgr.Close() // libp2p closes it on some failures, not all; twice is fine
		return nil, fmt.Errorf("node: starting libp2p host: %w", err)
	}
	n.host = h
	started = true // from here n.Close releases the lock
	if err := n.startInternet(cfg); err != nil {
		n.Close()
		return nil, err
	}
	if err := n.watchReachability(); err != nil {
		n.Close()
		return nil, err
	}
	if n.inet.getDHT() != nil {
		n.stopOwnCodes = rendezvous.ServeOwnCodes(h, n.ownCodeRecord)
	}
	n.startDHT()
	if cfg.EnableMDNS {
		n.mdns = mdns.NewMdnsService(h, MDNSService, lanNotifee{n})
		if err := n.mdns.Start(); err != nil {
			n.mdns = nil
			n.Close()
			return nil, fmt.Errorf("node: starting mDNS: %w", err)
		}
	}
	addrs := make([]string, 0, len(h.Addrs()))
	for _, a := range n.Addrs() {
		addrs = append(addrs, a.String())
	}
	if err := lock.setNode(h.ID().String(), addrs); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

// ID returns the node's peer ID, the identity users see (T-1).
func (n *Node) ID() peer.ID { return n.host.ID() }

// Home returns the node's home directory.
func (n *Node) Home() string { return n.home }

// Host returns the libp2p host, for protocol/ to set stream handlers and
// open streams.
func (n *Node) Host() host.Host { return n.host }

// Addrs returns the addresses to give a peer so that it can Connect: each
// listen address, wildcards expanded to the machine's interfaces, ending
// in /p2p/ID. Public addresses come first, then private ones, then
// loopback; IPv4 before IPv6 within each kind.
func (n *Node) Addrs() []ma.Multiaddr {
	addrs, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: n.host.ID(), Addrs: n.host.Addrs()})
	if err != nil {
		return nil // only for an invalid peer ID, which a host never has
	}
	slices.SortStableFunc(addrs, func(a, b ma.Multiaddr) int { return cmp.Compare(addrRank(a), addrRank(b)) })
	return addrs
}

func addrRank(a ma.Multiaddr) int {
	rank := 2 * addrKindRank(a)
	if _, err := a.ValueForProtocol(ma.P_IP6); err == nil {
		rank++
	}
	return rank
}

func addrKindRank(a ma.Multiaddr) int {
	switch {
	case manet.IsIPLoopback(a): // before IsPrivateAddr, which includes loopback
		return 3
	case isLinkLocal(a): // likewise
		return 2
	case manet.IsPublicAddr(a):
		return 0
	case manet.IsPrivateAddr(a):
		return 1
	default: // link-local, documentation ranges, ...
		return 2
	}
}

func isLinkLocal(a ma.Multiaddr) bool {
	ip, err := manet.ToIP(a)
	return err == nil && ip.IsLinkLocalUnicast()
}

// Connect dials the peer at addr, a multiaddr ending in /p2p/<peer ID> as
// printed by `kakure id`, and returns its peer ID. Addresses that cannot
// be dialled as they are give an error wrapping ErrBadAddress.
func (n *Node) Connect(ctx context.Context, addr string) (peer.ID, error) {
	info, err := ParsePeerAddr(addr)
	if err != nil {
		return "", err
	}
	if info.ID == n.host.ID() {
		return "", fmt.Errorf("%w %q: it is this node's own address", ErrBadAddress, addr)
	}
	// A dial asked for again is tried again: the failures of earlier
	// attempts put the peer's addresses on libp2p's dial backoff, which
	// would refuse it for seconds to minutes.
	n.clearDialBackoff(info.ID)
	connLog.Info("dialling", "peer", info.ID, "addrs", info.Addrs)
	if err := n.host.Connect(ctx, info); err != nil {
		connLog.Info("dial failed", "peer", info.ID, "err", err)
		return "", fmt.Errorf("node: connecting to %s: %w", info.ID, err)
	}
	return info.ID, nil
}

// clearDialBackoff forgets the failed dials to p, so that the next dial
// tries every address at once.
func (n *Node) clearDialBackoff(p peer.ID) {
	if sw, ok := n.host.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(p)
	}
}

// ParsePeerAddr parses a multiaddr ending in /p2p/<peer ID>, such as
// /ip4/192.0.2.7/udp/4001/quic-v1/p2p/12D3KooW..., into a peer's ID and
// address. Errors wrap ErrBadAddress.
func ParsePeerAddr(addr string) (peer.AddrInfo, error) {
	if addr == "" {
		return peer.AddrInfo{}, fmt.Errorf("%w: empty address", ErrBadAddress)
	}
	a, err := ma.NewMultiaddr(addr)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("%w %q: %v", ErrBadAddress, addr, err)
	}
	info, err := peer.AddrInfoFromP2pAddr(a)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("%w %q: it does not end in /p2p/<peer ID>; use a full address as printed by `kakure id`", ErrBadAddress, addr)
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("%w %q: it names a peer but no address to reach it at", ErrBadAddress, addr)
	}
	return *info, nil
}

// LANPeers returns the channel on which the node reports kakure peers
// found on the local network by mDNS (only with Config.EnableMDNS). A
// peer may be reported more than once; reports are dropped when nobody
// reads. The channel is closed by Close. The addresses of a peer found
// are in the peerstore by the time it is reported, so that dialling it
// by its bare peer ID works (Host().Connect, protocol.Service.Invite).
func (n *Node) LANPeers() <-chan peer.AddrInfo { return n.lanPeers }

// lanAddrTTL is how long the addresses of a peer found by mDNS stay in
// the peerstore: mDNS announces them again well before (go-libp2p's
// service answers every query, and browses continuously).
var lanAddrTTL = peerstore.AddressTTL

// lanNotifee receives mDNS discoveries.
type lanNotifee struct{ n *Node }

// HandlePeerFound implements mdns.Notifee: it stores the peer's
// addresses in the peerstore, then reports the peer on LANPeers.
func (l lanNotifee) HandlePeerFound(info peer.AddrInfo) {
	n := l.n
	if info.ID == n.host.ID() || len(info.Addrs) == 0 {
		return
	}
	n.host.Peerstore().AddAddrs(info.ID, info.Addrs, lanAddrTTL)
	connLog.Info("found on the LAN", "peer", info.ID, "addrs", info.Addrs)
	n.lanMu.Lock()
	defer n.lanMu.Unlock()
	if n.lanClosed {
		return
	}
	select {
	case n.lanPeers <- info:
	default:
	}
}

// Close stops mDNS, closes every connection and the listeners, and closes
// LANPeers. Calling it again returns the first call's result.
func (n *Node) Close() error {
	n.closeOnce.Do(func() {
		n.closeCancel()
		n.closeInternet()
		if n.stopOwnCodes != nil {
			n.stopOwnCodes()
		}
		n.closeDHT()
		if n.mdns != nil {
			n.closeErr = n.mdns.Close()
		}
		if err := n.host.Close(); err != nil && n.closeErr == nil {
			n.closeErr = err
		}
		n.lanMu.Lock()
		n.lanClosed = true
		close(n.lanPeers)
		n.lanMu.Unlock()
		n.lock.Release()
	})
	return n.closeErr
}
