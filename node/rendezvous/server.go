package rendezvous

import (
	"bufio"
	"cmp"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	manet "github.com/multiformats/go-multiaddr/net"
)

// serviceName is the resource manager's name for the server's streams.
const serviceName = "kakure.rendezvous"

// streamTimeout bounds one request and its response.
const streamTimeout = 10 * time.Second

// ServerConfig limits a rendezvous server. Zero fields take the defaults.
type ServerConfig struct {
	// MaxCodes is the most codes held at once; default 4096.
	MaxCodes int
	// MaxCodesPerPeer is the most codes one peer holds at once; default 4.
	MaxCodesPerPeer int
	// MaxCodesPerIP is the most codes the peers at one IP address hold at
	// once; default 16. Peer IDs cost nothing to make, addresses do.
	MaxCodesPerIP int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Server is the rendezvous on a kakure relay: hosts register their invite
// codes with a record signed by their own key, guests look codes up.
// Records live in memory only and are forgotten when they expire. The
// server learns which peers play each other, never what they play.
type Server struct {
	h   host.Host
	cfg ServerConfig

	mu    sync.Mutex
	codes map[string]entry
}

// entry is a registered code.
type entry struct {
	record  SignedRecord
	owner   peer.ID
	ip      string // the owner's IP address when it registered
	expires time.Time
}

// NewServer starts serving ProtocolID on h. Close stops it.
func NewServer(h host.Host, cfg ServerConfig) *Server {
	cfg.MaxCodes = cmp.Or(cfg.MaxCodes, 4096)
	cfg.MaxCodesPerPeer = cmp.Or(cfg.MaxCodesPerPeer, 4)
	cfg.MaxCodesPerIP = cmp.Or(cfg.MaxCodesPerIP, 16)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{h: h, cfg: cfg, codes: map[string]entry{}}
	h.SetStreamHandler(ProtocolID, s.handleStream)
	return s
}

// Close stops serving; registered codes are forgotten.
func (s *Server) Close() {
	s.h.RemoveStreamHandler(ProtocolID)
	s.mu.Lock()
	clear(s.codes)
	s.mu.Unlock()
}

// Len returns the number of codes held now, expired ones excluded.
func (s *Server) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pruneLocked(s.cfg.Now())
	return len(s.codes)
}

func (s *Server) handleStream(st network.Stream) {
	serveStream(st, func(req request) response {
		ip := ""
		if a, err := manet.ToIP(st.Conn().RemoteMultiaddr()); err == nil {
			ip = a.String()
		}
		return s.serve(st.Conn().RemotePeer(), ip, req)
	})
}

// serveStream answers one request on st with answer(request): it puts the
// stream under the rendezvous service's resource scope, reads the
// request under streamTimeout, writes the response and closes the stream
// (a bad request gets statusBadRequest and a reset). The relay's Server
// and ServeOwnCodes share it.
func serveStream(st network.Stream, answer func(request) response) {
	if err := st.Scope().SetService(serviceName); err != nil {
		st.Reset()
		return
	}
	if err := st.Scope().ReserveMemory(2*maxMessageSize, network.ReservationPriorityAlways); err != nil {
		st.Reset()
		return
	}
	defer st.Scope().ReleaseMemory(2 * maxMessageSize)
	st.SetDeadline(time.Now().Add(streamTimeout))
	var req request
	if err := readMessage(bufio.NewReader(st), &req); err != nil {
		writeMessage(st, response{Status: statusBadRequest, Message: "unreadable request"})
		st.Reset()
		return
	}
	if err := writeMessage(st, answer(req)); err != nil {
		st.Reset()
		return
	}
	st.Close()
}

// serve answers one request from the peer from, at IP address ip ("" if
// not known).
func (s *Server) serve(from peer.ID, ip string, req request) response {
	now := s.cfg.Now()
	switch req.Op {
	case opRegister:
		if req.Record == nil {
			return response{Status: statusBadRequest, Message: "no record"}
		}
		rec, info, err := req.Record.Open(now)
		if err != nil {
			return response{Status: statusBadRequest, Message: err.Error()}
		}
		if info.ID != from {
			return response{Status: statusBadRequest, Message: "the record is signed by another peer than the one registering it"}
		}
		return s.register(from, ip, rec.Code, *req.Record, time.Unix(rec.Expires, 0), now)
	case opLookup:
		code, err := ParseCode(req.Code)
		if err != nil {
			return response{Status: statusBadRequest, Message: err.Error()}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		e, ok := s.codes[code]
		if !ok || !e.expires.After(now) {
			return response{Status: statusNotFound}
		}
		rec := e.record
		return response{Status: statusOK, Record: &rec}
	case opUnregister:
		code, err := ParseCode(req.Code)
		if err != nil {
			return response{Status: statusBadRequest, Message: err.Error()}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		e, ok := s.codes[code]
		if ok && e.owner != from {
			return response{Status: statusRefused, Message: "the code is another peer's"}
		}
		delete(s.codes, code)
		return response{Status: statusOK}
	default:
		return response{Status: statusBadRequest, Message: "unknown operation"}
	}
}

// register stores code for owner, unless another peer holds it or a limit
// is reached. A peer registering its own code again replaces the record
// (that is how a host refreshes its addresses and expiry).
func (s *Server) register(owner peer.ID, ip, code string, sr SignedRecord, expires, now time.Time) response {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pruneLocked(now)
	if e, ok := s.codes[code]; ok {
		if e.owner != owner {
			return response{Status: statusTaken}
		}
		s.codes[code] = entry{record: sr, owner: owner, ip: ip, expires: expires}
		return response{Status: statusOK}
	}
	if len(s.codes) >= s.cfg.MaxCodes {
		return response{Status: statusRefused, Message: "the relay holds too many invite codes; try again later"}
	}
	byPeer, byIP := 0, 0
	for _, e := range s.codes {
		if e.owner == owner {
			byPeer++
		}
		if ip != "" && e.ip == ip {
			byIP++
		}
	}
	if byPeer >= s.cfg.MaxCodesPerPeer {
		return response{Status: statusRefused, Message: "this peer holds too many invite codes"}
	}
	if byIP >= s.cfg.MaxCodesPerIP {
		return response{Status: statusRefused, Message: "peers at this address hold too many invite codes"}
	}
	s.codes[code] = entry{record: sr, owner: owner, ip: ip, expires: expires}
	return response{Status: statusOK}
}

// pruneLocked forgets the expired codes.
func (s *Server) pruneLocked(now time.Time) {
	for code, e := range s.codes {
		if !e.expires.After(now) {
			delete(s.codes, code)
		}
	}
}
