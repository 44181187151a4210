package protocol

// Match series between two peers (docs/series.md, SER-D1..SER-D8): N
// games under one agreement that the inviter writes and the invitee
// accepts by signing the first game's invitation chain.

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/kakure/kakure/engine"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The colour rules of a series (SER-D1).
const (
	// SeriesAlternate gives the inviter Black in the games of even
	// index (0, 2, …) and White in the others.
	SeriesAlternate = "alternate"
	// SeriesNigiri leaves each game's colours to its coin toss (T-4).
	SeriesNigiri = "nigiri"
)

// MaxSeriesGames caps the games of one series (SER-D1).
const MaxSeriesGames = 99

// SeriesAgreement is what the two players of a series agree on (SER-D1):
// its ID (random), the two peers, the options of every game (clock
// included, without the inviter's colour, which Colours gives each
// game), the number of games and the colour rule. Its JSON form is the
// compact one encoding/json writes, fields in this order; Digest is the
// SHA-256 of that form.
type SeriesAgreement struct {
	ID      string      `json:"id"`
	Inviter string      `json:"inviter"`
	Invitee string      `json:"invitee"`
	Options OptionsBody `json:"options"`
	Games   int         `json:"games"`
	Colours string      `json:"colours"`
}

// SeriesBody is the series part of an invitation (SER-D2): the whole
// agreement and the index of this game in it, 0 for the first.
type SeriesBody struct {
	Agreement SeriesAgreement `json:"agreement"`
	Index     int             `json:"index"`
}

// NewSeriesAgreement writes the agreement of a new series of games games
// between inviter and invitee, with options o (whose inviter colour must
// be unset: colours names the rule, SeriesAlternate or SeriesNigiri)
// and a fresh random ID.
func NewSeriesAgreement(inviter, invitee peer.ID, o engine.Options, games int, colours string) (SeriesAgreement, error) {
	o, err := o.Normalize()
	if err != nil {
		return SeriesAgreement{}, err
	}
	if o.InviterColor != engine.Empty {
		return SeriesAgreement{}, fmt.Errorf("protocol: series: the colour rule %q gives each game's colours: the options must not choose one", colours)
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return SeriesAgreement{}, fmt.Errorf("protocol: series ID: %w", err)
	}
	a := SeriesAgreement{ID: hex.EncodeToString(id[:]), Inviter: inviter.String(), Invitee: invitee.String(),
		Options: OptionsToBody(o), Games: games, Colours: colours}
	if err := a.Check(); err != nil {
		return SeriesAgreement{}, err
	}
	return a, nil
}

// Digest is the SHA-256 of the agreement's JSON form, in hex: what
// identifies the exact agreement a series ID stands for (SER-D1).
func (a SeriesAgreement) Digest() string {
	data, err := json.Marshal(a)
	if err != nil { // a struct of strings and numbers
		panic(err)
	}
	d := sha256.Sum256(data)
	return hex.EncodeToString(d[:])
}

// GameOptions returns the options of game index of the series: the
// agreement's, with the inviter's colour that the colour rule gives it
// (SER-D1).
func (a SeriesAgreement) GameOptions(index int) OptionsBody {
	b := a.Options
	if a.Colours == SeriesAlternate {
		b.InviterColor = "black"
		if index%2 == 1 {
			b.InviterColor = "white"
		}
	}
	return b
}

// Check checks that the agreement is well formed (SER-D1): an ID of 32
// lowercase hex digits, two distinct peer IDs, 1 to MaxSeriesGames
// games, a known colour rule, options without the inviter's colour and
// whose games the options' own checks accept with each colour the rule
// gives.
func (a SeriesAgreement) Check() error {
	if len(a.ID) != 32 || a.ID != hexLower(a.ID) {
		return fmt.Errorf("protocol: series ID %q is not 32 lowercase hex digits", a.ID)
	}
	in, err := peer.Decode(a.Inviter)
	if err != nil {
		return fmt.Errorf("protocol: series inviter: %w", err)
	}
	out, err := peer.Decode(a.Invitee)
	if err != nil {
		return fmt.Errorf("protocol: series invitee: %w", err)
	}
	if in == out {
		return errors.New("protocol: series between a peer and itself")
	}
	if a.Games < 1 || a.Games > MaxSeriesGames {
		return fmt.Errorf("protocol: series of %d games (1 to %d)", a.Games, MaxSeriesGames)
	}
	if a.Colours != SeriesAlternate && a.Colours != SeriesNigiri {
		return fmt.Errorf("protocol: series colour rule %q (%s or %s)", a.Colours, SeriesAlternate, SeriesNigiri)
	}
	if a.Options.InviterColor != "" {
		return errors.New("protocol: series options choose the inviter's colour: the colour rule does")
	}
	for i := range min(a.Games, 2) {
		if _, err := a.GameOptions(i).Options(); err != nil {
			return fmt.Errorf("protocol: series game %d: %w", i+1, err)
		}
	}
	return nil
}

// hexLower returns s if it is lowercase hex, else "".
func hexLower(s string) string {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return s
}

// checkInvite checks the series part of invitation inv (SER-D2): a well
// formed agreement between the invitation's two peers, an index within
// it, and the invitation's options those the agreement gives the game of
// that index (colour included).
func (s SeriesBody) checkInvite(inv InviteBody) error {
	a := s.Agreement
	if err := a.Check(); err != nil {
		return err
	}
	if a.Inviter != inv.Inviter || a.Invitee != inv.Invitee {
		return errors.New("protocol: the series agreement names other peers than the invitation")
	}
	if s.Index < 0 || s.Index >= a.Games {
		return fmt.Errorf("protocol: series game index %d of a series of %d games", s.Index, a.Games)
	}
	if want := a.GameOptions(s.Index); inv.Options != want {
		return fmt.Errorf("protocol: the invitation's options are not those the series agreement gives game %d of %d (%s)", s.Index+1, a.Games, describeOptionsDiff(inv.Options, want))
	}
	return nil
}

// describeOptionsDiff names the first option where got and want differ.
func describeOptionsDiff(got, want OptionsBody) string {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return fmt.Sprintf("invitation %s, agreement %s", g, w)
}

// Series returns the series part of the game's invitation, nil for a
// game outside a series.
func (g *Game) Series() *SeriesBody {
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
	Game GameID
	Path string
	// Agreement is the agreement its invitation carries.
	Agreement SeriesAgreement
	// Done tells that the game is over, Outcome how it ended and
	// Colors each role's colour (once the coin toss is done).
	Done    bool
	Outcome *Outcome
	Colors  [2]engine.Color
}

// SeriesGames returns the games of the games directory dir whose
// invitation carries series id and which the invitee accepted (a
// declined invitation is no game of the series), by index. Records that
// do not read or replay are skipped, as Unfinished reports them.
func SeriesGames(dir, id string) ([]SeriesGame, error) {
	return seriesGames(dir, func(a SeriesAgreement) bool { return a.ID == id })
}

// AllSeriesGames is SeriesGames for every series of dir.
func AllSeriesGames(dir string) ([]SeriesGame, error) {
	return seriesGames(dir, func(SeriesAgreement) bool { return true })
}

func seriesGames(dir string, keep func(SeriesAgreement) bool) ([]SeriesGame, error) {
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
		if err != nil || tr.Count(Invitee) == 0 {
			continue
		}
		m, _ := replay(tr)
		if m.Series == nil || !keep(m.Series.Agreement) {
			continue
		}
		g := SeriesGame{Index: m.Series.Index, Game: tr.Game, Path: path, Agreement: m.Series.Agreement,
			Done: m.Phase == PhaseDone, Outcome: m.Outcome, Colors: m.Colors}
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
func (s *Service) checkSeriesInvitation(sb *SeriesBody) error {
	a := sb.Agreement
	games, err := SeriesGames(s.cfg.Dir, a.ID)
	if err != nil {
		return err
	}
	// The games running here that are not yet on disk (or are).
	s.mu.Lock()
	running := make([]*Game, 0, len(s.games))
	for _, g := range s.games {
		running = append(running, g)
	}
	s.mu.Unlock()
	for _, g := range running {
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
