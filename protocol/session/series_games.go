package session

// The session's side of a series (docs/series.md): a new agreement
// between two hosts, a running game's series, the games of a series in a
// games directory and the invitee's check against them (SER-D3).

import (
	"github.com/kakure/kakure/protocol"

	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
)

// NewSeriesAgreement writes the agreement of a new series of games games
// between inviter and invitee, with options o (whose inviter colour must
// be unset: colours names the rule, SeriesAlternate or SeriesNigiri)
// and a fresh random ID.
func NewSeriesAgreement(inviter, invitee peer.ID, o engine.Options, games int, colours string) (protocol.SeriesAgreement, error) {
	o, err := o.Normalize()
	if err != nil {
		return protocol.SeriesAgreement{}, err
	}
	if o.InviterColor != engine.Empty {
		return protocol.SeriesAgreement{}, fmt.Errorf("protocol: series: the colour rule %q gives each game's colours: the options must not choose one", colours)
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return protocol.SeriesAgreement{}, fmt.Errorf("protocol: series ID: %w", err)
	}
	a := protocol.SeriesAgreement{ID: hex.EncodeToString(id[:]), Inviter: inviter.String(), Invitee: invitee.String(),
		Options: protocol.OptionsToBody(o), Games: games, Colours: colours}
	if err := a.Check(); err != nil {
		return protocol.SeriesAgreement{}, err
	}
	return a, nil
}

// Series returns the series part of the game's invitation, nil for a
// game outside a series.
func (g *Game) Series() *protocol.SeriesBody {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m.Series == nil {
		return nil
	}
	s := *g.m.Series
	return &s
}

// SeriesGame is one game of a series found in a games directory.
type SeriesGame struct {
	// Index is the game's index in the series, 0 for the first.
	Index int
	// Game is the game's ID and Path its record.
	Game protocol.GameID
	Path string
	// Agreement is the agreement its invitation carries.
	Agreement protocol.SeriesAgreement
	// Done tells that the game is over, Outcome how it ended and
	// Colors each role's colour (once the coin toss is done).
	Done    bool
	Outcome *protocol.Outcome
	Colors  [2]engine.Color
}

// SeriesGames returns the games of the games directory dir whose
// invitation carries series id and which the invitee accepted (a
// declined invitation is no game of the series), by index. Records that
// do not read or replay are skipped, as Unfinished reports them.
func SeriesGames(dir, id string) ([]SeriesGame, error) {
	return seriesGames(dir, func(a protocol.SeriesAgreement) bool { return a.ID == id })
}

// AllSeriesGames is SeriesGames for every series of dir.
func AllSeriesGames(dir string) ([]SeriesGame, error) {
	return seriesGames(dir, func(protocol.SeriesAgreement) bool { return true })
}

func seriesGames(dir string, keep func(protocol.SeriesAgreement) bool) ([]SeriesGame, error) {
	if dir == "" {
		return nil, nil
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.record.json"))
	if err != nil {
		return nil, fmt.Errorf("protocol: series games: %w", err)
	}
	var out []SeriesGame
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte(`"series":`)) {
			continue // cheap: no series in its invitation
		}
		tr, err := LoadTranscript(path)
		if err != nil || tr.Count(protocol.Invitee) == 0 {
			continue
		}
		m, _ := replay(tr)
		if m.Series == nil || !keep(m.Series.Agreement) {
			continue
		}
		g := SeriesGame{Index: m.Series.Index, Game: tr.Game, Path: path, Agreement: m.Series.Agreement,
			Done: m.Phase == protocol.PhaseDone, Outcome: m.Outcome, Colors: m.Colors}
		if g.Done && g.Outcome != nil && g.Outcome.Result.By == "declined" {
			continue
		}
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b SeriesGame) int { return a.Index - b.Index })
	return out, nil
}

// ErrSeriesRefused wraps the invitee's reasons to refuse a game of a
// series (SER-D3).
var ErrSeriesRefused = errors.New("series")

// checkSeriesInvitation is the invitee's check of a series game's
// invitation against the games it holds (SER-D3): no other agreement
// under the same series ID, no game of that index already (finished or
// not: an unfinished one is resumed, not invited again), and every
// earlier game finished. The caller holds s.seriesMu.
func (s *Service) checkSeriesInvitation(sb *protocol.SeriesBody) error {
	a := sb.Agreement
	games, err := SeriesGames(s.cfg.Dir, a.ID)
	if err != nil {
		return err
	}
	// The games running here that are not yet on disk (or are).
	for _, g := range s.runningGames() {
		if gs := g.Series(); gs != nil && gs.Agreement.ID == a.ID && !slices.ContainsFunc(games, func(x SeriesGame) bool { return x.Game == g.id }) {
			games = append(games, SeriesGame{Index: gs.Index, Game: g.id, Agreement: gs.Agreement, Done: g.Outcome() != nil})
		}
	}
	digest := a.Digest()
	done := map[int]bool{}
	for _, g := range games {
		if g.Agreement.Digest() != digest {
			return fmt.Errorf("%w %s: another agreement under the same series ID: its game %d (%s) was agreed with other terms", ErrSeriesRefused, a.ID, g.Index+1, g.Game)
		}
		if g.Index == sb.Index {
			if g.Done {
				return fmt.Errorf("%w %s: game %d of %d was already played (%s)", ErrSeriesRefused, a.ID, sb.Index+1, a.Games, g.Game)
			}
			return fmt.Errorf("%w %s: game %d of %d is unfinished (%s): it is resumed, not invited again", ErrSeriesRefused, a.ID, sb.Index+1, a.Games, g.Game)
		}
		if g.Done {
			done[g.Index] = true
		}
	}
	for i := range sb.Index {
		if !done[i] {
			return fmt.Errorf("%w %s: game %d of %d comes before game %d is over", ErrSeriesRefused, a.ID, sb.Index+1, a.Games, i+1)
		}
	}
	return nil
}
