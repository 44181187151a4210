package node

import (
	"cmp"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	relayv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"

	"github.com/kakure/kakure/node/rendezvous"
)

// RelayConfig makes a node a kakure relay (Config.Relay): a circuit
// relay v2 service, the invite-code rendezvous and the AutoNAT services,
// for peers behind NATs. Zero fields take the defaults.
//
// Relayed connections have no time or data limit, because a game keeps
// one stream open for its whole length and libp2p opens no ordinary
// stream on a limited relayed connection; the relay bounds its load by
// the number of reservations and circuits instead. It forwards streams
// encrypted end to end (Noise or TLS between the players) and sees no
// game content.
type RelayConfig struct {
	// MaxReservations is the most peers holding a reservation at once;
	// default 256.
	MaxReservations int
	// MaxCircuits is the most relayed connections per peer; default 16.
	MaxCircuits int
	// MaxReservationsPerIP is the most reservations from one IP address;
	// default 16.
	MaxReservationsPerIP int
	// MaxCodes is the most invite codes held at once; default 4096.
	MaxCodes int
	// Announce, when not empty, are the multiaddrs the relay announces
	// instead of those it listens on: for a relay behind a port forward,
	// its public address.
	Announce []string
}

// RelayStats counts what a relay did since it started.
type RelayStats struct {
	// Reservations is the number of peers holding a reservation now.
	Reservations int64
	// CircuitsOpened counts relayed connections; CircuitsOpen is how
	// many are open now.
	CircuitsOpened, CircuitsOpen int64
	// BytesRelayed counts the bytes forwarded, both directions together.
	BytesRelayed int64
	// Codes is the number of invite codes held now.
	Codes int
}

// String returns the stats on one line.
func (s RelayStats) String() string {
	return fmt.Sprintf("reservations=%d circuits=%d open=%d bytes=%d codes=%d",
		s.Reservations, s.CircuitsOpened, s.CircuitsOpen, s.BytesRelayed, s.Codes)
}

// relayService is a running kakure relay.
type relayService struct {
	relay      *relayv2.Relay
	rendezvous *rendezvous.Server
	counters   *relayCounters
}

func startRelayService(h host.Host, cfg RelayConfig) (*relayService, error) {
	rc := relayv2.DefaultResources()
	rc.Limit = nil // see RelayConfig
	rc.MaxReservations = cmp.Or(cfg.MaxReservations, 256)
	rc.MaxCircuits = cmp.Or(cfg.MaxCircuits, 16)
	rc.MaxReservationsPerIP = cmp.Or(cfg.MaxReservationsPerIP, 16)
	rc.MaxReservationsPerASN = max(rc.MaxReservationsPerASN, rc.MaxReservationsPerIP)
	counters := &relayCounters{}
	r, err := relayv2.New(h, relayv2.WithResources(rc), relayv2.WithMetricsTracer(counters))
	if err != nil {
		return nil, fmt.Errorf("node: starting the relay service: %w", err)
	}
	rdv := rendezvous.NewServer(h, rendezvous.ServerConfig{MaxCodes: cfg.MaxCodes})
	return &relayService{relay: r, rendezvous: rdv, counters: counters}, nil
}

func (rs *relayService) close() {
	rs.rendezvous.Close()
	rs.relay.Close()
}

// RelayStats returns what the node's relay service did, and false when
// the node is not a relay (Config.Relay is nil).
func (n *Node) RelayStats() (RelayStats, bool) {
	rs := n.inet.relayService
	if rs == nil {
		return RelayStats{}, false
	}
	c := rs.counters
	return RelayStats{
		Reservations:   c.reservations.Load(),
		CircuitsOpened: c.opened.Load(),
		CircuitsOpen:   c.open.Load(),
		BytesRelayed:   c.bytes.Load(),
		Codes:          rs.rendezvous.Len(),
	}, true
}

// relayCounters implements relayv2.MetricsTracer with counters.
type relayCounters struct {
	reservations, opened, open, bytes atomic.Int64
}

func (c *relayCounters) RelayStatus(bool)                      {}
func (c *relayCounters) ConnectionOpened()                     { c.opened.Add(1); c.open.Add(1) }
func (c *relayCounters) ConnectionClosed(time.Duration)        { c.open.Add(-1) }
func (c *relayCounters) ConnectionRequestHandled(pbv2.Status)  {}
func (c *relayCounters) ReservationRequestHandled(pbv2.Status) {}
func (c *relayCounters) BytesTransferred(cnt int)              { c.bytes.Add(int64(cnt)) }
func (c *relayCounters) ReservationClosed(cnt int)             { c.reservations.Add(-int64(cnt)) }
func (c *relayCounters) ReservationAllowed(isRenewal bool) {
	if !isRenewal {
		c.reservations.Add(1)
	}
}
