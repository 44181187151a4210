package session

import (
	"github.com/kakure/kakure/protocol"

	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	p2pprotocol "github.com/libp2p/go-libp2p/core/protocol"
	multistream "github.com/multiformats/go-multistream"

	"github.com/kakure/kakure/engine"

	// Every variant's rules, registered with the core: a game of any variant is played, stored and resumed here.
	_ "github.com/kakure/kakure/protocol/variants"
)

// Config sets up a Service.
type Config struct {
	// Host is the libp2p host games run on; its key signs every message.
	Host host.Host
	// Dir is where transcripts and secrets are kept (created 0700).
	Dir string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// OnInvite decides on an incoming invitation from the peer from,
	// whose invitation gives the display name name ("" for none;
	// untrusted text): nil error accepts, an error declines with its
	// text. Nil accepts everything.
	OnInvite func(from peer.ID, name string, o engine.Options) error
	// OnInvitation, when not nil, decides in OnInvite's place, given
	// everything the invitation proposes, its broadcast delay too
	// (SPEC-D12): a user interface shows it before the player accepts.
	OnInvitation func(in InvitationInfo) error
	// OnTournamentInvite, when not nil, decides first on every incoming
	// invitation, given the tournament game it names (nil for none): nil
	// error lets OnInvite decide, an error declines with its text. A
	// tournament player declines what is not its computed pairing
	// (TRN-D6).
	OnTournamentInvite func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error
	// Known reports whether the user knows peer p (has a petname for it,
	// say): its new streams take the handshake slots kept for known
	// peers, as those of the peers this service invited or has a game
	// with (LIM-D11). It is called for every incoming game stream and
	// must be quick. Nil knows nobody beyond the service's own games.
	Known func(p peer.ID) bool
	// Redialled reports whether the caller redials peer p by itself
	// whenever the connection to it is lost (kakure's node does, for the
	// peers it holds: NET-D14). The inviter of an adjourned game with
	// such a peer then dials it no more itself: it opens the game's
	// stream again on the connection the caller makes, within a second
	// of it (NET-D28), since go-libp2p runs one dial of a peer at a time
	// and a dial of the game's own would join the caller's and delay its
	// next fresh one. Nil: nobody else redials, the inviter dials with
	// growing pauses (1 s to 30 s).
	Redialled func(p peer.ID) bool
	// Name is this player's display name, sent in its invitations and
	// acceptances (at most MaxNameLength bytes; "" for none).
	Name string
	// IdleTimeout is how long a stream may carry no frame at all before
	// the game is adjourned (T-11). Keep-alives go every IdleTimeout/3.
	IdleTimeout time.Duration
	// AutoGrace is how long the other program has to send a message it
	// sends by itself (a coin toss step, an opening, the result) before
	// this one challenges it, and then to answer the challenge before this
	// one abandons the game (T-11, REC-D12, REC-D13); default 60 s.
	AutoGrace time.Duration
	// CountGrace is AutoGrace for the steps of the count of dead stones,
	// which a player takes (REC-D14); default 10 × AutoGrace.
	CountGrace time.Duration
	// HandshakeTimeout is how long a new incoming stream has to send its
	// hello and invitation before it is reset (default
	// DefaultHandshakeTimeout).
	HandshakeTimeout time.Duration
	// MaxGamesPerPeer and MaxGames cap the games running at once with one
	// peer and in all; invitations beyond are declined (defaults
	// DefaultMaxGamesPerPeer, DefaultMaxGames; see limits.go).
	MaxGamesPerPeer int
	MaxGames        int
	// BulkBudget and BulkBudgetPerPeer cap the bytes of attachments
	// (Phantom Go's bulk frames) the service holds at once for all games
	// and for the games with one peer (defaults DefaultBulkBudget,
	// DefaultBulkBudgetPerPeer). Beyond, the stream that would exceed
	// them is not read until there is room; after IdleTimeout its game
	// is adjourned (LIM-D10).
	BulkBudget        int64
	BulkBudgetPerPeer int64
	// Publisher, when set, is given the public part of every game of
	// this service for spectators (SPEC-2); nil publishes nothing
	// (SPEC-6).
	Publisher Publisher
	// BroadcastDelay is the broadcast delay this program proposes in
	// its invitations, and the least it accepts in another's: an
	// invitation with less, in moves or in time, is declined with the
	// reason (docs/spectators.md SPEC-D12). Zero proposes none and
	// accepts any.
	BroadcastDelay protocol.BroadcastDelay
	// testHooks, for tests only, are nil in every Config but a test's.
	testHooks
}

// InvitationInfo is what an incoming invitation proposes, as
// Config.OnInvitation is given it.
type InvitationInfo struct {
	// From is the inviting peer; Name the display name its invitation
	// gives ("" for none; untrusted text).
	From peer.ID
	Name string
	// Options are the game's options.
	Options engine.Options
	// Broadcast is the broadcast delay for spectators (SPEC-D10), zero
	// for none.
	Broadcast protocol.BroadcastDelay
}

func (c *Config) defaults() {
	if c.IdleTimeout == 0 {
		c.IdleTimeout = 45 * time.Second
	}
	if c.AutoGrace == 0 {
		c.AutoGrace = 60 * time.Second
	}
	if c.CountGrace == 0 {
		c.CountGrace = 10 * c.AutoGrace
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.HandshakeTimeout == 0 {
		c.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if c.MaxGamesPerPeer == 0 {
		c.MaxGamesPerPeer = DefaultMaxGamesPerPeer
	}
	if c.MaxGames == 0 {
		c.MaxGames = DefaultMaxGames
	}
	if c.BulkBudget == 0 {
		c.BulkBudget = DefaultBulkBudget
	}
	if c.BulkBudgetPerPeer == 0 {
		c.BulkBudgetPerPeer = DefaultBulkBudgetPerPeer
	}
}

// Service runs kakure games on a host: it answers invitations and resumes,
// and starts games of its own.
type Service struct {
	cfg Config
	key crypto.PrivKey

	mu     sync.Mutex
	loadMu sync.Mutex // one load of a saved game at a time (loadRegistered)
	// seriesMu makes the check of a series game's invitation and its
	// admission one step (SER-D3).
	seriesMu sync.Mutex
	games    map[protocol.GameID]*Game
	invites  chan *Game
	limits   limitState
	bulk     *bulkBudget
	// notifiee hears of new connections (peerConnected).
	notifiee *network.NotifyBundle
}

// NewService registers the game protocol on cfg.Host.
func NewService(cfg Config) (*Service, error) {
	cfg.defaults()
	if cfg.Host == nil {
		return nil, errors.New("protocol: no host")
	}
	if err := protocol.CheckName(cfg.Name); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	if err := cfg.BroadcastDelay.Check(); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	key := cfg.Host.Peerstore().PrivKey(cfg.Host.ID())
	if key == nil {
		return nil, errors.New("protocol: the host has no private key")
	}
	if cfg.Dir != "" {
		if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("protocol: games directory: %w", err)
		}
	}
	s := &Service{cfg: cfg, key: key, games: map[protocol.GameID]*Game{}, invites: make(chan *Game, acceptedQueue),
		bulk: newBulkBudget(cfg.BulkBudget, cfg.BulkBudgetPerPeer)}
	s.loadKnownPeers()
	cfg.Host.SetStreamHandler(protocol.GameProtocol, s.handleStream)
	s.notifiee = &network.NotifyBundle{ConnectedF: s.peerConnected}
	cfg.Host.Network().Notify(s.notifiee)
	return s, nil
}

// peerConnected wakes the adjourned games with the peer of a new
// connection, so that the inviter's redial goes at once (T-11).
func (s *Service) peerConnected(_ network.Network, c network.Conn) {
	p := c.RemotePeer()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range s.games {
		if g.peer == p {
			g.connected.Store(true)
		}
	}
}

// runningGames returns the games the service runs now, taken under its
// lock.
func (s *Service) runningGames() []*Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	games := make([]*Game, 0, len(s.games))
	for _, g := range s.games {
		games = append(games, g)
	}
	return games
}

// Close stops accepting streams and closes every running game (games
// that are not over stay on disk and can be resumed).
func (s *Service) Close() {
	s.cfg.Host.RemoveStreamHandler(protocol.GameProtocol)
	s.cfg.Host.Network().StopNotify(s.notifiee)
	for _, g := range s.runningGames() {
		g.Close()
	}
}

// Accepted delivers the games this service accepted from invitations.
// At most 16 accepted games wait to be read: while the channel is full,
// the service declines invitations (ErrBusy) rather than hold them, so a
// service whose Accepted nobody reads declines every invitation after the
// sixteenth.
func (s *Service) Accepted() <-chan *Game { return s.invites }

// ErrOtherVersion reports a peer that speaks another version of the game
// protocol (T-2).
var ErrOtherVersion = errors.New("protocol: the peer speaks another version of the kakure game protocol")

// ErrNoAnswer reports an invitation whose stream ended before the invitee
// answered it, neither accepting nor declining: a program that could not
// read the invitation (a kakure older than an option it carries resets
// the stream, UI-D51 in docs/ui.md), or a connection lost meanwhile.
var ErrNoAnswer = errors.New("protocol: no answer to the invitation")

// openStream opens a game stream to p and turns "protocol not supported"
// into a clear message.
func (s *Service) openStream(ctx context.Context, p peer.ID) (network.Stream, error) {
	st, err := s.cfg.Host.NewStream(ctx, p, protocol.GameProtocol)
	if err == nil {
		return st, nil
	}
	var theirs []string
	if ps, perr := s.cfg.Host.Peerstore().GetProtocols(p); perr == nil {
		for _, id := range ps {
			if strings.HasPrefix(string(id), protocol.GameProtocolPrefix) {
				theirs = append(theirs, string(id))
			}
		}
	}
	if len(theirs) > 0 {
		return nil, fmt.Errorf("%w: it offers %s, this program speaks %s", ErrOtherVersion, strings.Join(theirs, ", "), protocol.GameProtocol)
	}
	var nse multistream.ErrNotSupported[p2pprotocol.ID]
	if errors.As(err, &nse) {
		return nil, fmt.Errorf("%w (or is not a kakure peer): %v", ErrOtherVersion, err)
	}
	return nil, fmt.Errorf("protocol: open stream to %s: %w", p, err)
}

// Invite opens a game with p: it sends the invitation and returns once the
// invitee has accepted, or an error if it declined.
func (s *Service) Invite(ctx context.Context, p peer.ID, o engine.Options) (g *Game, err error) {
	return s.invite(ctx, p, o, nil, nil)
}

// InviteTournament is Invite for a game of a tournament: the invitation
// names ref (nil: no tournament), which both players sign (TRN-D6).
func (s *Service) InviteTournament(ctx context.Context, p peer.ID, o engine.Options, ref *protocol.TournamentRef) (g *Game, err error) {
	if ref != nil {
		if err := ref.Check(); err != nil {
			return nil, fmt.Errorf("protocol: %w", err)
		}
	}
	return s.invite(ctx, p, o, nil, ref)
}

// InviteSeries invites p to game index of the series of agreement a
// (SER-D2): the options are those a gives that game; the invitation
// carries a and index. It returns as Invite does.
func (s *Service) InviteSeries(ctx context.Context, p peer.ID, a protocol.SeriesAgreement, index int) (*Game, error) {
	if a.Inviter != s.cfg.Host.ID().String() || a.Invitee != p.String() {
		return nil, errors.New("protocol: the series agreement names other peers")
	}
	sb := &protocol.SeriesBody{Agreement: a, Index: index}
	o, err := a.GameOptions(index).Options()
	if err != nil {
		return nil, fmt.Errorf("protocol: series game %d: %w", index+1, err)
	}
	return s.invite(ctx, p, o, sb, nil)
}

// invite sends the invitation of a game with p, one of a series (series)
// or of a tournament (ref) when given, and returns as Invite does.
func (s *Service) invite(ctx context.Context, p peer.ID, o engine.Options, series *protocol.SeriesBody, ref *protocol.TournamentRef) (g *Game, err error) {
	o, err = o.Normalize()
	if err != nil {
		return nil, err
	}
	if err := Playable(o.Variant); err != nil {
		return nil, err
	}
	id, err := protocol.NewGameID()
	if err != nil {
		return nil, err
	}
	s.addKnown(p) // a peer this node invited (LIM-D11)
	st, err := s.openStream(ctx, p)
	if err != nil {
		return nil, err
	}
	// A panic in the variant's code as the game starts is an error of
	// this invitation, not the end of the program (LIM-D9).
	defer func() {
		if r := recover(); r != nil {
			st.Reset()
			g, err = nil, fmt.Errorf("protocol: invitation of game %s: %w: %v\n%s", id, ErrPanic, r, cleanStack(debug.Stack()))
		}
	}()
	g = s.newGame(id, protocol.Inviter, protocol.NewTranscript(id, protocol.PeerID(s.cfg.Host.ID()), protocol.PeerID(p)))
	g.player = s.newPlayer(g, o, protocol.Inviter)
	body := protocol.InviteBody{Version: protocol.Version, Inviter: s.cfg.Host.ID().String(), Invitee: p.String(), Options: protocol.OptionsToBody(o),
		InviterName: s.cfg.Name, Series: series, Tournament: ref}
	if d := s.cfg.BroadcastDelay; !d.IsZero() {
		body.Broadcast = &d
	}
	if series != nil {
		if err := series.CheckInvite(body); err != nil {
			st.Reset()
			return nil, err
		}
	}
	if err := g.writeHello(st); err != nil {
		st.Reset()
		return nil, err
	}
	g.stream = st
	_, err = g.send(protocol.KindInvite, body)
	g.stream = nil
	if err != nil {
		g.closeFiles()
		st.Reset()
		return nil, err
	}
	s.register(g)
	accepted := make(chan error, 1)
	g.onAnswer = func(err error) { accepted <- err }
	go g.run(st)
	select {
	case err := <-accepted:
		if err != nil {
			return g, err
		}
		return g, nil
	case <-ctx.Done():
		g.Close()
		return nil, fmt.Errorf("protocol: waiting for the answer to the invitation: %w", ctx.Err())
	}
}

func (s *Service) register(g *Game) {
	s.mu.Lock()
	s.games[g.id] = g
	s.mu.Unlock()
}

// loadRegistered returns the game id, loading and registering it if no
// game of that id runs yet (loaded). Loads are one at a time: a resume
// of this peer and one of the other peer arriving together must not load
// the game twice, or two copies of it would play the same record.
func (s *Service) loadRegistered(id protocol.GameID) (g *Game, loaded bool, err error) {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	if g := s.Game(id); g != nil {
		return g, false, nil
	}
	if g, err = s.loadGame(id); err != nil {
		return nil, false, err
	}
	s.register(g)
	return g, true, nil
}

// Game returns a game this service is running.
func (s *Service) Game(id protocol.GameID) *Game {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.games[id]
}

func (s *Service) newGame(id protocol.GameID, role protocol.Role, tr *protocol.Transcript) *Game {
	g := &Game{
		svc: s, id: id, role: role, tr: tr, m: protocol.NewMachine(id),
		peer:     peer.ID(tr.Peers[role.Other()]),
		events:   newEventQueue(),
		actions:  make(chan actionReq),
		attach:   make(chan attachReq, 1),
		redialed: make(chan network.Stream),
		done:     make(chan struct{}),
		crashed:  make(chan error, 1),
	}
	if s.cfg.Publisher != nil {
		g.pub = newPublishing(s.cfg.Publisher)
		tr.OnAppend = g.publishMessage
	}
	return g
}

// handleStream serves an incoming game stream: a new invitation or a
// resumed game.
func (s *Service) handleStream(st network.Stream) {
	defer func() {
		if r := recover(); r != nil {
			s.cfg.Logger.Error("panic serving a game stream", "peer", st.Conn().RemotePeer(), "panic", r)
			st.Reset()
		}
	}()
	remote := st.Conn().RemotePeer()
	h, err := s.beginHandshake(st)
	if err != nil {
		s.cfg.Logger.Debug("game stream refused", "peer", remote, "err", err)
		st.Reset()
		return
	}
	defer s.endHandshake(h)
	r := bufio.NewReader(st)
	// The hello and the invitation must arrive within the handshake
	// timeout, however slowly their bytes trickle in.
	st.SetReadDeadline(time.Now().Add(s.cfg.HandshakeTimeout))
	f, _, err := protocol.ReadFrameJSONWith(r, noBulk)
	if err != nil || f.Hello == nil {
		s.logHandshakeFailure(h, "game stream without hello", err)
		st.Reset()
		return
	}
	if g := s.Game(f.Hello.Game); g != nil {
		if g.peer != remote {
			s.cfg.Logger.Warn("resume of a game by a peer not in it", "peer", remote, "game", f.Hello.Game)
			st.Reset()
			return
		}
		if !s.handshakeRead(h) {
			return
		}
		g.attachStream(st, r, f.Hello)
		return
	}
	if f.Hello.Have != [2]uint64{} {
		if !s.handshakeRead(h) {
			return
		}
		if g, loaded, err := s.loadRegistered(f.Hello.Game); err == nil && g.peer == remote {
			if loaded {
				go g.run(nil)
			}
			g.attachStream(st, r, f.Hello)
			return
		}
		s.cfg.Logger.Warn("resume of an unknown game", "peer", remote, "game", f.Hello.Game)
		st.Reset()
		return
	}
	s.acceptInvitation(st, r, h, f.Hello.Game)
}

// logHandshakeFailure logs why a stream's handshake failed: at debug
// level for a stream evicted by another (LIM-D11), which a flood makes
// common, else as a warning.
func (s *Service) logHandshakeFailure(h *handshake, msg string, err error) {
	if s.wasEvicted(h) {
		s.cfg.Logger.Debug(msg+" (evicted)", "peer", h.peer, "err", err)
		return
	}
	s.cfg.Logger.Warn(msg, "peer", h.peer, "err", err)
}

// acceptInvitation reads the invitation that follows a fresh hello and
// answers it.
func (s *Service) acceptInvitation(st network.Stream, r *bufio.Reader, h *handshake, id protocol.GameID) {
	remote := h.peer
	f, _, err := protocol.ReadFrameJSONWith(r, noBulk)
	if err != nil || f.Msg == nil || f.Msg.Kind != protocol.KindInvite {
		s.logHandshakeFailure(h, "expected an invitation", err)
		st.Reset()
		return
	}
	g := s.newGame(id, protocol.Invitee, protocol.NewTranscript(id, protocol.PeerID(remote), protocol.PeerID(s.cfg.Host.ID())))
	if err := g.tr.Check(f.Msg); err != nil {
		s.cfg.Logger.Warn("bad invitation", "peer", remote, "err", err)
		st.Reset()
		return
	}
	var ib protocol.InviteBody
	if err := protocol.DecodeBody(f.Msg.Body, &ib); err != nil || ib.Invitee != s.cfg.Host.ID().String() || ib.Inviter != remote.String() {
		s.cfg.Logger.Warn("invitation names other peers", "peer", remote)
		st.Reset()
		return
	}
	// A signed invitation to this node: the stream keeps its slot while
	// it is answered (LIM-D3, LIM-D11).
	if !s.handshakeRead(h) {
		return
	}
	_, err = g.m.Apply(f.Msg)
	if err == nil {
		err = Playable(g.m.Options.Variant)
	}
	if err != nil {
		// An invitation we cannot play (another version, bad options, a
		// variant without a player here): answer with a hello and a
		// decline, so the inviter is told why.
		s.cfg.Logger.Info("declining an invitation", "peer", remote, "err", err)
		g.tr.Append(*f.Msg)
		g.m = protocol.NewMachine(id)
		g.m.Phase = protocol.PhaseAnswer
		g.writeHello(st)
		g.writeMessageDirect(st, protocol.KindDecline, protocol.DeclineBody{Reason: err.Error()})
		st.Close()
		return
	}
	if err := g.tr.Append(*f.Msg); err != nil {
		st.Reset()
		return
	}
	g.player = s.newPlayer(g, g.m.Options, protocol.Invitee)
	decision := error(nil)
	if g.m.Series != nil {
		// Refused at once, before the user is asked (SER-D3).
		s.seriesMu.Lock()
		decision = s.checkSeriesInvitation(g.m.Series)
		s.seriesMu.Unlock()
	}
	if decision == nil && !g.m.Broadcast.Covers(s.cfg.BroadcastDelay) {
		// Refused at once: this program keeps at least its own delay
		// (SPEC-D12).
		decision = fmt.Errorf("the invitation proposes %s; this player asks for at least %s", g.m.Broadcast.Describe(), strings.TrimPrefix(s.cfg.BroadcastDelay.Describe(), "a broadcast delay of "))
	}
	if decision == nil && s.cfg.OnTournamentInvite != nil {
		decision = s.cfg.OnTournamentInvite(remote, g.m.Tournament, g.m.Options)
	}
	if decision == nil && s.cfg.OnInvitation != nil {
		decision = s.cfg.OnInvitation(InvitationInfo{From: remote, Name: g.m.Names[protocol.Inviter], Options: g.m.Options, Broadcast: g.m.Broadcast})
	} else if decision == nil && s.cfg.OnInvite != nil {
		decision = s.cfg.OnInvite(remote, g.m.Names[protocol.Inviter], g.m.Options)
	}
	admitted := false
	if decision == nil {
		// Registers g and reserves its place in Accepted. A series game
		// is checked again with its admission, one at a time: of two
		// invitations of the same game, only one passes (SER-D3).
		if g.m.Series != nil {
			s.seriesMu.Lock()
			decision = s.checkSeriesInvitation(g.m.Series)
		}
		if decision == nil {
			decision = s.admitInvitation(g)
		}
		if g.m.Series != nil {
			s.seriesMu.Unlock()
		}
		admitted = decision == nil
	}
	if err := g.writeHello(st); err != nil {
		if admitted {
			s.forget(g)
			s.releaseAccepted()
		}
		st.Reset()
		return
	}
	if decision != nil {
		s.cfg.Logger.Info("declining an invitation", "peer", remote, "reason", decision)
		g.writeMessageDirect(st, protocol.KindDecline, protocol.DeclineBody{Reason: decision.Error()})
		st.Close()
		return
	}
	go g.run(st, r)
	if err := g.Do(accept{}); err != nil {
		s.releaseAccepted()
		s.cfg.Logger.Warn("accepting", "err", err)
		return
	}
	s.deliverAccepted(g)
}

// forget unregisters a game whose loop never started.
func (s *Service) forget(g *Game) {
	s.mu.Lock()
	if s.games[g.id] == g {
		delete(s.games, g.id)
	}
	s.mu.Unlock()
}

// accept is the internal action that accepts an invitation.
type accept struct{ protocol.SessionAction }

// noBulk refuses an attachment or a report frame before its body is read:
// none belongs in the handshake of a stream, and a peer must not make this
// node allocate MaxBulkSize for a few bytes.
func noBulk(_ uint64, kind protocol.FrameKind) error {
	switch kind {
	case protocol.FrameBulk:
		return fmt.Errorf("%w: attachment before the game", protocol.ErrMalformed)
	case protocol.FrameReport:
		return fmt.Errorf("%w: report frame before the game", protocol.ErrMalformed)
	}
	return nil
}
