package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
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
	// Passphrase, when not nil, is asked for the passphrase of the
	// identity key at path when the key is under one (kakure id
	// --protect; cmd/kakure asks on the terminal). Nil: a protected key
	// is refused with an error wrapping ErrNoPassphrase.
	Passphrase func(path string) ([]byte, error)
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
	// A relay serves the DHT unless DHT is DHTOff, whatever the
	// environment and the file say (NET-D26).
	DHT string
	// Bootstrap are the DHT's bootstrap peers (multiaddrs ending in
	// /p2p/<ID>); nil means those of the configuration file, or else the
	// Amino DHT's (AminoBootstrapPeers); empty means none, off the DHT.
	// A relay takes these alone: none makes it a DHT of its own.
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
	lock *HomeLock   // held from New to Close (T-16)
	lan  *lanService // with EnableMDNS
	inet *internet
	// book keeps held peers' addresses across restarts (NET-D40).
	book *addrBook
	// stopOwnCodes stops answering lookups of the codes hosted on the
	// DHT; nil when off the DHT.
	stopOwnCodes func()

	lanMu     sync.Mutex
	lanPeers  chan LANPeer
	lanClosed bool

	// loopbackOnly says the node listens on loopback addresses only;
	// localPeers are the peers known to run on this machine (gater.go).
	// localMu guards both: the swarm's dials read them on its own
	// goroutines.
	loopbackOnly bool
	localMu      sync.Mutex
	localPeers   map[peer.ID]bool

	// notices carries the Notices; noticed is when the last one about
	// each peer was reported.
	notices  chan Notice
	noticeMu sync.Mutex
	noticed  map[peer.ID]time.Time

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
	key, err := LoadOrCreateIdentity(home, cfg.Passphrase)
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
	listenAddrs, allLoopback, relays, err := nodeAddresses(cfg, fileCfg)
	if err != nil {
		return nil, err
	}

	if err := checkListenFree(listenAddrs); err != nil {
		return nil, err
	}

	mgr, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(ResourceLimits()))
	if err != nil {
		return nil, fmt.Errorf("node: resource manager: %w", err)
	}
	opts := hostOptions(cfg, key, listenAddrs, mgr, allLoopback)
	n := &Node{home: home, lock: lock, book: newAddrBook(home), lanPeers: make(chan LANPeer, 32), inet: newInternet(relays),
		notices: make(chan Notice, 16), noticed: map[peer.ID]time.Time{}, loopbackOnly: allLoopback, localPeers: map[peer.ID]bool{}}
	opts = append(opts, libp2p.ConnectionGater(localGater{n}))
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
		opts = append(opts, dhtOptions(n, bootstrap, len(relays) > 0, cfg.Relay != nil)...)
	}
	// Relays and bootstrap peers configured at loopback addresses are
	// dialled there (the user gave them).
	for _, info := range append(slices.Clone(relays), bootstrap...) {
		n.markAddrsGiven(info)
	}
	h, err := libp2p.New(opts...)
	if err != nil {
		mgr.Close() // libp2p closes it on some failures, not all; twice is fine
		return nil, fmt.Errorf("node: starting libp2p host: %w", err)
	}
	n.host = h
	started = true // from here n.Close releases the lock
	if err := n.startServices(cfg); err != nil {
		return nil, err
	}
	return n, nil
}

// nodeAddresses are the addresses the node listens on (cfg's, else the
// configuration file's, else the defaults), whether all are loopback
// ones, and its relays (cfg's, else the configuration file's).
func nodeAddresses(cfg Config, fileCfg FileConfig) ([]ma.Multiaddr, bool, []peer.AddrInfo, error) {
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
		return nil, false, nil, err
	}
	if len(listen) == 0 {
		return nil, false, nil, errors.New("node: no listen addresses")
	}
	listenAddrs := make([]ma.Multiaddr, 0, len(listen))
	allLoopback := true
	for _, s := range listen {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return nil, false, nil, fmt.Errorf("node: listen address %q: %w", s, err)
		}
		listenAddrs = append(listenAddrs, a)
		allLoopback = allLoopback && manet.IsIPLoopback(a)
	}
	return listenAddrs, allLoopback, relays, nil
}

// hostOptions are the libp2p host's options: its identity, listen
// addresses, transports, security, muxers, resource manager and user
// agent, and NAT port mapping when asked and not all loopback.
func hostOptions(cfg Config, key crypto.PrivKey, listenAddrs []ma.Multiaddr, mgr network.ResourceManager, allLoopback bool) []libp2p.Option {
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
	return opts
}

// startServices starts what runs on the started host: the internet's
// relays and reachability, the service of its own invite codes and of
// guests with no path, the DHT, mDNS; then it writes the node's ID and
// addresses in the home's lock. On an error the node is closed.
func (n *Node) startServices(cfg Config) error {
	h, lock := n.host, n.lock
	if err := n.startInternet(cfg); err != nil {
		n.Close()
		return err
	}
	if err := n.watchReachability(); err != nil {
		n.Close()
		return err
	}
	if n.inet.getDHT() != nil && cfg.Relay == nil {
		n.stopOwnCodes = rendezvous.ServeOwnCodes(h, n.ownCodeRecord)
	}
	if cfg.Relay == nil {
		n.serveNoPath()
	}
	n.startDHT()
	if cfg.EnableMDNS {
		lan, err := startLAN(n)
		if err != nil {
			n.Close()
			return fmt.Errorf("node: starting mDNS: %w", err)
		}
		n.lanMu.Lock()
		n.lan = lan
		n.lanMu.Unlock()
	}
	addrs := make([]string, 0, len(h.Addrs()))
	for _, a := range n.Addrs() {
		addrs = append(addrs, a.String())
	}
	if err := lock.setNode(h.ID().String(), addrs); err != nil {
		n.Close()
		return err
	}
	return nil
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
// printed by `kakure id`, and returns its peer ID. Its failures are
// *Failure (NET-D22): FailConfig wrapping ErrBadAddress for an address
// that cannot be dialled as it is, or the class of the failed dial
// (FailPeerOffline, FailPeerMismatch, FailNoInternet, FailCut ...).
func (n *Node) Connect(ctx context.Context, addr string) (peer.ID, error) {
	info, err := ParsePeerAddr(addr)
	if err != nil {
		return "", badAddressFailure(err)
	}
	if info.ID == n.host.ID() {
		return "", badAddressFailure(fmt.Errorf("%w %q: it is this node's own address", ErrBadAddress, addr))
	}
	// The user gave this address: a loopback one is dialled too (see
	// localPeers).
	n.markAddrsGiven(info)
	// A dial asked for again is tried again: the failures of earlier
	// attempts put the peer's addresses on libp2p's dial backoff, which
	// would refuse it for seconds to minutes.
	n.clearDialBackoff(info.ID)
	connLog.Info("dialling", "peer", info.ID, "addrs", info.Addrs)
	if err := n.host.Connect(ctx, info); err != nil {
		connLog.Info("dial failed", "peer", info.ID, "err", err)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", peerDialFailure(fmt.Errorf("node: connecting to %s: %w", info.ID, err), info.ID, shortID(info.ID))
	}
	return info.ID, nil
}

// ConnectPeer dials p, known by its peer ID alone, at the addresses the
// node knows for it (found on the LAN, learnt in an earlier game, given
// before), unless it is connected already. Its failures are *Failure, as
// Connect's; FailPeerOffline when no address of p is known.
func (n *Node) ConnectPeer(ctx context.Context, p peer.ID) error {
	if p == n.host.ID() {
		return fail(FailConfig, fmt.Errorf("%w: it is this node's own peer ID", ErrBadAddress), "that is this program's own peer ID")
	}
	if n.host.Network().Connectedness(p) == network.Connected {
		return nil
	}
	addrs := n.host.Peerstore().Addrs(p)
	if len(addrs) == 0 {
		return fail(FailPeerOffline, fmt.Errorf("node: no address known for %s", p),
			"no address is known for %s: give its full address (…/p2p/ID, as kakure id prints it), or find it on the LAN", shortID(p))
	}
	n.clearDialBackoff(p)
	connLog.Info("dialling", "peer", p, "addrs", addrs)
	if err := n.host.Connect(ctx, peer.AddrInfo{ID: p}); err != nil {
		connLog.Info("dial failed", "peer", p, "err", err)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		n.lanDialFailed(p)
		return peerDialFailure(fmt.Errorf("node: connecting to %s: %w", p, err), p, shortID(p))
	}
	return nil
}

// badAddressFailure is a bad address as a Failure: its own words say
// what is wrong.
func badAddressFailure(err error) *Failure {
	s := err.Error()
	s = strings.TrimPrefix(s, ErrBadAddress.Error()+" ")
	return fail(FailConfig, err, "bad peer address %s", s)
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

// LANPeers returns the channel on which the node reports the changes of
// the kakure peers on the local network, found by mDNS (only with
// Config.EnableMDNS, NET-D25): a peer found, or found again after a
// failed dial; its addresses changed; marked Stale after a failed dial;
// Gone when it said goodbye or its record expired. Reports are dropped
// when nobody reads. The channel is closed by Close. The addresses of a
// peer found are in the peerstore by the time it is reported, until its
// record expires, so that dialling it by its bare peer ID works
// (ConnectPeer, Host().Connect, protocol.Service.Invite).
func (n *Node) LANPeers() <-chan LANPeer { return n.lanPeers }

// reportLAN reports a change of the LAN's peers on LANPeers, unless the
// node is closed or nobody reads.
func (n *Node) reportLAN(p LANPeer) {
	n.lanMu.Lock()
	defer n.lanMu.Unlock()
	if n.lanClosed {
		return
	}
	select {
	case n.lanPeers <- p:
	default:
	}
}

// lanDialFailed marks p stale on the LAN's list after a failed dial.
func (n *Node) lanDialFailed(p peer.ID) {
	n.lanMu.Lock()
	lan := n.lan
	n.lanMu.Unlock()
	if lan != nil {
		lan.markStale(p)
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
		n.lanMu.Lock()
		lan := n.lan
		n.lanMu.Unlock()
		if lan != nil {
			lan.close()
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
