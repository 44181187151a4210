package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/rivo/tview"
)

// Network is the peer-to-peer side the application plays through.
// cmd/kakure implements it with a libp2p node, a protocol service and the
// built-in bot on a second host.
type Network interface {
	// ID is this peer's ID; Addrs the addresses other peers can reach it
	// at, each ending in /p2p/ID.
	ID() string
	Addrs() []string
	// Invite invites a peer, named by a multiaddr ending in /p2p/ID or by
	// the ID of a peer found on the LAN, to a game with options o. It
	// returns once the peer accepted.
	Invite(ctx context.Context, peer string, o engine.Options) (GameConn, error)
	// PlayBot starts a game against the built-in bot.
	PlayBot(ctx context.Context, o engine.Options) (GameConn, error)
	// Invitations delivers the invitations of other peers; each must be
	// answered before its deadline.
	Invitations() <-chan *Invitation
	// Accepted delivers the games of the invitations the player accepted.
	Accepted() <-chan GameConn
	// LANPeers delivers the peers found on the local network (a nil
	// channel without mDNS).
	LANPeers() <-chan LANPeer
	// WriteAddrs writes this peer's ID and addresses to a file and
	// returns its path.
	WriteAddrs() (string, error)
	// Unfinished lists the saved games that are not over.
	Unfinished() []SavedGame
	// Finished lists the saved games that are over, newest first.
	Finished() []SavedGame
	// Open opens a finished game to replay it; it connects to nobody.
	Open(id protocol.GameID) (GameConn, error)
	// Resume reconnects to the opponent of a saved game. It returns the
	// game even when the opponent cannot be reached yet (with the
	// error): the game then goes on once the opponent is back.
	Resume(ctx context.Context, id protocol.GameID) (GameConn, error)
}

// SavedGame is a saved game that is not over.
type SavedGame struct {
	ID       protocol.GameID
	Opponent string
	// OpponentName is the opponent's display name in the record ("" for
	// none; untrusted, shown through PeerLabel).
	OpponentName string
	Options      engine.Options
	// Messages is how many messages the record holds; Moves how many
	// moves were played (MoveCount), which the lobby shows when known
	// (-1: not counted).
	Messages int
	Moves    int
	// Color is the local player's colour and Winner the winner's (Empty
	// for a draw, a void game or none yet), so that a result says who
	// won.
	Color, Winner engine.Color
	// Bot is true for a game against the built-in bot.
	Bot bool
	// Result is the result of a finished game (W+7.5, X+, Void), "" for
	// one not over.
	Result string
	// Updated is when the record was last written.
	Updated time.Time
}

// Describe writes the game as the lobby lists it: the game, the opponent,
// how far it went and when it was last played, so that two games of the
// same kind read apart.
func (g SavedGame) Describe(book Petnames) string { return g.Title(book) + " · " + g.Progress() }

// Title writes the game and the opponent (by the petname book's name for
// the opponent, if any: UI-D33).
func (g SavedGame) Title(book Petnames) string {
	o := g.Options
	who := book.PeerLabel(g.OpponentName, g.Opponent)
	if g.Bot {
		who = "the bot"
	}
	return fmt.Sprintf("%s %d×%d · %s", VariantName(o.Variant), o.Size, o.Size, who)
}

// Progress writes how far the game went (or its result, and whether the
// player won it) and when it was last played (UI-D43).
func (g SavedGame) Progress() string {
	s := plural(g.Messages, "message", "messages")
	if g.Moves >= 0 && (g.Moves > 0 || g.Messages == 0) {
		s = plural(g.Moves, "move", "moves")
	}
	if g.Result != "" {
		// "W+R, you lost" fits the list beside the date at 80 columns.
		switch {
		case g.Color == engine.Empty:
			s = "result " + g.Result
		case g.Winner == engine.Empty:
			s = g.Result + ", no winner"
		case g.Winner == g.Color:
			s = g.Result + ", you won"
		default:
			s = g.Result + ", you lost"
		}
	}
	if !g.Updated.IsZero() {
		s += " · " + g.Updated.Local().Format("Jan 2 15:04")
	}
	return s
}

// AppConfig sets up the application.
type AppConfig struct {
	Network Network
	// Defaults fill the lobby's new-game form.
	Defaults engine.Options
	// FirstGame, when set, starts a game against the bot at once.
	FirstGame *engine.Options
	// SaveDir is where records are written unless the player says
	// otherwise ("" for the working directory).
	SaveDir string
	// NotesDir keeps each game's private notes (the m key), so that they
	// survive leaving and resuming the game; "" keeps them in memory only.
	NotesDir string
	// Screen is the screen to draw on; nil means the terminal.
	Screen tcell.Screen
	// Quiet turns off the bell and the window title that tell the player
	// of the opponent's move, an invitation and a game's end (UI-D24).
	Quiet bool
	// Petnames is the player's petname book (UI-D33), which the screens
	// show instead of short peer IDs (nil: none); SetPetnames replaces
	// it.
	Petnames Petnames
}

// App is kakure's console application: the lobby, and the screen of the
// game being played. Events of the network and of the game reach the
// widgets through QueueUpdateDraw only.
type App struct {
	cfg   AppConfig
	tv    *tview.Application
	pages *tview.Pages
	lobby *Lobby
	// petnames is the petname book the lobby and every screen the App
	// opens show (SetPetnames replaces it).
	petnames *petnameBook

	ctx    context.Context
	cancel context.CancelFunc

	// Owned by the application's goroutine.
	game         *GameScreen
	conn         GameConn
	gameDone     chan struct{}
	inviteCancel context.CancelFunc
	// The invite code hosted or being joined (app_codes.go).
	codes codeState
	// spectator is the spectator screen open (lobby_watch.go), nil for
	// none; lan asks the peers on the LAN for their live games.
	spectator *SpectatorScreen
	lan       lanGames

	stopOnce sync.Once
	// screen is the screen drawn on (notify.go); set before each draw.
	// turnEnded is when the player's turn last ended; now, when set,
	// stands in for time.Now in tests.
	screen    tcell.Screen
	turnEnded time.Time
	now       func() time.Time
}

// NewApp returns the application; Run starts it.
func NewApp(cfg AppConfig) *App {
	useTerminalColours()
	a := &App{cfg: cfg, tv: tview.NewApplication(), pages: tview.NewPages()}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	if cfg.Screen != nil {
		a.tv.SetScreen(cfg.Screen)
	}
	a.tv.SetBeforeDrawFunc(a.keepScreen)
	net := cfg.Network
	a.petnames = newPetnameBook(cfg.Petnames)
	a.lobby = NewLobby(net.ID(), net.Addrs(), cfg.Defaults)
	a.lobby.petnames = a.petnames
	a.lobby.OnInvite = a.invite
	a.lobby.OnBot = a.playBot
	a.lobby.OnCancel = func() {
		if a.inviteCancel != nil {
			a.inviteCancel()
		}
	}
	a.lobby.OnWriteAddrs = net.WriteAddrs
	a.lobby.OnResume = a.resume
	a.lobby.OnOpen = a.openFinished
	a.lobby.OnQuit = a.Stop
	a.lobby.OnHostCode = a.hostCode
	a.lobby.OnJoinCode = a.joinCode
	a.lobby.OnCancelCode = a.cancelCode
	// After the key that chose it is handled (it gives the focus back
	// to the form): the spectator screen takes the focus.
	a.lobby.OnWatch = func(p string, g protocol.GameID) { go a.update(func() { a.watchGame(p, g) }) }
	a.pages.AddPage("lobby", a.lobby, true, true)
	a.tv.SetRoot(a.pages, true).EnableMouse(true).SetFocus(a.lobby)
	a.tv.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		if ev.Key() != tcell.KeyCtrlC {
			return ev
		}
		if a.spectator != nil && a.game == nil {
			a.spectator.quit()
			return nil
		}
		if a.game != nil && !a.game.Model().Over() {
			a.game.askLeave()
		} else if a.game != nil {
			a.leaveGame()
		} else {
			a.Stop()
		}
		return nil
	})
	return a
}

// Lobby returns the lobby screen.
func (a *App) Lobby() *Lobby { return a.lobby }

// Game returns the screen of the open game, or nil.
func (a *App) Game() *GameScreen { return a.game }

// SetPetnames replaces the petname book (UI-D33) the lobby and the
// screens show with a copy of book (nil: none), from any goroutine; they
// show it when next drawn (Refresh).
func (a *App) SetPetnames(book Petnames) { a.petnames.set(book) }

// Refresh draws the lobby and the game screen again, from their models:
// after a change they read from outside (the petname book, UI-D45).
func (a *App) Refresh() {
	a.update(func() {
		a.lobby.Render()
		if a.game != nil {
			a.game.render()
		}
	})
}

// QueueUpdateDraw runs f on the application's goroutine and draws.
func (a *App) QueueUpdateDraw(f func()) { a.tv.QueueUpdateDraw(f) }

// Run runs the application until the player quits.
func (a *App) Run() error {
	if a.cfg.Screen == nil {
		// The terminal, with a window title in tmux and screen too
		// (UI-D39); tview makes tcell's own when this fails.
		if s, err := terminalScreen(); err == nil {
			a.tv.SetScreen(s)
		}
	}
	go a.watchNetwork()
	go a.watchNetStatus()
	a.lobby.Model().GamesLoading = true
	a.refreshUnfinished()
	if a.cfg.FirstGame != nil {
		a.startFirstGame(*a.cfg.FirstGame)
	}
	err := a.tv.Run()
	a.cancel()
	return err
}

// Stop stops the application.
func (a *App) Stop() {
	a.stopOnce.Do(func() {
		a.cancel()
		a.tv.Stop()
	})
}

// update runs f on the application's goroutine unless the application
// has stopped.
func (a *App) update(f func()) {
	if a.ctx.Err() != nil {
		return
	}
	a.tv.QueueUpdateDraw(f)
}

// watchNetwork feeds the lobby with the network's news.
func (a *App) watchNetwork() {
	net := a.cfg.Network
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var notices <-chan string
	if n, ok := net.(Notices); ok {
		notices = n.Notices()
	}
	for {
		select {
		case line := <-notices:
			a.update(func() {
				a.lobby.Model().Status = line
				a.lobby.Render()
			})
		case <-a.ctx.Done():
			return
		case in, ok := <-net.Invitations():
			if !ok {
				return
			}
			a.update(func() { a.invited(in) })
		case conn := <-net.Accepted():
			a.update(func() { a.openGame(conn) })
		case p := <-net.LANPeers():
			a.watchLANPeer(p)
			a.update(func() {
				a.lobby.Model().AddLANPeer(p)
				a.lobby.Render()
			})
		case now := <-tick.C:
			a.update(func() {
				if len(a.lobby.Model().Pending) > 0 {
					a.lobby.Expire(now)
					a.lobby.Render()
				}
			})
		}
	}
}

// invited handles an invitation: declined at once while a game is being
// played, else shown in the lobby.
func (a *App) invited(in *Invitation) {
	if a.game != nil && !a.game.Model().Over() {
		in.Answer(errors.New("the player is in another game"))
		return
	}
	a.lobby.Invited(in)
	a.watchInviter(in)
	a.notify("invitation from "+a.petnames.get().PeerLabel(in.Name, in.From), true)
	if a.game != nil {
		a.game.Model().Log = append(a.game.Model().Log,
			fmt.Sprintf("%s invites you to %s: q goes to the lobby to answer.", a.petnames.get().PeerLabel(in.Name, in.From), DescribeOptions(in.Options)))
		a.game.render()
	}
}

// invite invites a peer; the game opens when it accepts.
func (a *App) invite(peer string, o engine.Options) {
	ctx, cancel := context.WithTimeout(a.ctx, 2*time.Minute)
	a.inviteCancel = cancel
	m := a.lobby.Model()
	m.Busy, m.Status = true, fmt.Sprintf("Inviting %s to %s… (^X stops waiting)", a.petnames.get().PeerShort(peer), DescribeOptions(o))
	a.lobby.Render()
	go func() {
		defer cancel()
		conn, err := a.cfg.Network.Invite(ctx, peer, o)
		a.update(func() {
			m.Busy = false
			if err != nil {
				m.Status = "The invitation failed: " + friendlyError(err)
				a.lobby.Render()
				return
			}
			m.Status = ""
			a.openGame(conn)
		})
	}()
}

// playBot starts a game against the built-in bot.
func (a *App) playBot(o engine.Options) {
	m := a.lobby.Model()
	m.Status = "Starting " + DescribeOptions(o) + " against the bot…"
	a.lobby.Render()
	go func() {
		conn, err := a.cfg.Network.PlayBot(a.ctx, o)
		a.update(func() {
			if err != nil {
				m.Status = "The game against the bot did not start: " + friendlyError(err)
				a.lobby.Render()
				return
			}
			m.Status = ""
			a.openGame(conn)
		})
	}()
}

// startFirstGame starts the game against the bot that `kakure play` opens
// with, unless an unfinished game against the bot waits (after a crash or
// a quit): then the player is asked whether to resume the latest one or to
// start the new game.
func (a *App) startFirstGame(o engine.Options) {
	var latest *SavedGame
	for _, g := range a.cfg.Network.Unfinished() {
		if g.Bot && (latest == nil || g.Updated.After(latest.Updated)) {
			latest = &g
		}
	}
	if latest == nil {
		a.playBot(o)
		return
	}
	g := *latest
	a.lobby.OfferResume(g, func() { a.resume(g.ID) }, func() { a.playBot(o) })
	a.lobby.Render()
}

// refreshUnfinished reads the saved games that are not over into the
// lobby.
func (a *App) refreshUnfinished() {
	go func() {
		games, finished := a.cfg.Network.Unfinished(), a.cfg.Network.Finished()
		a.update(func() { a.lobby.GamesRead(games, finished) })
	}()
}

// openFinished opens the replay of a finished game.
// Loading a Phantom Go game replays its audit, which takes a moment: it
// is done off the application's goroutine, as resume does.
func (a *App) openFinished(id protocol.GameID) {
	m := a.lobby.Model()
	m.Status = "Opening the game…"
	a.lobby.Render()
	go func() {
		conn, err := a.cfg.Network.Open(id)
		a.update(func() {
			if err != nil {
				m.Status = "The game did not open: " + friendlyError(err)
				a.lobby.Render()
				return
			}
			m.Status = ""
			a.openGame(conn)
			a.game.Prefill()
			a.game.render()
		})
	}()
}

// resume resumes a saved game.
func (a *App) resume(id protocol.GameID) {
	m := a.lobby.Model()
	m.Status = "Resuming the game…"
	a.lobby.Render()
	go func() {
		ctx, cancel := context.WithTimeout(a.ctx, 30*time.Second)
		defer cancel()
		conn, err := a.cfg.Network.Resume(ctx, id)
		a.update(func() {
			if conn == nil {
				m.Status = "The game did not resume: " + friendlyError(err)
				a.lobby.Render()
				return
			}
			m.Status = ""
			a.openGame(conn)
			a.game.Prefill()
			if err != nil {
				a.game.Model().Log = append(a.game.Model().Log, "The opponent is not reachable yet; the game goes on when it is back.")
				a.game.render()
			}
		})
	}()
}

// openGame shows the screen of a game and starts feeding it.
func (a *App) openGame(conn GameConn) {
	if a.game != nil {
		a.leaveGame()
	}
	if a.spectator != nil {
		// A game of the player's own comes first.
		a.spectator.quit()
	}
	actions := make(chan protocol.Action, 64)
	done := make(chan struct{})
	var screen *GameScreen
	screen = NewGameScreen(conn, func(act protocol.Action) {
		select {
		case <-done:
		case actions <- act:
		default:
			screen.Model().Message = "too many actions at once: wait a moment"
		}
	}, a.leaveGame)
	screen.model.petnames = a.petnames
	if a.cfg.SaveDir != "" {
		screen.SetSaveDir(a.cfg.SaveDir)
	}
	if a.cfg.NotesDir != "" {
		screen.SetNotesPath(filepath.Join(a.cfg.NotesDir, conn.ID().String()+".notes.json"))
	}
	screen.SetQueue(a.update)
	a.game, a.conn, a.gameDone = screen, conn, done
	a.pages.AddAndSwitchToPage("game", screen, true)
	a.tv.SetFocus(screen)
	a.gameOpened(screen, conn, done)
	// One goroutine does the actions in order (Do blocks until sent);
	// another reads the events.
	go func() {
		for {
			select {
			case <-done:
				return
			case act := <-actions:
				err := conn.Do(act)
				v := conn.View()
				a.update(func() { screen.ActionDone(act, err, v) })
			}
		}
	}()
	go func() {
		for e := range conn.Events() {
			v := conn.View()
			a.update(func() {
				was := screen.Model().View.MyTurn && !screen.Model().Over()
				screen.Apply(e, v)
				a.noticeGame(screen, was, e)
			})
		}
	}()
	if conn.View().Clock != nil {
		// The clocks tick on the screen (CLK-D12).
		go func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case now := <-tick.C:
					a.update(func() {
						if screen.Tick(now) {
							a.notify("your clock: 10 seconds", true)
						}
					})
				}
			}
		}()
	}
}

// leaveGame closes the game screen and goes back to the lobby. A game
// not over stays saved and can be resumed.
func (a *App) leaveGame() {
	if a.game == nil {
		return
	}
	conn := a.conn
	close(a.gameDone)
	a.game, a.conn, a.gameDone = nil, nil, nil
	a.pages.RemovePage("game")
	a.pages.SwitchToPage("lobby")
	a.tv.SetFocus(a.lobby)
	a.lobby.Render()
	go conn.Close()
	a.refreshUnfinished()
}
