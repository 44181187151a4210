package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	ma "github.com/multiformats/go-multiaddr"
)

// Faults injected in user space (the kernel here has no netem): a TCP
// proxy that delays every byte and can cut its connections, and a UDP
// proxy that delays and drops datagrams, for QUIC. Both listen on
// loopback and forward to loopback.

// tcpFaultProxy forwards TCP connections to target, delaying each
// direction by oneWay.
type tcpFaultProxy struct {
	ln     net.Listener
	target string
	oneWay time.Duration

	mu    sync.Mutex
	conns []net.Conn
	cuts  atomic.Int64
}

func startTCPFaultProxy(t *testing.T, target string, oneWay time.Duration) *tcpFaultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpFaultProxy{ln: ln, target: target, oneWay: oneWay}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	return p
}

func (p *tcpFaultProxy) serve(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, client, server)
	p.mu.Unlock()
	go delayedCopy(server, client, p.oneWay)
	go delayedCopy(client, server, p.oneWay)
}

// cut closes every connection through the proxy, as a broken link
// would; new connections still go through.
func (p *tcpFaultProxy) cut() {
	p.mu.Lock()
	conns := p.conns
	p.conns = nil
	p.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
	p.cuts.Add(1)
}

// port returns the proxy's port.
func (p *tcpFaultProxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// delayedCopy copies src to dst, each chunk delivered oneWay after it was
// read, in order. It closes both when either side fails.
func delayedCopy(dst, src net.Conn, oneWay time.Duration) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	queue := make(chan chunk, 4096)
	go func() {
		defer close(queue)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				queue <- chunk{buf[:n], time.Now().Add(oneWay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range queue {
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.b); err != nil {
			break
		}
	}
	dst.Close()
	src.Close()
}

// udpFaultProxy forwards UDP datagrams to target, delaying each by oneWay
// and dropping a share loss of them, in both directions.
type udpFaultProxy struct {
	pc     *net.UDPConn
	target *net.UDPAddr
	oneWay time.Duration
	loss   float64

	mu       sync.Mutex
	rng      *rand.Rand
	sessions map[string]*net.UDPConn

	passed, dropped atomic.Int64
}

func startUDPFaultProxy(t *testing.T, target *net.UDPAddr, oneWay time.Duration, loss float64, seed uint64) *udpFaultProxy {
	t.Helper()
	pc, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	p := &udpFaultProxy{pc: pc, target: target, oneWay: oneWay, loss: loss, rng: rand.New(rand.NewPCG(seed, 1)), sessions: map[string]*net.UDPConn{}}
	t.Cleanup(func() {
		pc.Close()
		p.mu.Lock()
		for _, s := range p.sessions {
			s.Close()
		}
		p.mu.Unlock()
	})
	go func() {
		buf := make([]byte, 65536)
		for {
			n, from, err := pc.ReadFromUDP(buf)
			if err != nil {
				return
			}
			up, err := p.session(from)
			if err != nil {
				continue
			}
			p.deliver(buf[:n], func(b []byte) { up.Write(b) })
		}
	}()
	return p
}

// session returns the upstream socket of a client, starting it on its
// first datagram.
func (p *udpFaultProxy) session(client *net.UDPAddr) (*net.UDPConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if up, ok := p.sessions[client.String()]; ok {
		return up, nil
	}
	up, err := net.DialUDP("udp", nil, p.target)
	if err != nil {
		return nil, err
	}
	p.sessions[client.String()] = up
	go func() {
		buf := make([]byte, 65536)
		for {
			n, err := up.Read(buf)
			if err != nil {
				return
			}
			p.deliver(buf[:n], func(b []byte) { p.pc.WriteToUDP(b, client) })
		}
	}()
	return up, nil
}

// deliver sends a copy of b with send after oneWay, unless it is dropped.
func (p *udpFaultProxy) deliver(b []byte, send func([]byte)) {
	p.mu.Lock()
	drop := p.rng.Float64() < p.loss
	p.mu.Unlock()
	if drop {
		p.dropped.Add(1)
		return
	}
	p.passed.Add(1)
	c := append([]byte(nil), b...)
	time.AfterFunc(p.oneWay, func() { send(c) })
}

func (p *udpFaultProxy) port() int { return p.pc.LocalAddr().(*net.UDPAddr).Port }

// faultPeers starts two peers on loopback, listen being the listen
// multiaddr of both (TCP or QUIC).
func faultPeers(t *testing.T, listen string) [2]*peerHandle {
	t.Helper()
	var peers [2]*peerHandle
	for i := range peers {
		p, err := startPeer(t.Context(), t.TempDir(), []string{listen}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.close)
		peers[i] = p
	}
	return peers
}

// playThrough plays one game of o between the peers, the first having
// connected to the second through a proxy, and reports the round trip and
// the time per message.
func playThrough(t *testing.T, peers [2]*peerHandle, o engine.Options) {
	t.Helper()
	ctx := t.Context()
	rtt, err := peers[0].node.Ping(ctx, peers[1].node.ID())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, g, err := playMatchGame(ctx, peers, o, randomPlayers(7), 2*time.Minute)
	if err != nil {
		t.Fatalf("%s %dx%d: %v", o.Variant, o.Size, o.Size, err)
	}
	if out.Violation != nil {
		t.Fatalf("%s: violation %v", o.Variant, out.Violation)
	}
	tr := g.Transcript()
	if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome == nil {
		t.Errorf("%s: the record does not verify: %+v", o.Variant, rep)
	}
	d := time.Since(start)
	t.Logf("%s %dx%d: rtt %s, %s, %d messages in %.2fs: %.1fms per message",
		o.Variant, o.Size, o.Size, rtt.Round(time.Millisecond), out.Result, len(tr.Messages), d.Seconds(),
		float64(d.Milliseconds())/float64(len(tr.Messages)))
}

// TestLatency100ms plays plain Go 9×9 and F-Go 5×5 over TCP with 100 ms
// of round trip added.
func TestLatency100ms(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games with 100 ms round trips")
	}
	t.Parallel()
	peers := faultPeers(t, "/ip4/127.0.0.1/tcp/0")
	target := addrPort(t, peers[1], ma.P_TCP)
	proxy := startTCPFaultProxy(t, target, 50*time.Millisecond)
	if _, err := peers[0].node.Connect(t.Context(), fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", proxy.port(), peers[1].node.ID())); err != nil {
		t.Fatal(err)
	}
	if rtt, err := peers[0].node.Ping(t.Context(), peers[1].node.ID()); err != nil || rtt < 100*time.Millisecond {
		t.Fatalf("round trip through the proxy %v, %v: the proxy is not in the path", rtt, err)
	}
	for _, o := range []engine.Options{{Variant: engine.VariantGo, Size: 9}, {Variant: engine.VariantFGo, Size: 5}} {
		playThrough(t, peers, o)
	}
}

// TestQUICLoss plays plain Go 9×9 and F-Go 5×5 over QUIC with 2% of the
// datagrams lost each way and 20 ms of round trip added.
func TestQUICLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games over a lossy link")
	}
	t.Parallel()
	peers := faultPeers(t, "/ip4/127.0.0.1/udp/0/quic-v1")
	target, err := net.ResolveUDPAddr("udp", addrPort(t, peers[1], ma.P_UDP))
	if err != nil {
		t.Fatal(err)
	}
	proxy := startUDPFaultProxy(t, target, 10*time.Millisecond, 0.02, 1)
	addr := fmt.Sprintf("/ip4/127.0.0.1/udp/%d/quic-v1/p2p/%s", proxy.port(), peers[1].node.ID())
	var connectErr error
	for range 3 { // a handshake packet may be lost more often than QUIC retries in time
		if _, connectErr = peers[0].node.Connect(t.Context(), addr); connectErr == nil {
			break
		}
	}
	if connectErr != nil {
		t.Fatal(connectErr)
	}
	for _, o := range []engine.Options{{Variant: engine.VariantGo, Size: 9}, {Variant: engine.VariantFGo, Size: 5}} {
		playThrough(t, peers, o)
	}
	if proxy.dropped.Load() == 0 {
		t.Errorf("the proxy dropped nothing of %d datagrams", proxy.passed.Load())
	}
	t.Logf("datagrams: %d passed, %d dropped", proxy.passed.Load(), proxy.dropped.Load())
}

// TestConnectionCutResumes cuts the connection in the middle of a game.
// Both sides adjourn (T-11); the inviter dials again by itself and the
// game goes on; it ends and both records agree.
func TestConnectionCutResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game")
	}
	t.Parallel()
	peers := faultPeers(t, "/ip4/127.0.0.1/tcp/0")
	proxy := startTCPFaultProxy(t, addrPort(t, peers[1], ma.P_TCP), 5*time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	if _, err := peers[0].node.Connect(ctx, fmt.Sprintf("/ip4/127.0.0.1/tcp/%d/p2p/%s", proxy.port(), peers[1].node.ID())); err != nil {
		t.Fatal(err)
	}
	guestOut := make(chan *protocol.Outcome, 1)
	go func() {
		select {
		case g := <-peers[1].service.Accepted():
			out, _ := bot.Run(ctx, g, bot.NewRandom(2))
			guestOut <- out
		case <-ctx.Done():
			guestOut <- nil
		}
	}()
	g, err := peers[0].service.Invite(ctx, peers[1].node.ID(), engine.Options{Variant: engine.VariantGo, Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	hostRun := make(chan error, 1)
	go func() { _, err := bot.Run(ctx, g, bot.NewRandom(1)); hostRun <- err }()
	for len(g.Transcript().Messages) < 30 {
		time.Sleep(5 * time.Millisecond)
	}
	proxy.cut()
	cutAt := len(g.Transcript().Messages)
	// Both programs keep running: the game is adjourned, the inviter dials
	// again by itself (T-11), and the game goes on to its end.
	if err := <-hostRun; err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("inviter after the cut: %v", err)
	}
	out := g.Outcome()
	gOut := <-guestOut
	if out == nil || gOut == nil || out.Result != gOut.Result {
		t.Fatalf("outcomes after the cut: inviter %v, invitee %v", out, gOut)
	}
	if n := len(g.Transcript().Messages); n <= cutAt {
		t.Errorf("no message after the cut: %d then %d", cutAt, n)
	}
	if rep := protocol.Verify(g.Transcript()); rep.Violation != nil || rep.Outcome == nil {
		t.Errorf("the record does not verify: %+v", rep)
	}
	t.Logf("cut after %d messages, reconnected, %s after %d messages", cutAt, out.Result, len(g.Transcript().Messages))
}

// addrPort returns host:port of p's first IPv4 address on transport
// ma.P_TCP or ma.P_UDP.
func addrPort(t *testing.T, p *peerHandle, transport int) string {
	t.Helper()
	for _, a := range p.node.Host().Addrs() {
		ip, err1 := a.ValueForProtocol(ma.P_IP4)
		port, err2 := a.ValueForProtocol(transport)
		if err1 == nil && err2 == nil {
			return net.JoinHostPort(ip, port)
		}
	}
	t.Fatalf("no IPv4 address on protocol %d among %v", transport, p.node.Host().Addrs())
	return ""
}
