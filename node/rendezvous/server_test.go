package rendezvous_test

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node/rendezvous"
)

// newHost starts a libp2p host on loopback only: tests never send traffic
// off this machine.
func newHost(t testing.TB) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableMetrics())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func connect(t testing.TB, a, b host.Host) {
	t.Helper()
	if err := a.Connect(t.Context(), peer.AddrInfo{ID: b.ID(), Addrs: b.Addrs()}); err != nil {
		t.Fatal(err)
	}
}

// clock is a settable clock for the server.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// world is a relay running the rendezvous server and the clients
// connected to it.
type world struct {
	relay   host.Host
	server  *rendezvous.Server
	clock   *clock
	clients []host.Host
}

func newWorld(t *testing.T, clients int, cfg rendezvous.ServerConfig) *world {
	w := &world{relay: newHost(t), clock: &clock{now: time.Now()}}
	cfg.Now = w.clock.Now
	w.server = rendezvous.NewServer(w.relay, cfg)
	t.Cleanup(w.server.Close)
	for range clients {
		c := newHost(t)
		connect(t, c, w.relay)
		w.clients = append(w.clients, c)
	}
	return w
}

func sign(t *testing.T, h host.Host, code string, ttl time.Duration) rendezvous.SignedRecord {
	t.Helper()
	sr, err := rendezvous.Sign(h.Peerstore().PrivKey(h.ID()), code, h.Addrs(), time.Now().Add(ttl))
	if err != nil {
		t.Fatal(err)
	}
	return sr
}

func TestRegisterLookup(t *testing.T) {
	w := newWorld(t, 2, rendezvous.ServerConfig{})
	host, guest := w.clients[0], w.clients[1]
	ctx := t.Context()
	code := "maple-otter-quail"
	if err := rendezvous.Register(ctx, host, w.relay.ID(), sign(t, host, code, 10*time.Minute)); err != nil {
		t.Fatalf("Register: %v", err)
	}
	rec, info, err := rendezvous.Lookup(ctx, guest, w.relay.ID(), "Map Ott Qua")
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	if info.ID != host.ID() || rec.Code != code {
		t.Fatalf("Lookup = %s for %q, want %s for %q", info.ID, rec.Code, host.ID(), code)
	}
	// The guest can reach the host at the addresses the record gives.
	if err := guest.Connect(ctx, info); err != nil {
		t.Fatalf("connecting to the looked-up host: %v", err)
	}
	if n := w.server.Len(); n != 1 {
		t.Errorf("server holds %d codes, want 1", n)
	}
	if _, _, err := rendezvous.Lookup(ctx, guest, w.relay.ID(), "acorn-acorn-acorn"); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("Lookup of an unknown code: %v, want ErrNotFound", err)
	}
	if _, _, err := rendezvous.Lookup(ctx, guest, w.relay.ID(), "not a code"); !errors.Is(err, rendezvous.ErrBadCode) {
		t.Errorf("Lookup of a bad code: %v, want ErrBadCode", err)
	}
}

func TestRegisterTakenRefreshUnregister(t *testing.T) {
	w := newWorld(t, 3, rendezvous.ServerConfig{})
	a, b, guest := w.clients[0], w.clients[1], w.clients[2]
	ctx := t.Context()
	code := "acorn-bacon-cabin"
	if err := rendezvous.Register(ctx, a, w.relay.ID(), sign(t, a, code, time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := rendezvous.Register(ctx, b, w.relay.ID(), sign(t, b, code, time.Minute)); !errors.Is(err, rendezvous.ErrTaken) {
		t.Errorf("another peer registering a held code: %v, want ErrTaken", err)
	}
	// The holder refreshes its record.
	if err := rendezvous.Register(ctx, a, w.relay.ID(), sign(t, a, code, 20*time.Minute)); err != nil {
		t.Errorf("refresh by the holder: %v", err)
	}
	if err := rendezvous.Unregister(ctx, b, w.relay.ID(), code); !errors.Is(err, rendezvous.ErrRefused) {
		t.Errorf("another peer unregistering the code: %v, want ErrRefused", err)
	}
	if _, info, err := rendezvous.Lookup(ctx, guest, w.relay.ID(), code); err != nil || info.ID != a.ID() {
		t.Fatalf("Lookup after the refused unregister = %s, %v; want %s", info.ID, err, a.ID())
	}
	if err := rendezvous.Unregister(ctx, a, w.relay.ID(), code); err != nil {
		t.Errorf("holder unregistering: %v", err)
	}
	if _, _, err := rendezvous.Lookup(ctx, guest, w.relay.ID(), code); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("Lookup after unregister: %v, want ErrNotFound", err)
	}
	if err := rendezvous.Register(ctx, b, w.relay.ID(), sign(t, b, code, time.Minute)); err != nil {
		t.Errorf("registering a withdrawn code: %v", err)
	}
	if err := rendezvous.Unregister(ctx, a, w.relay.ID(), "zebra-zebra-zebra"); err != nil {
		t.Errorf("unregistering a code nobody holds: %v", err)
	}
}

func TestRecordsExpire(t *testing.T) {
	w := newWorld(t, 3, rendezvous.ServerConfig{})
	a, b, guest := w.clients[0], w.clients[1], w.clients[2]
	ctx := t.Context()
	code := "delta-eagle-fence"
	if err := rendezvous.Register(ctx, a, w.relay.ID(), sign(t, a, code, 2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	w.clock.advance(3 * time.Minute)
	if _, _, err := rendezvous.Lookup(ctx, guest, w.relay.ID(), code); !errors.Is(err, rendezvous.ErrNotFound) {
		t.Errorf("Lookup of an expired code: %v, want ErrNotFound", err)
	}
	if err := rendezvous.Register(ctx, b, w.relay.ID(), sign(t, b, code, 10*time.Minute)); err != nil {
		t.Errorf("registering an expired code anew: %v", err)
	}
	if n := w.server.Len(); n != 1 {
		t.Errorf("server holds %d codes, want 1", n)
	}
}

func TestRegisterRefused(t *testing.T) {
	w := newWorld(t, 2, rendezvous.ServerConfig{MaxCodes: 3, MaxCodesPerPeer: 2})
	a, b := w.clients[0], w.clients[1]
	ctx := t.Context()
	reg := func(h host.Host, code string) error {
		return rendezvous.Register(ctx, h, w.relay.ID(), sign(t, h, code, time.Minute))
	}
	for _, code := range []string{"acorn-acorn-acorn", "actor-actor-actor"} {
		if err := reg(a, code); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg(a, "adult-adult-adult"); !errors.Is(err, rendezvous.ErrRefused) {
		t.Errorf("third code of a peer allowed two: %v, want ErrRefused", err)
	}
	if err := reg(b, "agent-agent-agent"); err != nil {
		t.Fatal(err)
	}
	if err := reg(b, "alarm-alarm-alarm"); !errors.Is(err, rendezvous.ErrRefused) {
		t.Errorf("fourth code on a relay holding three: %v, want ErrRefused", err)
	}

	// Peers at one address: a and b are both on 127.0.0.1.
	ipw := newWorld(t, 2, rendezvous.ServerConfig{MaxCodesPerIP: 3})
	regIP := func(h host.Host, code string) error {
		return rendezvous.Register(ctx, h, ipw.relay.ID(), sign(t, h, code, time.Minute))
	}
	for i, code := range []string{"acorn-acorn-acorn", "actor-actor-actor", "adult-adult-adult"} {
		if err := regIP(ipw.clients[i%2], code); err != nil {
			t.Fatal(err)
		}
	}
	if err := regIP(ipw.clients[1], "agent-agent-agent"); !errors.Is(err, rendezvous.ErrRefused) {
		t.Errorf("fourth code from one IP address allowed three: %v, want ErrRefused", err)
	}

	// A record signed by a key other than the registering peer's.
	if err := rendezvous.Register(ctx, b, w.relay.ID(), sign(t, a, "album-album-album", time.Minute)); !errors.Is(err, rendezvous.ErrBadRecord) {
		t.Errorf("registering another peer's record: %v, want ErrBadRecord", err)
	}
	// An expired record.
	if err := rendezvous.Register(ctx, b, w.relay.ID(), sign(t, b, "album-album-album", -time.Minute)); !errors.Is(err, rendezvous.ErrBadRecord) {
		t.Errorf("registering an expired record: %v, want ErrBadRecord", err)
	}
}

// TestServerBadStreams sends the server what no client sends: garbage,
// an oversized length, an unknown operation. It must answer bad-request
// or reset, and go on serving.
func TestServerBadStreams(t *testing.T) {
	w := newWorld(t, 2, rendezvous.ServerConfig{})
	c := w.clients[0]
	ctx := t.Context()
	send := func(raw []byte) (string, error) {
		st, err := c.NewStream(ctx, w.relay.ID(), rendezvous.ProtocolID)
		if err != nil {
			return "", err
		}
		defer st.Close()
		st.SetDeadline(time.Now().Add(testenv.Duration(5 * time.Second)))
		if _, err := st.Write(raw); err != nil {
			return "", err
		}
		st.CloseWrite()
		r := bufio.NewReader(st)
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return "", err
		}
		b := make([]byte, n)
		_, err = r.Read(b)
		return string(b), err
	}
	frame := func(s string) []byte { return append(binary.AppendUvarint(nil, uint64(len(s))), s...) }
	tests := []struct {
		name string
		raw  []byte
	}{
		{"not JSON", frame("hello")},
		{"oversized length", binary.AppendUvarint(nil, 1<<30)},
		{"unknown operation", frame(`{"op":"delete-all"}`)},
		{"unknown field", frame(`{"op":"lookup","code":"acorn-acorn-acorn","x":1}`)},
		{"register without record", frame(`{"op":"register"}`)},
		{"truncated", frame(`{"op":"lookup","code":"acorn-acorn-acorn"}`)[:10]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := send(tt.raw)
			if err == nil && !strings.Contains(resp, `"bad-request"`) {
				t.Errorf("answer %s, want bad-request (or a reset)", resp)
			}
		})
	}
	// Still serving.
	if err := rendezvous.Register(ctx, c, w.relay.ID(), sign(t, c, "amber-amber-amber", time.Minute)); err != nil {
		t.Errorf("Register after bad streams: %v", err)
	}
}

func TestLookupNoServer(t *testing.T) {
	a, b := newHost(t), newHost(t)
	connect(t, a, b)
	ctx, cancel := context.WithTimeout(t.Context(), testenv.Duration(5*time.Second))
	defer cancel()
	if _, _, err := rendezvous.Lookup(ctx, a, b.ID(), "acorn-acorn-acorn"); err == nil {
		t.Error("Lookup on a peer without the rendezvous server: no error")
	}
}
