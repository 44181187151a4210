package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/tournament"
)

func init() {
	register(command{name: "tournament", summary: "enter a tournament, announce one, print a round's pairings (docs/tournaments.md)", run: runTournament})
	register(command{name: "standings", summary: "verify the records of a tournament (or of match series) and print its standings; writes standings.csv beside them", run: runStandings})
}

// runTournament dispatches kakure tournament's verbs.
func runTournament(env *environment, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fs := newFlagSet(env, "tournament", "entry|announce|pairings [flags] (kakure tournament VERB -h shows the verb's flags; a game of a round is played with kakure bot --tournament ANNOUNCEMENT --round R)")
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		return usageError("kakure tournament entry|announce|pairings ...; a game of a round is played with kakure bot --tournament ANNOUNCEMENT --round R")
	}
	switch args[0] {
	case "entry":
		return runTournamentEntry(env, args[1:])
	case "announce":
		return runTournamentAnnounce(env, args[1:])
	case "pairings":
		return runTournamentPairings(env, args[1:])
	}
	return usageError("kakure tournament %q: the verbs are entry, announce and pairings", args[0])
}

// homeDir is --home, or the default home.
func homeDir(home string) (string, error) {
	if home != "" {
		return home, nil
	}
	return node.DefaultHome()
}

// runTournamentEntry signs this peer's entry into a call (TRN-D1).
func runTournamentEntry(env *environment, args []string) error {
	fs := newFlagSet(env, "tournament entry", "--call CALL [--name NAME] [--home DIR] [--out FILE]")
	home := fs.String("home", "", "directory of the identity key (default $XDG_CONFIG_HOME/kakure)")
	call := fs.String("call", "", "the organizer's call for entries, as it is written (a tournament's name and a nonce)")
	name := fs.String("name", "", "the display name to enter under (default: the home's, kakure id --name)")
	out := fs.String("out", "", "file to write the signed entry to (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *call == "" {
		return usageError("--call: the call for entries to enter")
	}
	dir, err := homeDir(*home)
	if err != nil {
		return err
	}
	if !isSet(fs, "name") {
		if *name, err = readName(dir); err != nil {
			return err
		}
	}
	key, err := node.LoadOrCreateIdentity(dir, env.askPassphrase)
	if err != nil {
		return err
	}
	e, err := tournament.SignEntry(key, *call, *name)
	if err != nil {
		return err
	}
	data, err := e.Marshal()
	if err != nil {
		return err
	}
	return writeOut(env, *out, data)
}

// writeOut writes data to path, or to standard output for "".
func writeOut(env *environment, path string, data []byte) error {
	if path == "" {
		_, err := env.stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// runTournamentAnnounce signs an announcement of the entries given
// (TRN-D2).
func runTournamentAnnounce(env *environment, args []string) error {
	fs := newFlagSet(env, "tournament announce", "--call CALL --system round-robin|swiss [--rounds N] [--name NAME] [--variant V ...] [--home DIR] [--out FILE] ENTRY...")
	home := fs.String("home", "", "directory of the organizer's identity key (default $XDG_CONFIG_HOME/kakure)")
	call := fs.String("call", "", "the call for entries the entries answer")
	name := fs.String("name", "", "the tournament's display name")
	system := fs.String("system", "", "the pairing system: round-robin (Berger tables, TRN-D4) or swiss (TRN-D5)")
	rounds := fs.Int("rounds", 0, "the number of rounds (a round robin's follows from the number of entries)")
	out := fs.String("out", "", "file to write the signed announcement to (default: standard output)")
	var vf variantFlags
	vf.register(fs, "go")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *call == "" || fs.NArg() < 2 {
		return usageError("want --call and at least two entry files")
	}
	o, err := vf.options(fs)
	if err != nil {
		return err
	}
	var entries []tournament.SignedEntry
	for _, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("entry: %w", err)
		}
		se, e, err := tournament.ParseEntry(data)
		if err != nil {
			return fmt.Errorf("entry %s: %w", path, err)
		}
		if e.Call != *call {
			return fmt.Errorf("entry %s is for the call %q, not %q", path, e.Call, *call)
		}
		entries = append(entries, se)
	}
	if *system == tournament.SystemRoundRobin && *rounds == 0 {
		*rounds = len(entries) - 1 + len(entries)%2
	}
	dir, err := homeDir(*home)
	if err != nil {
		return err
	}
	key, err := node.LoadOrCreateIdentity(dir, env.askPassphrase)
	if err != nil {
		return err
	}
	sa, err := tournament.Announce(key, tournament.Announcement{Call: *call, Name: *name, Options: protocol.OptionsToBody(o),
		System: *system, Rounds: *rounds, Entries: entries})
	if err != nil {
		return err
	}
	data, err := sa.Marshal()
	if err != nil {
		return err
	}
	t, err := sa.Open()
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "tournament %s: %d participants, %d rounds\n", t.ID, len(t.Participants), t.Body.Rounds)
	return writeOut(env, *out, data)
}

// loadAnnouncement reads and opens an announcement file.
func loadAnnouncement(path string) (*tournament.Tournament, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("announcement: %w", err)
	}
	t, err := tournament.ParseAnnouncement(data)
	if err != nil {
		return nil, fmt.Errorf("announcement %s: %w", path, err)
	}
	return t, nil
}

// readRecords reads every *.record.json under dir, named by their path
// relative to dir with forward slashes ("" reads none).
func readRecords(dir string) ([]tournament.RecordFile, error) {
	if dir == "" {
		return nil, nil
	}
	var files []tournament.RecordFile
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".record.json") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files = append(files, tournament.RecordFile{Name: filepath.ToSlash(rel), Data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	return files, nil
}

// roundOf computes round r of t from the records in dir.
func roundOf(t *tournament.Tournament, dir string, r int) (tournament.Round, error) {
	if r < 1 || r > t.Body.Rounds {
		return tournament.Round{}, usageError("--round %d: the tournament has rounds 1 to %d", r, t.Body.Rounds)
	}
	files, err := readRecords(dir)
	if err != nil {
		return tournament.Round{}, err
	}
	st := tournament.Compute(t, files)
	if len(st.Rounds) < r {
		return tournament.Round{}, fmt.Errorf("round %d: %s", r, strings.Join(st.NotCounted, "; "))
	}
	return st.Rounds[r-1].Round, nil
}

// runTournamentPairings prints round r's pairings, computed from the
// announcement and the records of the rounds before (TRN-D4, TRN-D5).
func runTournamentPairings(env *environment, args []string) error {
	fs := newFlagSet(env, "tournament pairings", "--round R [--records DIR] ANNOUNCEMENT")
	round := fs.Int("round", 1, "the round")
	records := fs.String("records", "", "directory of the records of the rounds before (a Swiss round's pairings follow from their results)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want exactly one announcement file")
	}
	t, err := loadAnnouncement(fs.Arg(0))
	if err != nil {
		return err
	}
	if err := t.Complete(); err != nil {
		return err
	}
	r, err := roundOf(t, *records, *round)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "tournament %s round %d\n", t.ID, r.Number)
	who := func(i int) string {
		p := t.Participants[i]
		return strings.TrimSpace(tournament.SafeText(p.Name) + " " + p.Peer)
	}
	for _, g := range r.Games {
		fmt.Fprintf(env.stdout, "board %d: black %s, white %s\n", g.Board, who(g.Black), who(g.White))
	}
	if r.Bye >= 0 {
		fmt.Fprintf(env.stdout, "bye: %s\n", who(r.Bye))
	}
	return nil
}

// runStandings verifies the records of a tournament and prints its
// standings; standings.csv goes beside the records (TRN-D7..TRN-D16).
func runStandings(env *environment, args []string) error {
	fs := newFlagSet(env, "standings", "DIR | ANNOUNCEMENT [--records DIR]")
	records := fs.String("records", "", "directory of the records (default: the announcement's directory)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want one directory holding announcement.json and the records, or one announcement file")
	}
	arg := fs.Arg(0)
	path := arg
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		path = filepath.Join(arg, "announcement.json")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && *records == "" {
			// No tournament: the match series whose records are there
			// (SER-D9).
			return seriesStandings(env, arg)
		}
	}
	dir := *records
	if dir == "" {
		dir = filepath.Dir(path)
	}
	t, err := loadAnnouncement(path)
	if err != nil {
		return err
	}
	files, err := readRecords(dir)
	if err != nil {
		return err
	}
	st := tournament.Compute(t, files)
	text := st.Text()
	if _, err := env.stdout.Write(text); err != nil {
		return err
	}
	csvPath := filepath.Join(dir, "standings.csv")
	if err := os.WriteFile(csvPath, st.CSV(), 0o644); err != nil {
		return fmt.Errorf("standings.csv: %w", err)
	}
	fmt.Fprintf(env.stderr, "wrote %s\n", csvPath)
	return nil
}

// errNotReady declines an invitation that comes before the tournament
// player knows its pairing.
var errNotReady = errors.New("this tournament player is not ready for its game yet")

// tournamentGame is kakure bot's game of a tournament round: the
// announcement, the round computed from the records before it, and once
// the node runs, this peer's board.
type tournamentGame struct {
	t        *tournament.Tournament
	round    tournament.Round
	me       atomic.Pointer[string]
	ref      *protocol.TournamentRef
	opponent peer.ID
}

// openTournamentGame reads the announcement (it must be complete: every
// participant's entry signed, TRN-D2) and computes the round.
func openTournamentGame(flags *flag.FlagSet, path string, round int, records string) (*tournamentGame, error) {
	for _, name := range []string{"variant", "size", "komi", "rules", "cards", "suicide", "perpendicular", "time", "lag", "lambda", "garbling", "input-ot", "color", "handicap"} {
		if isSet(flags, name) {
			return nil, usageError("--%s: a tournament game's options are the announcement's", name)
		}
	}
	if round == 0 {
		return nil, usageError("--tournament needs --round")
	}
	t, err := loadAnnouncement(path)
	if err != nil {
		return nil, err
	}
	if err := t.Complete(); err != nil {
		return nil, err
	}
	r, err := roundOf(t, records, round)
	if err != nil {
		return nil, err
	}
	return &tournamentGame{t: t, round: r}, nil
}

// configure has the game service decline every invitation but this
// peer's computed pairing (TRN-D6); nil configures nothing.
func (tg *tournamentGame) configure(c *session.Config) {
	if tg == nil {
		return
	}
	c.OnTournamentInvite = func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error {
		me := tg.me.Load()
		if me == nil {
			return errNotReady
		}
		return tg.t.CheckInvitation(tg.round, *me, from.String(), ref, o)
	}
}

// start finds this peer's board and prints it: the opponent (none for a
// bye) and whether this peer plays black (and invites).
func (tg *tournamentGame) start(env *environment, me peer.ID) (opponent peer.ID, black bool, err error) {
	t := tg.t
	if t.Seat(me.String()) < 0 {
		return "", false, fmt.Errorf("peer %s is not a participant of tournament %s", me, t.ID)
	}
	g, ok := t.Board(tg.round, me.String())
	if !ok {
		fmt.Fprintf(env.stdout, "tournament %s round %d: a bye for this peer (TRN-D16)\n", t.ID, tg.round.Number)
		return "", false, nil
	}
	blackPeer, whitePeer := t.Participants[g.Black].Peer, t.Participants[g.White].Peer
	fmt.Fprintf(env.stdout, "tournament %s round %d board %d: black %s, white %s\n", t.ID, tg.round.Number, g.Board, blackPeer, whitePeer)
	black = blackPeer == me.String()
	other := whitePeer
	if !black {
		other = blackPeer
	}
	if opponent, err = peer.Decode(other); err != nil {
		return "", false, fmt.Errorf("tournament: opponent %q: %w", other, err)
	}
	tg.ref, tg.opponent = t.Ref(tg.round, g), opponent
	m := me.String()
	tg.me.Store(&m)
	return opponent, black, nil
}

// seriesStandings is kakure standings of a directory without a
// tournament's announcement: the score of every match series whose
// records are in dir, recomputed from them alone (SER-D9), printed and
// written to dir/standings.csv.
func seriesStandings(env *environment, dir string) error {
	files, err := readRecords(dir)
	if err != nil {
		return err
	}
	series, other := tournament.ComputeSeries(files)
	if len(series) == 0 {
		return fmt.Errorf("%s: no announcement.json and no record of a match series (%d records)", dir, len(files))
	}
	var out bytes.Buffer
	for i, s := range series {
		if i > 0 {
			out.WriteString("\n")
		}
		out.Write(s.Text())
	}
	if len(other) > 0 {
		out.WriteString("\nnot counted (no series)\n")
		for _, l := range other {
			fmt.Fprintf(&out, "  %s\n", l)
		}
	}
	if _, err := env.stdout.Write(out.Bytes()); err != nil {
		return err
	}
	csvPath := filepath.Join(dir, "standings.csv")
	if err := os.WriteFile(csvPath, tournament.SeriesCSV(series), 0o644); err != nil {
		return fmt.Errorf("standings.csv: %w", err)
	}
	fmt.Fprintf(env.stderr, "wrote %s\n", csvPath)
	return nil
}
