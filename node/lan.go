package node

import (
	"crypto/rand"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/zeroconf/v2"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
)

// Peers on the LAN (NET-D25 in docs/internet.md). A node with EnableMDNS
// announces itself by mDNS (DNS-SD service MDNSService, as go-libp2p's
// mdns package does: one TXT string "dnsaddr=ADDR/p2p/ID" per address,
// so that older kakure programs and this one find each other) and
// browses for the others with its own mDNS client, which keeps what
// go-libp2p's leaves out: each record's lifetime. A peer found stays on
// the list while its record lives (lanRecordTTL for this program's,
// whatever TTL another announces), is refreshed by every answer heard,
// and leaves the list when its record expires or when it says goodbye
// (a record with TTL 0, sent when its program closes its node); a dial
// to it that fails marks it stale until it is heard of again. LANPeers
// carries each change.

// lanRecordTTL is the TTL of the mDNS records this node announces: how
// long a peer that vanished without a goodbye (killed, unplugged) stays
// on the others' lists. RFC 6762 advises 120 s for records tied to a
// host's addresses.
const lanRecordTTL = 120

// lanQueryEvery is how often the browser asks again for the peers on the
// LAN: well within lanRecordTTL, so that a live peer's record never
// lapses; the first queries go at 0, 1 and 3 s.
const lanQueryEvery = 40 * time.Second

// lanAddrGrace is how long past its record's expiry a LAN peer's
// addresses stay in the peerstore.
const lanAddrGrace = 10 * time.Second

// LANPeer is a kakure peer on the local network, as mDNS tells of it.
type LANPeer struct {
	peer.AddrInfo
	// Expires is when its record expires unless announced again.
	Expires time.Time
	// Gone means it left: it said goodbye or its record expired.
	Gone bool
	// Stale means a dial to it failed since it was last heard of.
	Stale bool
}

// lanEntry is what the browser knows of a peer on the LAN.
type lanEntry struct {
	instance string
	addrs    []ma.Multiaddr
	expires  time.Time
	stale    bool
}

// lanService announces the node and browses for the others.
type lanService struct {
	n      *Node
	server *zeroconf.Server
	p4     *ipv4.PacketConn
	p6     *ipv6.PacketConn
	ifaces []net.Interface

	mu      sync.Mutex
	entries map[peer.ID]*lanEntry

	done chan struct{}
	wg   sync.WaitGroup
}

// lanServiceName and lanDomain name the records: "_kakure._udp.local.".
const lanDomain = "local"

func lanServiceName() string { return MDNSService + "." + lanDomain + "." }

// startLAN starts announcing n and browsing.
func startLAN(n *Node) (*lanService, error) {
	s := &lanService{n: n, entries: map[peer.ID]*lanEntry{}, done: make(chan struct{})}
	if err := s.announce(); err != nil {
		return nil, err
	}
	s.ifaces = multicastInterfaces()
	s.p4 = joinMDNS4(s.ifaces)
	s.p6 = joinMDNS6(s.ifaces)
	if s.p4 == nil && s.p6 == nil {
		s.server.Shutdown()
		return nil, fmt.Errorf("node: mDNS: no interface joined the multicast group")
	}
	if s.p4 != nil {
		s.wg.Go(func() { s.receive(func(b []byte) (int, error) { n, _, _, err := s.p4.ReadFrom(b); return n, err }) })
	}
	if s.p6 != nil {
		s.wg.Go(func() { s.receive(func(b []byte) (int, error) { n, _, _, err := s.p6.ReadFrom(b); return n, err }) })
	}
	s.wg.Go(s.loop)
	return s, nil
}

// announce registers this node's record.
func (s *lanService) announce() error {
	h := s.n.host
	addrs, err := h.Network().InterfaceListenAddresses()
	if err != nil {
		return fmt.Errorf("node: mDNS: %w", err)
	}
	var txts, ips []string
	for _, a := range RemoteAddrs(addrs) {
		first, _ := ma.SplitFirst(a)
		if first == nil || (first.Protocol().Code != ma.P_IP4 && first.Protocol().Code != ma.P_IP6) || isCircuitAddr(a) {
			continue
		}
		txts = append(txts, dnsaddrPrefix+a.String()+"/p2p/"+h.ID().String())
		if !slices.Contains(ips, first.Value()) {
			ips = append(ips, first.Value())
		}
	}
	if len(ips) == 0 {
		ips = []string{"127.0.0.1"} // the records want an address
	}
	name := randomInstanceName()
	server, err := zeroconf.RegisterProxy(name, MDNSService, lanDomain, 4001, name, ips, txts, nil, zeroconf.TTL(lanRecordTTL))
	if err != nil {
		return fmt.Errorf("node: mDNS: %w", err)
	}
	s.server = server
	return nil
}

// dnsaddrPrefix starts each TXT string of an address.
const dnsaddrPrefix = "dnsaddr="

// randomInstanceName returns a random instance name of 32 to 63
// letters and digits, as go-libp2p's mdns draws.
func randomInstanceName() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [64]byte
	rand.Read(b[:])
	n := 32 + int(b[0])%32
	out := make([]byte, n)
	for i := range out {
		out[i] = alphabet[int(b[i+1])%len(alphabet)]
	}
	return string(out)
}

// close says goodbye and stops browsing.
func (s *lanService) close() {
	close(s.done)
	if s.server != nil {
		s.server.Shutdown() // multicasts the records with TTL 0: the goodbye
	}
	if s.p4 != nil {
		s.p4.Close()
	}
	if s.p6 != nil {
		s.p6.Close()
	}
	s.wg.Wait()
}

// loop queries for the peers at 0, 1 and 3 s, then every lanQueryEvery,
// and drops the peers whose record expired, every second.
func (s *lanService) loop() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	start := time.Now()
	next := start
	sent := 0
	for {
		now := time.Now()
		if !now.Before(next) {
			s.query()
			sent++
			switch sent {
			case 1:
				next = start.Add(time.Second)
			case 2:
				next = start.Add(3 * time.Second)
			default:
				next = now.Add(lanQueryEvery)
			}
		}
		s.expire(now)
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
	}
}

// query multicasts a PTR question for the service on every interface.
func (s *lanService) query() {
	m := new(dns.Msg)
	m.SetQuestion(lanServiceName(), dns.TypePTR)
	m.RecursionDesired = false
	b, err := m.Pack()
	if err != nil {
		return
	}
	for _, ifi := range s.ifaces {
		if s.p4 != nil {
			s.p4.SetMulticastInterface(&ifi)
			s.p4.WriteTo(b, nil, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353})
		}
		if s.p6 != nil {
			s.p6.SetMulticastInterface(&ifi)
			s.p6.WriteTo(b, nil, &net.UDPAddr{IP: net.ParseIP("ff02::fb"), Port: 5353})
		}
	}
}

// receive reads mDNS packets until the socket closes.
func (s *lanService) receive(read func([]byte) (int, error)) {
	buf := make([]byte, 65536)
	for {
		n, err := read(buf)
		if err != nil {
			select {
			case <-s.done:
				return
			default:
			}
			if ne, ok := err.(net.Error); ok && !ne.Timeout() && strings.Contains(err.Error(), "closed") {
				return
			}
			continue
		}
		var m dns.Msg
		if m.Unpack(buf[:n]) != nil || !m.Response {
			continue
		}
		s.handle(&m, time.Now())
	}
}

// handle takes in the records of a response: for each instance of the
// service, its TXT record's addresses and lifetime.
func (s *lanService) handle(m *dns.Msg, now time.Time) {
	suffix := "." + lanServiceName()
	type heard struct {
		txt    []string
		ttl    uint32
		hasTXT bool
		bye    bool // a PTR with TTL 0
	}
	instances := map[string]*heard{}
	get := func(name string) *heard {
		h := instances[name]
		if h == nil {
			h = &heard{}
			instances[name] = h
		}
		return h
	}
	for _, rr := range slices.Concat(m.Answer, m.Ns, m.Extra) {
		switch rr := rr.(type) {
		case *dns.PTR:
			if strings.EqualFold(rr.Hdr.Name, lanServiceName()) && rr.Hdr.Ttl == 0 {
				get(rr.Ptr).bye = true
			}
		case *dns.TXT:
			if strings.HasSuffix(strings.ToLower(rr.Hdr.Name), suffix) {
				h := get(rr.Hdr.Name)
				h.txt, h.ttl, h.hasTXT = rr.Txt, rr.Hdr.Ttl, true
			}
		}
	}
	for instance, h := range instances {
		if h.bye || (h.hasTXT && h.ttl == 0) {
			s.gone(instance, now)
			continue
		}
		if !h.hasTXT {
			continue
		}
		for _, info := range parseDNSAddrs(h.txt) {
			s.found(instance, info, now.Add(time.Duration(h.ttl)*time.Second))
		}
	}
}

// parseDNSAddrs reads the peers of TXT strings "dnsaddr=ADDR/p2p/ID".
func parseDNSAddrs(txt []string) []peer.AddrInfo {
	var addrs []ma.Multiaddr
	for _, t := range txt {
		if !strings.HasPrefix(t, dnsaddrPrefix) {
			continue
		}
		a, err := ma.NewMultiaddr(t[len(dnsaddrPrefix):])
		if err != nil {
			continue
		}
		addrs = append(addrs, a)
	}
	infos, err := peer.AddrInfosFromP2pAddrs(addrs...)
	if err != nil {
		return nil
	}
	return infos
}

// found records that instance announced info until expires, stores its
// addresses in the peerstore until then, and reports the peer when it is
// new, changed, or stale no more.
func (s *lanService) found(instance string, info peer.AddrInfo, expires time.Time) {
	n := s.n
	if info.ID == n.host.ID() || len(info.Addrs) == 0 {
		return
	}
	n.host.Peerstore().AddAddrs(info.ID, info.Addrs, time.Until(expires)+lanAddrGrace)
	s.mu.Lock()
	e := s.entries[info.ID]
	report := e == nil || e.stale || !sameAddrs(e.addrs, info.Addrs)
	if e == nil {
		e = &lanEntry{}
		s.entries[info.ID] = e
		connLog.Info("found on the LAN", "peer", info.ID, "addrs", info.Addrs, "expires", expires.Format(time.TimeOnly))
	}
	e.instance, e.addrs, e.expires, e.stale = instance, info.Addrs, expires, false
	s.mu.Unlock()
	if report {
		n.reportLAN(LANPeer{AddrInfo: info, Expires: expires})
	}
}

// gone drops the peer of instance: it said goodbye.
func (s *lanService) gone(instance string, now time.Time) {
	s.drop(now, "left the LAN (goodbye)", func(e *lanEntry) bool { return e.instance == instance })
}

// expire drops the peers whose record expired by now.
func (s *lanService) expire(now time.Time) {
	s.drop(now, "left the LAN (record expired)", func(e *lanEntry) bool { return !e.expires.After(now) })
}

// drop takes the peers whose entry leaving says off the list, logs why
// and reports each gone.
func (s *lanService) drop(now time.Time, why string, leaving func(*lanEntry) bool) {
	s.mu.Lock()
	var left []peer.ID
	for p, e := range s.entries {
		if leaving(e) {
			left = append(left, p)
			delete(s.entries, p)
		}
	}
	s.mu.Unlock()
	for _, p := range left {
		connLog.Info(why, "peer", p)
		s.n.reportLAN(LANPeer{AddrInfo: peer.AddrInfo{ID: p}, Expires: now, Gone: true})
	}
}

// markStale marks p stale after a failed dial, and reports it, when p
// is on the list.
func (s *lanService) markStale(p peer.ID) {
	s.mu.Lock()
	e := s.entries[p]
	if e == nil || e.stale {
		s.mu.Unlock()
		return
	}
	e.stale = true
	lp := LANPeer{AddrInfo: peer.AddrInfo{ID: p, Addrs: e.addrs}, Expires: e.expires, Stale: true}
	s.mu.Unlock()
	connLog.Info("LAN peer stale: a dial failed", "peer", p)
	s.n.reportLAN(lp)
}

func sameAddrs(a, b []ma.Multiaddr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// multicastInterfaces returns the interfaces that are up and multicast.
func multicastInterfaces() []net.Interface {
	all, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []net.Interface
	for _, ifi := range all {
		if ifi.Flags&net.FlagUp != 0 && ifi.Flags&net.FlagMulticast != 0 {
			out = append(out, ifi)
		}
	}
	return out
}

// joinMDNS4 listens on the mDNS port and joins its IPv4 group on ifaces;
// nil when it cannot.
func joinMDNS4(ifaces []net.Interface) *ipv4.PacketConn {
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(224, 0, 0, 0), Port: 5353})
	if err != nil {
		return nil
	}
	p := ipv4.NewPacketConn(c)
	joined := 0
	for _, ifi := range ifaces {
		if p.JoinGroup(&ifi, &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251)}) == nil {
			joined++
		}
	}
	if joined == 0 {
		p.Close()
		return nil
	}
	p.SetMulticastTTL(255)
	return p
}

// joinMDNS6 is joinMDNS4 for IPv6.
func joinMDNS6(ifaces []net.Interface) *ipv6.PacketConn {
	c, err := net.ListenUDP("udp6", &net.UDPAddr{IP: net.ParseIP("ff02::"), Port: 5353})
	if err != nil {
		return nil
	}
	p := ipv6.NewPacketConn(c)
	joined := 0
	for _, ifi := range ifaces {
		if p.JoinGroup(&ifi, &net.UDPAddr{IP: net.ParseIP("ff02::fb")}) == nil {
			joined++
		}
	}
	if joined == 0 {
		p.Close()
		return nil
	}
	p.SetMulticastHopLimit(255)
	return p
}
