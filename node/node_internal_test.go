package node

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	"github.com/miekg/dns"
	ma "github.com/multiformats/go-multiaddr"
)

// TestAddrRankOrder: shared addresses list public, private, other and
// loopback addresses in that order, IPv4 first within each kind.
func TestAddrRankOrder(t *testing.T) {
	want := []string{
		"/ip4/8.8.8.8/tcp/1",
		"/ip6/2001:4860::1/tcp/1",
		"/ip4/192.168.1.5/udp/1/quic-v1",
		"/ip6/fd00::2/tcp/1",
		"/ip4/169.254.1.1/tcp/1",
		"/ip6/fe80::1/tcp/1",
		"/ip4/127.0.0.1/tcp/1",
		"/ip6/::1/tcp/1",
	}
	var addrs []ma.Multiaddr
	for i := len(want) - 1; i >= 0; i-- {
		addrs = append(addrs, ma.StringCast(want[i]))
	}
	slices.SortStableFunc(addrs, func(a, b ma.Multiaddr) int { return cmp.Compare(addrRank(a), addrRank(b)) })
	for i, a := range addrs {
		if a.String() != want[i] {
			t.Errorf("position %d: %s, want %s", i, a, want[i])
		}
	}
}

// testLAN is a lanService of n without sockets: the tests feed it mDNS
// responses as they would come off the network. mDNS itself is never
// started in tests outside namespaces: it sends multicast traffic off
// this machine.
func testLAN(n *Node) *lanService {
	s := &lanService{n: n, entries: map[peer.ID]*lanEntry{}, done: make(chan struct{})}
	n.lanMu.Lock()
	n.lan = s
	n.lanMu.Unlock()
	return s
}

// mdnsAnswer is a response announcing instance with the TXT strings of
// info's addresses, with ttl (0: a goodbye).
func mdnsAnswer(instance string, info peer.AddrInfo, ttl uint32) *dns.Msg {
	name := instance + "." + lanServiceName()
	var txt []string
	for _, a := range info.Addrs {
		txt = append(txt, dnsaddrPrefix+a.String()+"/p2p/"+info.ID.String())
	}
	m := new(dns.Msg)
	m.Response = true
	m.Answer = []dns.RR{
		&dns.PTR{Hdr: dns.RR_Header{Name: lanServiceName(), Rrtype: dns.TypePTR, Class: dns.ClassINET, Ttl: ttl}, Ptr: name},
	}
	m.Extra = []dns.RR{
		&dns.TXT{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: ttl}, Txt: txt},
	}
	return m
}

// nextLAN returns the next report of LANPeers, failing if there is none.
func nextLAN(t *testing.T, n *Node) LANPeer {
	t.Helper()
	select {
	case p := <-n.LANPeers():
		return p
	default:
		t.Fatal("nothing reported on LANPeers")
		return LANPeer{}
	}
}

// noLAN fails if something is reported on LANPeers.
func noLAN(t *testing.T, n *Node) {
	t.Helper()
	select {
	case p := <-n.LANPeers():
		t.Fatalf("reported %+v, want nothing", p)
	default:
	}
}

// TestNETD25LANListFollowsRecords: a peer announced by mDNS is reported
// once (refreshes are not reported again), with the expiry of its
// record; a failed dial marks it stale; heard of again it is fresh; its
// goodbye (TTL 0) and the expiry of its record report it gone; this
// node's own record is never reported, nor anything after Close
// (NET-D25).
func TestNETD25LANListFollowsRecords(t *testing.T) {
	n, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lan := testLAN(n)
	info := peer.AddrInfo{ID: other.ID(), Addrs: other.Host().Addrs()}
	now := time.Now()
	lan.handle(mdnsAnswer("me", peer.AddrInfo{ID: n.ID(), Addrs: n.Host().Addrs()}, 120), now)
	noLAN(t, n)
	lan.handle(mdnsAnswer("other", info, 120), now)
	got := nextLAN(t, n)
	if got.ID != other.ID() || got.Gone || got.Stale || !got.Expires.Equal(now.Add(120*time.Second)) {
		t.Fatalf("found: %+v, want %s fresh until now+120s", got, other.ID())
	}
	lan.handle(mdnsAnswer("other", info, 120), now.Add(30*time.Second))
	noLAN(t, n) // a refresh
	lan.markStale(other.ID())
	if got := nextLAN(t, n); !got.Stale || got.Gone {
		t.Errorf("after a failed dial: %+v, want stale", got)
	}
	lan.handle(mdnsAnswer("other", info, 120), now.Add(40*time.Second))
	if got := nextLAN(t, n); got.Stale || got.Gone {
		t.Errorf("heard of again: %+v, want fresh", got)
	}
	lan.handle(mdnsAnswer("other", info, 0), now.Add(50*time.Second))
	if got := nextLAN(t, n); !got.Gone || got.ID != other.ID() {
		t.Errorf("after its goodbye: %+v, want gone", got)
	}
	// Found again, then silent: gone when its record expires, not before.
	lan.handle(mdnsAnswer("other2", info, 5), now)
	nextLAN(t, n)
	lan.expire(now.Add(4 * time.Second))
	noLAN(t, n)
	lan.expire(now.Add(5 * time.Second))
	if got := nextLAN(t, n); !got.Gone {
		t.Errorf("after its record expired: %+v, want gone", got)
	}
	// Reports beyond the buffer are dropped, not blocking.
	for i := range cap(n.lanPeers) + 5 {
		lan.handle(mdnsAnswer(fmt.Sprint("x", i), info, 120), now)
		lan.handle(mdnsAnswer(fmt.Sprint("x", i), info, 0), now)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	lan.handle(mdnsAnswer("late", info, 120), now)
}

// TestLANPeerDialledByID: a peer found by mDNS is reached by its bare peer
// ID, as the lobby's ^P, Enter invites it: the addresses mDNS brought are
// in the peerstore before the peer is reported. Real hosts on loopback;
// mDNS itself is not started (see TestNETD25LANListFollowsRecords).
func TestLANPeerDialledByID(t *testing.T) {
	n, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	other, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if known := n.Host().Peerstore().Addrs(other.ID()); len(known) != 0 {
		t.Fatalf("addresses known before the peer was found: %v; the test proves nothing", known)
	}
	testLAN(n).handle(mdnsAnswer("other", peer.AddrInfo{ID: other.ID(), Addrs: other.Host().Addrs()}, 120), time.Now())
	got := <-n.LANPeers()
	if got.ID != other.ID() {
		t.Fatalf("LANPeers gave %s, want %s", got.ID, other.ID())
	}
	if known := n.Host().Peerstore().Addrs(other.ID()); len(known) != len(other.Host().Addrs()) {
		t.Errorf("peerstore holds %v, want the %d addresses found", known, len(other.Host().Addrs()))
	}
	if err := n.ConnectPeer(t.Context(), other.ID()); err != nil {
		t.Fatalf("dialling the peer found on the LAN by its ID: %v", err)
	}
}

// TestLANPeerStaleAfterFailedDial: a LAN peer whose dial fails (its
// program stopped without a goodbye) is reported stale, and the failure
// says the peer does not answer (NET-D25, NET-D22).
func TestLANPeerStaleAfterFailedDial(t *testing.T) {
	n, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	other, err := New(t.Context(), Config{Home: t.TempDir(), ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	info := peer.AddrInfo{ID: other.ID(), Addrs: other.Host().Addrs()}
	other.Close()
	testLAN(n).handle(mdnsAnswer("other", info, 120), time.Now())
	nextLAN(t, n)
	err = n.ConnectPeer(t.Context(), other.ID())
	if f := AsFailure(err); f == nil || f.Kind != FailPeerOffline {
		t.Fatalf("ConnectPeer to a stopped LAN peer: %v, want FailPeerOffline", err)
	}
	if got := nextLAN(t, n); !got.Stale || got.ID != other.ID() {
		t.Errorf("after the failed dial: %+v, want stale", got)
	}
}

// TestNETD28RedialPace: a lost peer is redialled 1 s after the first
// try, then every 2 to 3 s, never in step with a peer that redials at the
// same pace (the pauses vary), and every 15 s once it has been lost for
// 15 minutes.
func TestNETD28RedialPace(t *testing.T) {
	if got := redialPauseAfter(1, 0); got != time.Second {
		t.Errorf("after the first try: %s, want 1s", got)
	}
	seen := map[time.Duration]bool{}
	for try := 2; try < 200; try++ {
		got := redialPauseAfter(try, time.Duration(try)*2*time.Second)
		if got < 2*time.Second || got >= 3*time.Second {
			t.Fatalf("after try %d: %s, want 2s to 3s", try, got)
		}
		seen[got] = true
	}
	if len(seen) < 100 {
		t.Errorf("%d different pauses in 198 tries: they should vary", len(seen))
	}
	if got := redialPauseAfter(500, 15*time.Minute); got != 15*time.Second {
		t.Errorf("after 15 minutes: %s, want 15s", got)
	}
}

// TestNETD28RenewalsAreNodeWide: while peers are lost, the node renews
// its relay reservations once a lookup pause, however many peers it
// looks up: a second lost peer's lookup in the same pause renews nothing,
// and the next pause's lookup renews again.
func TestNETD28RenewalsAreNodeWide(t *testing.T) {
	in := newInternet(nil)
	t0 := time.Unix(1000, 0)
	steps := []struct {
		at   time.Duration
		want bool
	}{
		{0, true},                      // the first lost peer's lookup
		{3 * time.Second, false},       // a second lost peer's, in the same pause
		{lookupPause * 7 / 10, false},  // still within the pause (less its slack)
		{lookupPause * 21 / 20, true},  // the first peer's next lookup
		{lookupPause * 14 / 10, false}, // the second peer's next
		{lookupPause * 21 / 10, true},  // and the first's again
		{lookupPause * 25 / 10, false}, // the second's again
		{lookupPause * 40 / 10, true},  // one peer left, after a longer pause
	}
	for _, s := range steps {
		if got := in.renewalDue(t0.Add(s.at), lookupPause); got != s.want {
			t.Errorf("renewal due at %s: %v, want %v", s.at, got, s.want)
		}
	}
}

// TestNETD28RedialStateSaysWhen: the state shown between redials says
// when the next try comes, and "trying again" rather than "next in 0s"
// when a try took longer than the pause.
func TestNETD28RedialStateSaysWhen(t *testing.T) {
	for _, tc := range []struct {
		try  int
		wait time.Duration
		want string
	}{
		{1, time.Second, "reconnecting: the 1st try failed, next in 1s"},
		{6, 2200 * time.Millisecond, "reconnecting: the 6th try failed, next in 2.2s"},
		{7, 0, "reconnecting: the 7th try failed, trying again"},
	} {
		if got := redialState(tc.try, tc.wait); got != tc.want {
			t.Errorf("redialState(%d, %s) = %q, want %q", tc.try, tc.wait, got, tc.want)
		}
	}
}

// TestNETD29BackgroundProtocols: the streams that carry no game — libp2p's
// own, GossipSub's (the spectators' publications), one not negotiated
// yet — neither make a connection the game's nor keep a relayed one
// open beside a direct one; kakure's game and rendezvous streams do
// (NET-D29). With GossipSub's stream counted as a game's, a hole-punched
// game was reported relayed and its relayed connection kept
// (TestInternetPlay, TestCutResumesThroughNATs).
func TestNETD29BackgroundProtocols(t *testing.T) {
	for id, want := range map[string]bool{
		"":                                true,
		"/ipfs/id/1.0.0":                  true,
		"/ipfs/ping/1.0.0":                true,
		"/libp2p/dcutr":                   true,
		"/libp2p/circuit/relay/0.2.0/hop": true,
		"/meshsub/1.2.0":                  true,
		"/meshsub/1.1.0":                  true,
		"/floodsub/1.0.0":                 true,
		"/kakure/watch-backlog/1.0.0":     true,
		"/kakure/watch-games/1.0.0":       true,
		"/kakure/game/1.1.0":              false,
		"/kakure/rendezvous/1.0.0":        false,
	} {
		if got := isBackgroundProtocol(protocol.ID(id)); got != want {
			t.Errorf("isBackgroundProtocol(%q) = %v, want %v", id, got, want)
		}
	}
}
