package ui

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/watch"
)

// Spectating is implemented by a Network whose games are published for
// spectators and that can watch other peers' games (docs/spectators.md,
// SPEC-D13, SPEC-D14). A program that refuses spectators
// (`--spectators off`) does not implement it, or returns "" from
// WatchCommand and lists nothing.
type Spectating interface {
	// WatchCommand returns the command with which others watch this
	// peer's game id ("kakure watch PEERID/GAME"), "" when spectators
	// are refused or the game is the built-in bot's.
	WatchCommand(id protocol.GameID) string
	// HostWatchCode hosts a watch code for game id against opponent
	// (SPEC-D13) and returns it with the function that withdraws it; an
	// error when no code can be hosted (no relay and the DHT off, a
	// game against the built-in bot).
	HostWatchCode(ctx context.Context, id protocol.GameID, opponent string) (code string, withdraw func(), err error)
	// LiveGames asks peer which games it plays now (SPEC-D14).
	LiveGames(ctx context.Context, peer string) ([]watch.LiveGame, error)
	// Watch starts watching game of peer (SPEC-3): its lines come on the
	// watch until ctx ends or the record was checked.
	Watch(ctx context.Context, peer string, game protocol.GameID) (*watch.Watch, error)
}

// liveRefresh is how often the lobby asks the peers on the LAN which
// games they play.
const liveRefresh = 10 * time.Second

// DescribeLiveGame writes a live game as the lobby lists it: the
// variant and size, how far it went, the players (the list is narrow:
// the players come last).
func DescribeLiveGame(g watch.LiveGame, book Petnames) string {
	return fmt.Sprintf("%s %d×%d · %s · %s vs %s", VariantName(engine.Variant(g.Variant)), g.Size, g.Size,
		plural(g.Moves, "move", "moves"), book.PeerLabel(g.Names[0], g.Peers[0]), book.PeerLabel(g.Names[1], g.Peers[1]))
}

// showWatchCommand writes in the game's log how spectators watch it
// (SPEC-D13): the command with the peer ID and game at once, the watch
// code once hosted; the code is withdrawn when the game is left.
func (a *App) showWatchCommand(screen *GameScreen, conn GameConn, done <-chan struct{}) {
	sp, ok := a.cfg.Network.(Spectating)
	if !ok || screen.Model().Over() {
		return
	}
	cmd := sp.WatchCommand(conn.ID())
	if cmd == "" {
		return
	}
	screen.Model().Log = append(screen.Model().Log, "Spectators: "+cmd)
	screen.render()
	ctx, cancel := context.WithCancel(a.ctx)
	go func() {
		defer cancel()
		code, withdraw, err := sp.HostWatchCode(ctx, conn.ID(), conn.Peer().String())
		if err != nil {
			return
		}
		defer withdraw()
		a.update(func() {
			if a.game == screen {
				screen.Model().Log = append(screen.Model().Log, "Spectators: kakure watch "+code)
				screen.render()
			}
		})
		select {
		case <-done:
		case <-ctx.Done():
		}
	}()
}

// lanGames keeps asking the peers on the LAN which games they play, for
// the lobby's list (SPEC-D14).
type lanGames struct {
	mu     sync.Mutex
	asking map[string]context.CancelFunc
}

// watchLANPeer starts or stops asking p for its live games as it comes,
// goes stale or leaves.
func (a *App) watchLANPeer(p LANPeer) {
	sp, ok := a.cfg.Network.(Spectating)
	if !ok {
		return
	}
	a.lan.mu.Lock()
	defer a.lan.mu.Unlock()
	if a.lan.asking == nil {
		a.lan.asking = map[string]context.CancelFunc{}
	}
	if p.Gone {
		if cancel, ok := a.lan.asking[p.ID]; ok {
			cancel()
			delete(a.lan.asking, p.ID)
		}
		return
	}
	if _, ok := a.lan.asking[p.ID]; ok {
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	a.lan.asking[p.ID] = cancel
	go func() {
		tick := time.NewTicker(liveRefresh)
		defer tick.Stop()
		for {
			games, err := sp.LiveGames(ctx, p.ID)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				games = nil
			}
			a.update(func() {
				a.lobby.Model().SetLiveGames(p.ID, games)
				a.lobby.Render()
			})
			select {
			case <-tick.C:
			case <-ctx.Done():
				return
			}
		}
	}()
}

// SetLiveGames sets the live games a peer on the LAN listed.
func (m *LobbyModel) SetLiveGames(peer string, games []watch.LiveGame) {
	if len(games) == 0 {
		delete(m.Live, peer)
		return
	}
	if m.Live == nil {
		m.Live = map[string][]watch.LiveGame{}
	}
	m.Live[peer] = games
}

// watchGame opens the spectator screen of game of publisher inside the
// lobby program (UI-D48); q goes back to the lobby.
func (a *App) watchGame(publisher string, game protocol.GameID) {
	sp, ok := a.cfg.Network.(Spectating)
	if !ok || a.spectator != nil {
		return
	}
	pid, err := peer.Decode(publisher)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(a.ctx)
	w, err := sp.Watch(ctx, publisher, game)
	if err != nil {
		cancel()
		a.lobby.Model().Status = "cannot watch: " + err.Error()
		a.lobby.Render()
		return
	}
	var screen *SpectatorScreen
	screen = NewSpectatorScreen(pid, func() {
		cancel()
		if a.spectator != screen {
			return
		}
		a.spectator = nil
		// The lobby, the page under it, shows again.
		a.pages.RemovePage("spectator")
		a.tv.SetFocus(a.lobby)
		a.lobby.Render()
	})
	screen.petnames = a.petnames
	a.spectator = screen
	a.pages.AddAndSwitchToPage("spectator", screen, true)
	a.tv.SetFocus(screen)
	go FeedSpectator(pid, w, func(lines []watch.Line, st SpectatorState) {
		a.update(func() { screen.Take(lines, st) })
	})
	go func() {
		// The clocks run: draw every second.
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				a.update(func() {})
			case <-ctx.Done():
				return
			}
		}
	}()
}

// FeedSpectator hands the lines of watch w, in batches (the lines that
// came meanwhile together: the screen replays the game once for them),
// with the spectator's state, to take until the watch ends, then the
// last state (the record's view).
func FeedSpectator(publisher peer.ID, w *watch.Watch, take func([]watch.Line, SpectatorState)) {
	state := func() SpectatorState {
		var st SpectatorState
		w.Spectator(func(s *watch.Spectator) { st = SpectatorStateOf(publisher, s) })
		return st
	}
	for l := range w.Lines() {
		batch := []watch.Line{l}
	more:
		for len(batch) < 256 {
			select {
			case next, ok := <-w.Lines():
				if !ok {
					break more
				}
				batch = append(batch, next)
			default:
				break more
			}
		}
		take(batch, state())
	}
	take(nil, state())
}
