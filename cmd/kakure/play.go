package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/ui"
)

func init() {
	register(command{
		name:    "play",
		summary: "play in the terminal: a game against the built-in bot, or --lobby for games with people (the default command)",
		run:     runPlay,
	})
}

// firstGameVariant is the variant `kakure play` starts against the bot
// when no --variant is given (the one-command start, UI-D14): Phantom Go,
// common rules (the variant's default), so that a newcomer's first game
// already runs the secure referee. It is the one constant to change for
// another first game.
const firstGameVariant = engine.VariantPhantom

// firstGameSize is the board of the first game.
const firstGameSize = 9

// newBotPlayer returns the built-in bot's player at level l.
func newBotPlayer(l bot.Level, seed uint64) bot.Player { return bot.New(l, seed) }

// inviteAnswerTime is how long the player has to answer an invitation:
// less than the inviter's idle timeout (45 s), after which it gives up.
const inviteAnswerTime = 40 * time.Second

// loopbackListen is where the peers of a game against the bot listen.
var loopbackListen = []string{"/ip4/127.0.0.1/tcp/0"}

// runPlay runs the console application: with no flags, a game against the
// built-in bot on loopback; with --lobby, the lobby for games with people.
func runPlay(env *environment, args []string) error {
	fs := newFlagSet(env, "play", "[--lobby] [--home DIR] [--listen MULTIADDR ...] [--relay MULTIADDR ...] [--no-mdns] [--spectators on|off] [--level L | --engine gtp:COMMAND [--engine-timeout D]] [--variant V --size N ...]")
	home := fs.String("home", "", "directory of the identity, the games and the logs (default $XDG_CONFIG_HOME/kakure)")
	var listen listenFlag
	fs.Var(&listen, "listen", "multiaddr to listen on, repeatable (default: loopback for a game against the bot; with --lobby all interfaces, TCP and QUIC, random ports)")
	lobby := fs.Bool("lobby", false, "open the lobby, to invite people and be invited, instead of starting a game against the bot")
	noMDNS := fs.Bool("no-mdns", false, "do not look for peers on the local network (mDNS)")
	quiet := fs.Bool("quiet", false, "no terminal bell and no window title for the opponent's move, invitations and results")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the built-in bot's choices")
	levelFlag := fs.String("level", bot.DefaultLevel.String(), "the built-in bot's level: 1-5, beginner..strong, or playouts=N,time=DURATION (then resign=off, pass=late, wait=DURATION: docs/bots.md)")
	engineFlags := registerEngineFlags(fs, "play against this GTP engine instead of the built-in bot (the first game, ^B and the lobby's Play the bot)", "not with --level")
	var vf variantFlags
	vf.register(fs, string(firstGameVariant))
	vf.registerSides(fs, "your colour, against the bot and in the lobby's form")
	// Invite codes (the lobby's ^O and ^E): relays as kakure bot takes them.
	var relays listenFlag
	fs.Var(&relays, "relay", "kakure relay multiaddr (with /p2p/ID) for invite codes, repeatable (default: the relays of config.json in the home directory)")
	spectators := spectatorsFlag(fs)
	broadcastDelay := broadcastDelayFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	publish, err := spectators()
	if err != nil {
		return err
	}
	delay, err := broadcastDelay()
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	o, err := vf.options(fs)
	if err != nil {
		return err
	}
	if o.Variant == firstGameVariant && !isSet(fs, "size") {
		o.Size = firstGameSize
	}
	level, err := bot.ParseLevel(*levelFlag)
	if err != nil {
		return usageError("--level: %v", err)
	}
	eng, err := engineFlags.parse(fs)
	if err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := playNodeConfig(env, *home, *lobby, *noMDNS, listen, relays)
	pn := &playNetwork{ctx: ctx, seed: *seed, level: level, passphrase: env.askPassphrase, invitations: make(chan *ui.Invitation, 8),
		accepted: make(chan ui.GameConn, 8)}
	me, err := startPeerConfig(ctx, cfg, pn.onInvite, publish, withBroadcastDelay(delay),
		func(c *session.Config) { c.OnInvitation = pn.onInvitation })
	if err != nil {
		return err
	}
	pn.me = me
	defer pn.close()
	if eng != nil {
		if err := pn.checkEngine(env, eng); err != nil {
			return err
		}
	}
	if cfg.EnableMDNS {
		pn.lan = make(chan ui.LANPeer, 8)
		go pn.forwardLAN()
	}
	go pn.forwardAccepted()

	logFile, restoreStderr, err := logToHome(me)
	if err != nil {
		return err
	}
	defer logFile.Close()

	app, err := newPlayApp(ctx, fs, o, pn, *lobby, *quiet)
	if err != nil {
		return err
	}
	err = app.Run()
	restoreStderr()
	if *lobby {
		fmt.Fprintf(env.stdout, "Your peer ID: %s\n", pn.ID())
		for _, a := range pn.Addrs() {
			fmt.Fprintf(env.stdout, "  %s\n", a)
		}
	}
	return err
}

// playNodeConfig is the node's configuration for the play command:
// loopback for a game against the bot, all interfaces and mDNS (unless
// noMDNS) for the lobby, or the addresses of --listen; the relays of
// --relay.
func playNodeConfig(env *environment, home string, lobby, noMDNS bool, listen, relays listenFlag) node.Config {
	cfg := node.Config{Home: home, ListenAddrs: loopbackListen, Passphrase: env.askPassphrase}
	if lobby {
		cfg.ListenAddrs, cfg.EnableMDNS = node.DefaultListenAddrs(), !noMDNS
	}
	if len(listen) > 0 {
		cfg.ListenAddrs = listen
	}
	if len(relays) > 0 {
		cfg.Relays = relays
	}
	return cfg
}

// checkEngine checks the GTP engine of --engine and prints its name; the
// network then plays it for the bot.
func (pn *playNetwork) checkEngine(env *environment, eng *botEngine) error {
	me := pn.me
	// Checked before the screen opens (GTP-D10): an engine that does
	// not start or answer GTP is an error on the terminal, and the
	// player sees which engine plays.
	eng.logPath = filepath.Join(me.node.Home(), node.LogFileName)
	about, err := eng.check()
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "engine: %s: %s\n", eng.spec, cmp.Or(about, "(no name)"))
	pn.engine = eng
	return nil
}

// logToHome sends the standard log, slog and stderr to the home's log
// file; restoreStderr gives stderr back, and the caller closes the file.
func logToHome(me *peerHandle) (logFile *os.File, restoreStderr func(), err error) {
	// Nothing but the UI may write to the terminal while it runs: the
	// standard log and slog go to the home's log file (libp2p's logs are
	// there already), and so does anything written to stderr.
	logPath := filepath.Join(me.node.Home(), node.LogFileName)
	logFile, err = os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("log file: %w", err)
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(logFile, nil)))
	return logFile, redirectStderr(logFile), nil
}

// newPlayApp makes the terminal UI: the lobby's form with the options of
// the command line, the first game against the bot unless lobby, the
// folders of exports and notes, the petnames (watched for changes).
func newPlayApp(ctx context.Context, fs *flag.FlagSet, o engine.Options, pn *playNetwork, lobby, quiet bool) (*ui.App, error) {
	me := pn.me
	defaults := lobbyDefaults(fs, o)
	// Records the player writes (w) go to HOME/exports unless the player
	// types another path; private notes are kept in HOME/notes.
	appCfg := ui.AppConfig{Network: pn, Defaults: defaults,
		SaveDir:  filepath.Join(me.node.Home(), "exports"),
		NotesDir: filepath.Join(me.node.Home(), "notes"), Quiet: quiet}
	if !lobby {
		appCfg.FirstGame = &o
	}
	book, err := readPetnames(me.node.Home())
	if err != nil {
		return nil, err
	}
	appCfg.Petnames = book
	app := ui.NewApp(appCfg)
	go watchPetnames(ctx, me.node.Home(), petnamesPoll, func(b ui.Petnames) {
		app.SetPetnames(b)
		app.Refresh()
	})
	return app, nil
}

// lobbyDefaults are the options the lobby's form starts with: those given
// on the command line (fs, checked into o); the others stay empty there,
// meaning the variant's default. The variant's own options are copied
// from their descriptions (VAR-D7): the value of each whose flag was set
// or that o has other than the option's default, as the evaluator's
// tries by flips by kakure's default (UI-D50), so that the form's "Try
// flips" starts checked where they apply.
func lobbyDefaults(fs *flag.FlagSet, o engine.Options) engine.Options {
	defaults := engine.Options{Variant: o.Variant, Time: o.Time, Lag: o.Lag}
	if isSet(fs, "size") || o.Variant == firstGameVariant {
		defaults.Size = o.Size
	}
	if isSet(fs, "komi") {
		defaults.Komi, defaults.KomiSet = o.Komi, true
	}
	for _, opt := range o.Variant.Descriptor().Options {
		if isSet(fs, opt.Key) || opt.Format(o) != opt.Default {
			// A value Normalize took, so Parse takes it.
			_ = opt.Parse(&defaults, opt.Format(o))
		}
	}
	defaults.InviterColor, defaults.Handicap = o.InviterColor, o.Handicap
	defaults.Lambda, defaults.Garbling, defaults.InputOT = o.Lambda, o.Garbling, o.InputOT
	return defaults
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// playNetwork is the peer-to-peer side of `kakure play` (ui.Network): this
// peer's node and game service, and the built-in bot on a second host on
// loopback, started the first time it is asked for.
type playNetwork struct {
	ctx  context.Context
	me   *peerHandle
	seed uint64
	// level is the built-in bot's level.
	level bot.Level
	// engine, when set (--engine), plays instead of the built-in bot.
	engine *botEngine
	// passphrase asks for the passphrase of a protected identity key (the
	// bot's, in home/bot, too).
	passphrase func(path string) ([]byte, error)

	invitations chan *ui.Invitation
	accepted    chan ui.GameConn
	lan         chan ui.LANPeer

	botMu  sync.Mutex
	bot    *peerHandle
	botErr error
	games  int
	// botPlaying holds the games the bot plays, so that a resumed one is
	// not played twice.
	botPlaying map[protocol.GameID]bool
}

// ID implements ui.Network.
func (n *playNetwork) ID() string { return n.me.node.ID().String() }

// Addrs implements ui.Network.
func (n *playNetwork) Addrs() []string {
	var as []string
	for _, a := range n.me.node.Addrs() {
		as = append(as, a.String())
	}
	return as
}

// Invitations implements ui.Network.
func (n *playNetwork) Invitations() <-chan *ui.Invitation { return n.invitations }

// Accepted implements ui.Network.
func (n *playNetwork) Accepted() <-chan ui.GameConn { return n.accepted }

// LANPeers implements ui.Network.
func (n *playNetwork) LANPeers() <-chan ui.LANPeer { return n.lan }

// WriteAddrs implements ui.Network: home/addresses.txt.
func (n *playNetwork) WriteAddrs() (string, error) {
	path := filepath.Join(n.me.node.Home(), "addresses.txt")
	text := fmt.Sprintf("peer ID: %s\naddresses:\n", n.ID())
	for _, a := range n.Addrs() {
		text += "  " + a + "\n"
	}
	return path, os.WriteFile(path, []byte(text), 0o644)
}

// Invite implements ui.Network.
func (n *playNetwork) Invite(ctx context.Context, to string, o engine.Options) (ui.GameConn, error) {
	var pid peer.ID
	var err error
	if strings.HasPrefix(to, "/") {
		if pid, err = n.me.node.Connect(ctx, to); err != nil {
			return nil, err
		}
	} else {
		if pid, err = peer.Decode(to); err != nil {
			return nil, fmt.Errorf("%q is neither a multiaddr nor a peer ID", to)
		}
		// Reach it first, so that a failure is told in its words
		// (NET-D22) and a LAN peer that does not answer is marked so.
		if err := n.me.node.ConnectPeer(ctx, pid); err != nil {
			return nil, err
		}
	}
	// A peer of a kakure older than try-flips gets a game without them
	// (UI-D51): the game's screen shows its options; the log says why.
	g, err := inviteOrWithoutFlips(o, func(o engine.Options) (*session.Game, error) { return n.me.service.Invite(ctx, pid, o) },
		func(s string) { n.me.logger.Info("inviting "+pid.String(), "fallback", s) })
	if err != nil {
		return nil, err
	}
	holdPeer(n.me.node, g)
	return g, nil
}

// holdPeer keeps the node reconnecting to g's peer while g's loop runs
// (node.Keep).
func holdPeer(nd *node.Node, g *session.Game) {
	nd.Keep(g.Peer())
	go func() {
		<-g.Done()
		nd.Release(g.Peer())
	}()
}

// PlayBot implements ui.Network: this peer invites the bot's host.
func (n *playNetwork) PlayBot(ctx context.Context, o engine.Options) (ui.GameConn, error) {
	b, err := n.botPeer()
	if err != nil {
		return nil, err
	}
	n.me.node.AddLocalPeer(peer.AddrInfo{ID: b.node.ID(), Addrs: b.node.Host().Addrs()})
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	g, err := n.me.service.Invite(ctx, b.node.ID(), o)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// botPeer starts the bot's host once: home/bot, loopback, the same log
// file; it accepts every invitation and plays with newBotPlayer.
func (n *playNetwork) botPeer() (*peerHandle, error) {
	n.botMu.Lock()
	defer n.botMu.Unlock()
	if n.bot != nil || n.botErr != nil {
		return n.bot, n.botErr
	}
	home := n.me.node.Home()
	b, err := startPeerConfig(n.ctx, node.Config{Home: filepath.Join(home, "bot"), ListenAddrs: loopbackListen,
		LogFile: filepath.Join(home, node.LogFileName), Passphrase: n.passphrase}, nil, false)
	if err != nil {
		n.botErr = fmt.Errorf("starting the bot: %w", err)
		return nil, n.botErr
	}
	n.bot = b
	go func() {
		for {
			select {
			case <-n.ctx.Done():
				return
			case g := <-b.service.Accepted():
				n.botPlay(g)
			}
		}
	}()
	return b, nil
}

// botPlay has the bot play g, unless it plays it already.
func (n *playNetwork) botPlay(g *session.Game) {
	n.botMu.Lock()
	defer n.botMu.Unlock()
	if n.botPlaying == nil {
		n.botPlaying = map[protocol.GameID]bool{}
	}
	if n.botPlaying[g.ID()] {
		return
	}
	n.botPlaying[g.ID()] = true
	n.games++
	seed := n.seed + uint64(n.games)
	if n.engine == nil {
		go bot.Run(n.ctx, g, newBotPlayer(n.level, seed))
		return
	}
	// The engine's lines (a failure, its numbers) go to the log: the
	// screen is the player's.
	go func() {
		eg := n.engine.player(n.ctx, g, seed, func(line string) { log.Print(line) })
		if _, err := bot.Run(n.ctx, g, eg); err != nil {
			log.Printf("game %s: the engine's side: %v", g.ID(), err)
		}
		if line := eg.close(); line != "" {
			log.Print(line)
		}
	}()
}

// Unfinished implements ui.Network: the games saved in home/games that
// are not over.
func (n *playNetwork) Unfinished() []ui.SavedGame {
	ids, _ := n.me.service.Unfinished()
	return n.savedGames(ids)
}

// Finished implements ui.Network: the games saved in home/games that are
// over, the newest first.
func (n *playNetwork) Finished() []ui.SavedGame {
	ids, _ := n.me.service.Finished()
	games := n.savedGames(ids)
	slices.SortStableFunc(games, func(a, b ui.SavedGame) int { return b.Updated.Compare(a.Updated) })
	return games
}

// Open implements ui.Network: a finished game, to replay.
func (n *playNetwork) Open(id protocol.GameID) (ui.GameConn, error) {
	return n.me.service.Open(id)
}

// savedGames describes the saved games ids for the lobby.
func (n *playNetwork) savedGames(ids []protocol.GameID) []ui.SavedGame {
	var games []ui.SavedGame
	home := n.me.node.Home()
	for _, id := range ids {
		path := filepath.Join(home, "games", id.String()+".record.json")
		tr, err := session.LoadTranscript(path)
		if err != nil {
			continue
		}
		var updated time.Time
		if info, err := os.Stat(path); err == nil {
			updated = info.ModTime()
		}
		// The built-in bot keeps its games in home/bot (botPeer).
		_, botErr := os.Stat(filepath.Join(home, "bot", "games", id.String()+".record.json"))
		m := protocol.NewMachine(tr.Game)
		var events []protocol.Event
		for i := range tr.Messages {
			ev, err := m.Apply(&tr.Messages[i])
			if err != nil {
				break
			}
			events = append(events, ev...)
		}
		opp, oppName, me := tr.Peers[0], m.Names[0], protocol.Invitee
		if opp == protocol.PeerID(n.me.node.ID()) {
			opp, oppName, me = tr.Peers[1], m.Names[1], protocol.Inviter
		}
		var result string
		var winner engine.Color
		if m.Outcome != nil {
			result, winner = ui.ResultString(m.Outcome.Result, m.Options.Variant), m.Outcome.Result.Winner
		}
		games = append(games, ui.SavedGame{ID: id, Opponent: opp.String(), OpponentName: oppName, Options: m.Options, Messages: len(tr.Messages),
			Moves: ui.MoveCount(events), Color: m.Colors[me], Winner: winner, Bot: botErr == nil, Updated: updated, Result: result})
	}
	return games
}

// Resume implements ui.Network. A game against the built-in bot is
// resumed on the bot's side too.
func (n *playNetwork) Resume(ctx context.Context, id protocol.GameID) (ui.GameConn, error) {
	if b, err := n.botPeer(); err == nil && n.botHas(b, id) {
		n.me.node.AddLocalPeer(peer.AddrInfo{ID: b.node.ID(), Addrs: b.node.Host().Addrs()})
		b.node.AddLocalPeer(peer.AddrInfo{ID: n.me.node.ID(), Addrs: n.me.node.Host().Addrs()})
		if g, _ := b.service.Resume(ctx, id); g != nil {
			n.botPlay(g)
		}
	}
	// How many messages the record holds as Resume loads it: the game's
	// events tell what comes after, which the screen must not write
	// twice (ui.ResumedConn, UI-D42).
	loaded := -1
	if tr, err := session.LoadTranscript(filepath.Join(n.me.node.Home(), "games", id.String()+".record.json")); err == nil {
		loaded = len(tr.Messages)
	}
	g, err := n.me.service.Resume(ctx, id)
	if g == nil {
		return nil, err
	}
	n.botMu.Lock()
	b := n.bot
	n.botMu.Unlock()
	if b == nil || g.Peer() != b.node.ID() {
		holdPeer(n.me.node, g)
	}
	if loaded < 0 {
		return g, err
	}
	return resumedGame{Game: g, loaded: loaded}, err
}

// resumedGame is a game resumed from its record (ui.ResumedConn): loaded
// is how many messages the record held when it was loaded.
type resumedGame struct {
	*session.Game
	loaded int
}

// Loaded implements ui.ResumedConn.
func (g resumedGame) Loaded() int { return g.loaded }

// botHas reports whether the bot has game id saved.
func (n *playNetwork) botHas(b *peerHandle, id protocol.GameID) bool {
	_, err := os.Stat(filepath.Join(b.node.Home(), "games", id.String()+".record.json"))
	return err == nil
}

// onInvite hands an invitation to the UI and waits for its answer.
func (n *playNetwork) onInvite(from peer.ID, name string, o engine.Options) error {
	return n.onInvitation(session.InvitationInfo{From: from, Name: name, Options: o})
}

// onInvitation hands an invitation to the UI, its broadcast delay too
// (SPEC-D12), and waits for its answer.
func (n *playNetwork) onInvitation(info session.InvitationInfo) error {
	answer := make(chan error, 1)
	in := &ui.Invitation{From: info.From.String(), Name: info.Name, Options: info.Options, Broadcast: info.Broadcast, Deadline: time.Now().Add(inviteAnswerTime),
		Answer: func(decline error) {
			select {
			case answer <- decline:
			default:
			}
		}}
	select {
	case n.invitations <- in:
	default:
		return errors.New("too many invitations at once")
	}
	select {
	case err := <-answer:
		return err
	case <-time.After(inviteAnswerTime + 2*time.Second):
		return errors.New("no answer in time")
	case <-n.ctx.Done():
		return errors.New("the player quit")
	}
}

// forwardAccepted hands the games of accepted invitations to the UI.
func (n *playNetwork) forwardAccepted() {
	for {
		select {
		case <-n.ctx.Done():
			return
		case g := <-n.me.service.Accepted():
			holdPeer(n.me.node, g)
			select {
			case n.accepted <- g:
			case <-n.ctx.Done():
				return
			}
		}
	}
}

// forwardLAN hands the changes of the peers on the LAN (found, stale,
// gone: NET-D25) to the UI.
func (n *playNetwork) forwardLAN() {
	for info := range n.me.node.LANPeers() {
		p := ui.LANPeer{ID: info.ID.String(), Stale: info.Stale, Gone: info.Gone}
		// The lobby shows the first address: a LAN one; a peer's
		// loopback and link-local addresses are not for this machine.
		for _, a := range node.RemoteAddrs(info.Addrs) {
			p.Addrs = append(p.Addrs, a.String())
		}
		select {
		case n.lan <- p:
		case <-n.ctx.Done():
			return
		}
	}
}

// close stops the bot and this peer.
func (n *playNetwork) close() {
	n.botMu.Lock()
	b := n.bot
	n.botMu.Unlock()
	if b != nil {
		b.close()
	}
	n.me.close()
}

var _ ui.GameConn = (*session.Game)(nil)
var _ ui.ResumedConn = resumedGame{}
