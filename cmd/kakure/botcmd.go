package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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
	register(command{name: "bot", summary: "run a headless peer that accepts invitations and plays", run: runBot})
}

// runBot runs the bot command: its flags, checked; the peer and its
// service; the invitation or the wait for invitations; the games, each
// one's lines printed as they come.
func runBot(env *environment, args []string) (err error) {
	fs := newFlagSet(env, "bot", "[--home DIR] [--listen MULTIADDR ...] [--relay MULTIADDR ...] [--mdns] [--spectators on|off] [--level L | --engine gtp:COMMAND [--engine-timeout D]] [--host-invite | --invite PEER --variant V ... [--games N [--colours alternate|nigiri]] | --invite-lan --variant V ... | --join CODE --variant V ...] [--connect-for D] [-v]")
	f := registerBotFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	plan, err := f.check(fs)
	if err != nil {
		return err
	}
	// The raw detail of a failure, with -v (NET-D22).
	defer func() { printDetail(env.stderr, err, *f.verbose) }()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := f.nodeConfig(env)
	p, err := startPeerConfig(ctx, cfg, nil, plan.publish, plan.tour.configure, withBroadcastDelay(plan.delay))
	if err != nil {
		return err
	}
	defer p.close()
	b := &botRun{env: env, ctx: ctx, p: p, f: f, plan: plan, results: make(chan string, 16)}
	waitForTournamentGame, done, err := b.startTournament()
	if err != nil || done {
		return err
	}
	if err := checkBotEngine(env, plan.eng, p, cfg); err != nil {
		return err
	}
	printPeer(ctx, env, p)
	if *f.hostInvite {
		inv, err := hostBotInvite(ctx, env, p)
		if err != nil {
			return err
		}
		defer inv.Close()
	}
	forwardNotices(ctx, p, b.results)
	resumed := b.resumeUnfinished()
	if !waitForTournamentGame && (*f.invite != "" || *f.join != "" || *f.inviteLAN) {
		return b.inviteAndPlay(resumed)
	}
	return b.acceptAndPlay(waitForTournamentGame)
}

// botFlags are the bot command's flags.
type botFlags struct {
	home           *string
	listen         listenFlag
	invite         *string
	inviteLAN      *bool
	games          *int
	colours        *string
	seed           *uint64
	levelFlag      *string
	engineFlags    engineFlags
	relays         listenFlag
	mdns           *bool
	hostInvite     *bool
	join           *string
	connectFor     *time.Duration
	progress       *time.Duration
	verbose        *bool
	tournamentFlag *string
	roundFlag      *int
	recordsFlag    *string
	vf             variantFlags
	spectators     func() (bool, error)
	broadcastDelay func() (protocol.BroadcastDelay, error)
}

// registerBotFlags adds the bot command's flags to fs.
func registerBotFlags(fs *flag.FlagSet) *botFlags {
	f := &botFlags{}
	f.home = fs.String("home", "", "directory of the identity, the games and the logs (default $XDG_CONFIG_HOME/kakure)")
	fs.Var(&f.listen, "listen", "multiaddr to listen on, repeatable (default: all interfaces, TCP and QUIC, random ports)")
	f.invite = fs.String("invite", "", "invite this peer to one game, play it and exit: a multiaddr with /p2p/ID, or a bare peer ID or a petname of a peer this node knows (found on the LAN with --mdns, waited for up to --connect-for; met in an earlier game)")
	f.inviteLAN = fs.Bool("invite-lan", false, "with --mdns: invite the first kakure peer found on the LAN to one game (of --variant and its flags), play it and exit; of two such bots, the lower peer ID invites, the other waits 10s for its invitation (and plays the inviter's game) before it invites")
	f.games = fs.Int("games", 0, "with --invite: play a match series of this many games with the peer under one signed agreement (variant, options, clock, number of games, colour rule), one after the other, then exit; run again, the same command continues a series that stopped (docs/series.md)")
	f.colours = fs.String("colours", protocol.SeriesAlternate, "with --games: each game's colours, alternate (the inviter is Black in games 1, 3, …) or nigiri (a coin toss each game)")
	f.seed = fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the bot's choices")
	f.levelFlag = fs.String("level", bot.DefaultLevel.String(), "the bot's level: 1-5, beginner..strong, playouts=N,time=DURATION (then resign=off, pass=late, wait=DURATION: docs/bots.md), or random (a uniformly random legal player); not with --engine")
	f.engineFlags = registerEngineFlags(fs, "play with this GTP engine instead of the built-in bot", "not with --level")
	fs.Var(&f.relays, "relay", "kakure relay multiaddr (with /p2p/ID), repeatable (default: the relays of config.json in the home directory)")
	f.mdns = fs.Bool("mdns", false, "announce this peer on the local network (mDNS), so that lobbies there list it among the peers on the LAN")
	f.hostInvite = fs.Bool("host-invite", false, "host an invite code on the relays, print it and accept invitations")
	f.join = fs.String("join", "", "join the peer hosting this invite code: invite it to one game, play it and exit")
	f.connectFor = fs.Duration("connect-for", 2*time.Minute, "with --invite or --join: how long to keep trying to reach the peer when the network fails (and to wait for a peer named by its ID to be found on the LAN)")
	f.progress = fs.Duration("progress", defaultProgressEvery, "print a line this often during a game (moves, time, Phantom Go's tries); 0: none")
	f.verbose = fs.Bool("v", false, "print the raw detail of network failures after their one-line headline (kakure.log has it always)")
	f.tournamentFlag = fs.String("tournament", "", "play this peer's game of --round of the tournament of this announcement file and exit (docs/tournaments.md): the black player invites the white one (its peer ID, or the address --invite gives), the white one waits for that invitation and declines any other; the options are the announcement's")
	f.roundFlag = fs.Int("round", 0, "with --tournament: the round to play")
	f.recordsFlag = fs.String("records", "", "with --tournament: directory of the records of the rounds before (a Swiss round's pairings follow from their results)")
	f.vf.register(fs, "go")
	f.vf.registerSides(fs, "with --invite, --invite-lan or --join: the bot's colour")
	f.spectators = spectatorsFlag(fs)
	f.broadcastDelay = broadcastDelayFlag(fs)
	return f
}

// botPlan is what the bot's flags, checked, ask of it.
type botPlan struct {
	publish bool
	delay   protocol.BroadcastDelay
	tour    *tournamentGame
	eng     *botEngine
	level   bot.Level
	target  inviteTarget
	o       engine.Options
}

// check checks the parsed flags against each other and reads what they
// name (the tournament's announcement, the petnames of --invite).
func (f *botFlags) check(fs *flag.FlagSet) (*botPlan, error) {
	publish, err := f.spectators()
	if err != nil {
		return nil, err
	}
	delay, err := f.broadcastDelay()
	if err != nil {
		return nil, err
	}
	var tour *tournamentGame
	if *f.tournamentFlag != "" {
		var err error
		if tour, err = openTournamentGame(fs, *f.tournamentFlag, *f.roundFlag, *f.recordsFlag); err != nil {
			return nil, err
		}
		if *f.hostInvite || *f.join != "" || *f.inviteLAN {
			return nil, usageError("--tournament plays the computed pairing: not with --host-invite, --join or --invite-lan")
		}
	} else if isSet(fs, "round") || isSet(fs, "records") {
		return nil, usageError("--round and --records go with --tournament")
	}
	eng, err := f.engineFlags.parse(fs)
	if err != nil {
		return nil, err
	}
	level := bot.DefaultLevel
	if *f.levelFlag != "random" {
		l, err := bot.ParseLevel(*f.levelFlag)
		if err != nil {
			return nil, usageError("--level: %v", err)
		}
		level = l
	}
	if fs.NArg() > 0 {
		return nil, usageError("unexpected argument %q", fs.Arg(0))
	}
	if exclusive := countTrue(*f.hostInvite, *f.invite != "", *f.join != "", *f.inviteLAN); exclusive > 1 {
		return nil, usageError("--host-invite, --invite, --invite-lan and --join exclude each other")
	}
	if *f.inviteLAN && !*f.mdns {
		return nil, usageError("--invite-lan finds its peer by mDNS: add --mdns")
	}
	var target inviteTarget
	if *f.invite != "" {
		dir := *f.home
		if dir == "" {
			var err error
			if dir, err = node.DefaultHome(); err != nil {
				return nil, err
			}
		}
		book, err := readPetnames(dir)
		if err != nil {
			return nil, err
		}
		if target, err = parseInviteTarget(*f.invite, book); err != nil {
			return nil, err
		}
	}
	var o engine.Options
	if tour != nil {
		o = tour.t.GameOptions
	} else if *f.invite != "" || *f.join != "" || *f.inviteLAN {
		var err error
		if o, err = f.vf.options(fs); err != nil {
			return nil, err
		}
	}
	if err := f.checkSeries(fs, tour, o); err != nil {
		return nil, err
	}
	return &botPlan{publish: publish, delay: delay, tour: tour, eng: eng, level: level, target: target, o: o}, nil
}

// checkSeries checks --games and --colours, a series' flags.
func (f *botFlags) checkSeries(fs *flag.FlagSet, tour *tournamentGame, o engine.Options) error {
	if isSet(fs, "games") {
		switch {
		case *f.invite == "":
			return usageError("--games plays a series with the peer of --invite: give --invite")
		case tour != nil:
			return usageError("--games plays a series, --tournament one game of a tournament: not both")
		case *f.games < 1 || *f.games > protocol.MaxSeriesGames:
			return usageError("--games %d: a series has 1 to %d games", *f.games, protocol.MaxSeriesGames)
		case o.InviterColor != engine.Empty:
			return usageError("--games: --colours gives each game's colours; leave out --color")
		}
	}
	if isSet(fs, "colours") {
		if !isSet(fs, "games") {
			return usageError("--colours is the colour rule of a series: give --games")
		}
		if *f.colours != protocol.SeriesAlternate && *f.colours != protocol.SeriesNigiri {
			return usageError("--colours %q: alternate or nigiri", *f.colours)
		}
	}
	return nil
}

// nodeConfig is the node's configuration the flags give.
func (f *botFlags) nodeConfig(env *environment) node.Config {
	addrs := []string(f.listen)
	if len(addrs) == 0 {
		addrs = nodeDefaultListen()
	}
	cfg := node.Config{Home: *f.home, ListenAddrs: addrs, EnableMDNS: *f.mdns, Passphrase: env.askPassphrase}
	if len(f.relays) > 0 {
		cfg.Relays = f.relays
	}
	return cfg
}

// botRun is one run of the bot command once its peer is up: the lines
// of its games come on results.
type botRun struct {
	env     *environment
	ctx     context.Context
	p       *peerHandle
	f       *botFlags
	plan    *botPlan
	results chan string
	// ref is the tournament game's reference, nil outside a tournament.
	ref *protocol.TournamentRef
}

// startTournament starts this peer's game of a tournament's round: the
// white player waits for the black one's invitation, which the black one
// sends to its opponent. done tells that this peer has no game to play.
func (b *botRun) startTournament() (waitForTournamentGame, done bool, err error) {
	tour := b.plan.tour
	if tour == nil {
		return false, false, nil
	}
	opponent, black, err := tour.start(b.env, b.p.node.ID())
	if err != nil || opponent == "" {
		return false, true, err
	}
	b.ref = tour.ref
	if !black {
		waitForTournamentGame = true
	} else if *b.f.invite == "" {
		*b.f.invite = opponent.String()
		b.plan.target = inviteTarget{id: opponent}
	} else if b.plan.target.id != "" && b.plan.target.id != opponent {
		return false, true, usageError("--invite %s: this peer's opponent in round %d is %s", b.plan.target.id, tour.round.Number, opponent)
	}
	return waitForTournamentGame, false, nil
}

// checkBotEngine checks the GTP engine of --engine, if any, and prints
// its name.
func checkBotEngine(env *environment, eng *botEngine, p *peerHandle, cfg node.Config) error {
	if eng == nil {
		return nil
	}
	// Checked once the node logs to its home (the engine's
	// standard error goes there), before any invitation.
	eng.logPath = filepath.Join(p.node.Home(), node.LogFileName)
	if cfg.LogFile != "" {
		eng.logPath = cfg.LogFile
	}
	about, err := eng.check()
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "engine: %s: %s\n", eng.spec, cmp.Or(about, "(no name)"))
	return nil
}

// printPeer prints the peer's ID and addresses, and its network's status
// as the DHT finds it.
func printPeer(ctx context.Context, env *environment, p *peerHandle) {
	fmt.Fprintf(env.stdout, "peer ID: %s\n", p.node.ID())
	for _, a := range p.node.Addrs() {
		fmt.Fprintf(env.stdout, "  %s\n", a)
	}
	if p.node.NetStatus().DHT {
		go printNetStatus(ctx, env.stdout, p.node)
	}
}

// hostBotInvite hosts an invite code and prints it, then whether it is on
// the DHT; the caller closes the invite.
func hostBotInvite(ctx context.Context, env *environment, p *peerHandle) (*node.Invite, error) {
	inv, err := p.node.HostInvite(ctx)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(env.stdout, "invite code: %s\n", inv.Code)
	if ch := inv.AnnouncedOnDHT(); ch != nil {
		go func() {
			if err := <-ch; err != nil {
				fmt.Fprintf(env.stdout, "invite code not on the DHT (guests without the relay cannot find it): %v\n", err)
				return
			}
			fmt.Fprintln(env.stdout, "invite code on the DHT")
		}()
	}
	return inv, nil
}

// forwardNotices passes on results what the node learns by itself: a
// guest that found no path to this node (NET-D23).
func forwardNotices(ctx context.Context, p *peerHandle, results chan<- string) {
	go func() {
		for {
			select {
			case nt := <-p.node.Notices():
				select {
				case results <- "notice: " + nt.Headline:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}()
}

// play plays g; fm, when not nil, notes the time of the first move.
// It returns when the game is over or the program stops.
func (b *botRun) play(g *session.Game, seed uint64, fm *firstMoveTimer) {
	ctx, p, results := b.ctx, b.p, b.results
	if fm == nil {
		fm = &firstMoveTimer{}
	}
	holdPeer(p.node, g)
	go watchConnection(ctx, p.node, g, results)
	go reportProgress(ctx, g, g.ID().String(), *b.f.progress, func(line string) {
		select {
		case results <- line:
		case <-ctx.Done():
		}
	})
	fm.Player = bot.New(b.plan.level, seed)
	if *b.f.levelFlag == "random" {
		fm.Player = bot.NewRandom(seed)
	}
	var eg *engineGame
	if b.plan.eng != nil {
		eg = b.plan.eng.player(ctx, g, seed, func(line string) {
			select {
			case results <- line:
			case <-ctx.Done():
			}
		})
		fm.Player = eg
	}
	out, err := bot.Run(ctx, g, fm)
	if eg != nil {
		if line := eg.close(); line != "" {
			results <- line
		}
	}
	results <- connectionLine(ctx, p.node, g.Peer())
	if err != nil {
		results <- fmt.Sprintf("game %s: %v", g.ID(), err)
		return
	}
	sgfNote := ""
	if out != nil && g.RecordPath() != "" {
		if path, err := saveFinishedRecord(g, g.RecordPath()); err == nil {
			sgfNote = " sgf=" + path
		}
	}
	results <- fmt.Sprintf("game %s: %s record=%s%s", g.ID(), describeOutcome(out), g.RecordPath(), sgfNote)
	if sb := g.Series(); sb != nil && g.Role() == protocol.Invitee {
		// The invitee's score, once its records hold every game of
		// the series (SER-D6).
		if line := inviteeSeriesScore(filepath.Join(p.node.Home(), "games"), sb.Agreement); line != "" {
			results <- line
		}
	}
}

// resumeUnfinished resumes the games a crash or a lost connection left
// unfinished, each played in its own goroutine; each one's channel
// closes when its play ends.
func (b *botRun) resumeUnfinished() map[protocol.GameID]<-chan struct{} {
	ids, err := b.p.service.Unfinished()
	if err != nil {
		// Torn or damaged records are reported, never resumed.
		fmt.Fprintf(b.env.stdout, "records not resumed: %v\n", err)
	}
	resumed := map[protocol.GameID]<-chan struct{}{}
	for i, id := range ids {
		g, err := b.p.service.Resume(b.ctx, id)
		if err != nil {
			fmt.Fprintf(b.env.stdout, "resuming game %s: %v (waiting for the other peer)\n", id, err)
		} else {
			fmt.Fprintf(b.env.stdout, "resuming game %s\n", id)
		}
		if g != nil {
			ended := make(chan struct{})
			resumed[id] = ended
			go func() {
				defer close(ended)
				b.play(g, *b.f.seed+uint64(i)+1000, nil)
			}()
		}
	}
	return resumed
}

// inviteAndPlay reaches the peer of --join, --invite-lan or --invite,
// invites it and plays the game (or the series of --games), printing
// the lines of the games until that game is over.
func (b *botRun) inviteAndPlay(resumed map[protocol.GameID]<-chan struct{}) error {
	ctx, env, p, f := b.ctx, b.env, b.p, b.f
	o, target, tour := b.plan.o, b.plan.target, b.plan.tour
	var pid peer.ID
	var g *session.Game
	var err error
	typed := time.Now()
	switch {
	case *f.join != "":
		err := retryConnect(ctx, env.stdout, "joining "+*f.join, *f.connectFor, *f.verbose, func(ctx context.Context) error {
			info, err := p.node.JoinInvite(ctx, *f.join)
			pid = info.ID
			return err
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "joined %s in %.3fs: %s\n", pid, time.Since(typed).Seconds(), p.node.ConnectionInfo(pid).Kind)
	case *f.inviteLAN:
		if g, err = inviteOnLAN(ctx, env.stdout, p, o, *f.verbose); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	case target.addr != "":
		what := "reaching the peer"
		if target.id != "" {
			what = "reaching " + target.id.String()
		}
		err := retryConnect(ctx, env.stdout, what, *f.connectFor, *f.verbose, func(ctx context.Context) (err error) {
			pid, err = p.node.Connect(ctx, target.addr)
			return err
		})
		if err != nil {
			return err
		}
	default:
		// A bare peer ID or a petname (NET-D27).
		pid = target.id
		if target.petname != "" {
			fmt.Fprintf(env.stdout, "%s%s is %s\n", ui.PetnameMark, ui.SafeName(target.petname), pid)
		}
		if err := findPeer(ctx, env.stdout, p.node, filepath.Join(p.node.Home(), "games"), pid, *f.mdns, *f.connectFor); err != nil {
			return err
		}
		err := retryConnect(ctx, env.stdout, "reaching "+pid.String(), *f.connectFor-time.Since(typed), *f.verbose, func(ctx context.Context) error {
			return p.node.ConnectPeer(ctx, pid)
		})
		if err != nil {
			return err
		}
	}
	if *f.games > 0 {
		return playSeries(ctx, env, p, pid, o, *f.games, *f.colours, *f.seed, resumed, b.results, func(g *session.Game, seed uint64) { b.play(g, seed, nil) })
	}
	if g == nil {
		if b.ref != nil && pid != tour.opponent {
			return fmt.Errorf("--invite reached %s; this peer's opponent in round %d is %s", pid, tour.round.Number, tour.opponent)
		}
		invite := func(o engine.Options) (*session.Game, error) { return p.service.InviteTournament(ctx, pid, o, b.ref) }
		if b.ref == nil {
			// A peer of a kakure older than try-flips gets a game
			// without them (UI-D51); a tournament's games have the
			// options both players computed, not changed here.
			g, err = inviteOrWithoutFlips(o, invite, func(s string) { fmt.Fprintln(env.stdout, s) })
		} else {
			g, err = invite(o)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "game %s started with %s\n", g.ID(), pid)
	}
	fm := &firstMoveTimer{}
	go b.play(g, *f.seed, fm)
	for {
		select {
		case line := <-b.results:
			fmt.Fprintln(env.stdout, line)
			if !strings.HasPrefix(line, "game ") {
				continue
			}
			if *f.join != "" && !fm.at.IsZero() {
				fmt.Fprintf(env.stdout, "timing: code to first move %.3fs\n", fm.at.Sub(typed).Seconds())
			}
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// acceptAndPlay plays each game the service accepts, printing the lines
// of the games, until the program stops or, waiting for a tournament's
// game, that game is over.
func (b *botRun) acceptAndPlay(waitForTournamentGame bool) error {
	ctx, env, p := b.ctx, b.env, b.p
	n := 0
	for {
		select {
		case g := <-p.service.Accepted():
			n++
			series := ""
			if sb := g.Series(); sb != nil {
				series = fmt.Sprintf(" (series %s game %d of %d)", sb.Agreement.ID, sb.Index+1, sb.Agreement.Games)
			}
			fmt.Fprintf(env.stdout, "game %s accepted from %s: %s%s\n", g.ID(), g.Peer(), g.View().Options.Variant, series)
			if w := ui.CheckingWarning(g.View().Options); w != "" {
				fmt.Fprintln(env.stdout, w)
			}
			fmt.Fprintln(env.stdout, connectionLine(ctx, p.node, g.Peer()))
			go b.play(g, *b.f.seed+uint64(n), nil)
		case line := <-b.results:
			fmt.Fprintln(env.stdout, line)
			if waitForTournamentGame && strings.HasPrefix(line, "game ") {
				// The one game of this round is over.
				return nil
			}
		case <-ctx.Done():
			return nil
		}
	}
}

// countTrue returns how many of bs are true.
func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// connectionLine measures the round trip to p and says which kind of
// connection it is on.
func connectionLine(ctx context.Context, n *node.Node, p peer.ID) string {
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	n.Ping(pctx, p)
	return fmt.Sprintf("connection to %s: %s", p, n.ConnectionInfo(p))
}

// watchConnection reports on results when g is adjourned (its
// connection lost) and when it resumes, with how long it was down and
// the connection it is on again, until g's loop stops.
func watchConnection(ctx context.Context, n *node.Node, g *session.Game, results chan<- string) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var since time.Time
	state := ""
	for {
		select {
		case <-ctx.Done():
			return
		case <-g.Done():
			return
		case <-tick.C:
		}
		v := g.View()
		switch {
		case v.Phase == protocol.PhaseDone:
			return
		case v.Adjourned && since.IsZero():
			since = time.Now()
			results <- fmt.Sprintf("adjourned: game %s: the connection to %s is lost; reconnecting", g.ID(), g.Peer())
		case v.Adjourned:
			if r := n.ConnectionInfo(g.Peer()).Reconnecting; r != "" && r != state {
				state = r
				results <- fmt.Sprintf("connection: game %s: %s", g.ID(), r)
			}
		case !v.Adjourned && !since.IsZero():
			results <- fmt.Sprintf("resumed: game %s after %.1fs adjourned: %s", g.ID(), time.Since(since).Seconds(), n.ConnectionInfo(g.Peer()).Kind)
			since = time.Time{}
		}
	}
}

// firstMoveTimer is a player that notes when it is first asked to move
// in the play phase: at its own first move, or right after the other
// side's first move reached it.
type firstMoveTimer struct {
	bot.Player
	once sync.Once
	at   time.Time
}

// Choose implements bot.Player.
func (f *firstMoveTimer) Choose(v protocol.View) protocol.Action {
	a := f.Player.Choose(v)
	if a != nil && v.Phase == protocol.PhasePlay {
		f.once.Do(func() { f.at = time.Now() })
	}
	return a
}

// nodeDefaultListen is every interface, TCP and QUIC, random ports.
func nodeDefaultListen() []string {
	return []string{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1", "/ip6/::/tcp/0", "/ip6/::/udp/0/quic-v1"}
}

// printNetStatus prints "internet: " and the node's status (DHT peers,
// reachability, relay reservations) each time it changes, checked every
// second, until ctx ends.
func printNetStatus(ctx context.Context, out io.Writer, n *node.Node) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	last := ""
	for {
		if s := n.NetStatus().String(); s != last {
			last = s
			fmt.Fprintf(out, "internet: %s\n", s)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
