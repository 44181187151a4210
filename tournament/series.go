package tournament

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
)

// SeriesStandings is the score of one match series (docs/series.md,
// SER-D9), recomputed from the records alone: every record verified as
// `kakure verify` verifies it, its outcome counted as a tournament game's
// (TRN-D8..TRN-D13), each index of the agreement once.
type SeriesStandings struct {
	Agreement protocol.SeriesAgreement
	// Games holds one line per index of the agreement, in order: the
	// game that counts there, or why none does.
	Games []SeriesGameResult
	// Points are the inviter's and the invitee's points, in quarter
	// points, by role.
	Points [2]int
	// NotCounted names, one line each, what could not be counted.
	NotCounted []string
}

// SeriesGameResult is what the records establish for one game of a
// series.
type SeriesGameResult struct {
	// Index is the game's index in the agreement, 0 for the first.
	Index int
	// Game is the ID of the game that counts ("" when none does) and
	// InviterColor the inviter's colour in it.
	Game         string
	InviterColor engine.Color
	// Counted tells whether the game counts; Points are then each role's
	// points in quarter points.
	Counted bool
	Points  [2]int
	// How names the result and the decision it counts by, or why the
	// game does not count.
	How string
}

// seriesRecord is one record file of a series game, read and
// classified.
type seriesRecord struct {
	file    string
	game    string
	series  protocol.SeriesBody
	inviter engine.Color
	counted bool
	points  [2]int
	how     string
}

// ComputeSeries verifies every record of files that belongs to a match
// series and returns the standings of each series, in the order of their
// IDs, and what it could not count outside any series (a record that
// does not read, a game of no series). The result depends only on the
// records' bytes and names, in any order (SER-D9).
func ComputeSeries(files []RecordFile) ([]*SeriesStandings, []string) {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b RecordFile) int { return strings.Compare(a.Name, b.Name) })
	byDigest := map[string][]seriesRecord{}
	var other []string
	for _, f := range files {
		r, why := readSeriesRecord(f)
		if why != "" {
			other = append(other, why)
			continue
		}
		d := r.series.Agreement.Digest()
		byDigest[d] = append(byDigest[d], r)
	}
	digests := make([]string, 0, len(byDigest))
	for d := range byDigest {
		digests = append(digests, d)
	}
	slices.SortFunc(digests, func(a, b string) int {
		return cmp.Or(strings.Compare(byDigest[a][0].series.Agreement.ID, byDigest[b][0].series.Agreement.ID), strings.Compare(a, b))
	})
	var out []*SeriesStandings
	ids := map[string]string{} // series ID -> digest of its first agreement
	for _, d := range digests {
		s := seriesStandings(byDigest[d])
		id := s.Agreement.ID
		if first, ok := ids[id]; ok {
			// Two agreements under one ID: the invitee refuses the second
			// (SER-D3), so a pair of records holding both was made by
			// one side alone, or altered. Neither counts more than the
			// other: both are shown and named.
			s.NotCounted = append(s.NotCounted, fmt.Sprintf("series %s: another agreement under the same ID (sha256 %s, not %s): the records disagree on the series' terms (SER-D3)", id, d, first))
		} else {
			ids[id] = d
		}
		out = append(out, s)
	}
	return out, other
}

// readSeriesRecord reads and classifies one record; why says why it is no
// series game that counts anywhere ("" when it is one).
func readSeriesRecord(f RecordFile) (seriesRecord, string) {
	tr, err := protocol.ParseTranscript(f.Data)
	if err != nil {
		return seriesRecord{}, fmt.Sprintf("file %s: record rejected, not counted (TRN-D14): %v", f.Name, oneLine(err.Error()))
	}
	if len(tr.Messages) == 0 {
		return seriesRecord{}, fmt.Sprintf("file %s: a record without its invitation, not counted (TRN-D14)", f.Name)
	}
	m := protocol.NewMachine(tr.Game)
	if _, err := m.Apply(&tr.Messages[0]); err != nil {
		return seriesRecord{}, fmt.Sprintf("file %s: game %s: its invitation is refused, not counted (TRN-D14): %v", f.Name, tr.Game, oneLine(err.Error()))
	}
	if m.Series == nil {
		return seriesRecord{}, fmt.Sprintf("file %s: game %s is a game of no series, not counted (SER-D9)", f.Name, tr.Game)
	}
	// The colours: set by the invitation under the alternate rule, by
	// the coin toss under nigiri; the replay's messages after the toss
	// do not change them.
	for i := 1; i < len(tr.Messages) && m.Colors[protocol.Inviter] == engine.Empty; i++ {
		if _, err := m.Apply(&tr.Messages[i]); err != nil {
			break
		}
	}
	r := seriesRecord{file: f.Name, game: tr.Game.String(), series: *m.Series, inviter: m.Colors[protocol.Inviter]}
	var blackQ, whiteQ int
	r.counted, blackQ, whiteQ, r.how = classify(tr)
	switch {
	case !r.counted:
	case r.inviter == engine.Black:
		r.points = [2]int{blackQ, whiteQ}
	case r.inviter == engine.White:
		r.points = [2]int{whiteQ, blackQ}
	default:
		r.counted, r.how = false, "the colours are not in the record (TRN-D13): "+r.how
	}
	return r, ""
}

// seriesStandings counts the records of one agreement: each index once.
func seriesStandings(records []seriesRecord) *SeriesStandings {
	a := records[0].series.Agreement
	s := &SeriesStandings{Agreement: a}
	byIndex := map[int][]seriesRecord{}
	for _, r := range records {
		byIndex[r.series.Index] = append(byIndex[r.series.Index], r)
	}
	for i := range a.Games {
		g := seriesGame(i, byIndex[i])
		if g.Counted {
			s.Points[protocol.Inviter] += g.Points[protocol.Inviter]
			s.Points[protocol.Invitee] += g.Points[protocol.Invitee]
		} else {
			s.NotCounted = append(s.NotCounted, fmt.Sprintf("series %s game %d: %s", a.ID, i+1, g.How))
		}
		s.Games = append(s.Games, g)
	}
	return s
}

// seriesGame is what the records of one index establish: one game, all
// of whose counted copies agree, counts; two games for one index, or
// copies of one game that disagree, count nothing (the invitee refuses a
// second game of an index, SER-D3).
func seriesGame(index int, records []seriesRecord) SeriesGameResult {
	g := SeriesGameResult{Index: index}
	if len(records) == 0 {
		g.How = "no record: never played, or its record is not here (TRN-D13)"
		return g
	}
	games := map[string]bool{}
	for _, r := range records {
		games[r.game] = true
	}
	if len(games) > 1 {
		ids := make([]string, 0, len(games))
		for id := range games {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		g.How = fmt.Sprintf("%d games for one place of the series (%s): none counts (SER-D9)", len(ids), strings.Join(ids, ", "))
		return g
	}
	g.Game, g.InviterColor = records[0].game, records[0].inviter
	var counted []seriesRecord
	for _, r := range records {
		if r.counted {
			counted = append(counted, r)
		}
	}
	if len(counted) == 0 {
		g.How = records[0].how
		return g
	}
	for _, r := range counted[1:] {
		if r.points != counted[0].points {
			g.How = fmt.Sprintf("the copies of game %s give different results (%s, %s): not counted (SER-D9)", g.Game, counted[0].file, r.file)
			return g
		}
	}
	g.Counted, g.Points, g.How = true, counted[0].points, counted[0].how
	return g
}

// Text writes the series as kakure standings prints it: the agreement,
// each game and what counts of it, the score and what was not counted.
func (s *SeriesStandings) Text() []byte {
	var b bytes.Buffer
	a := s.Agreement
	o := a.Options
	fmt.Fprintf(&b, "series %s (agreement sha256 %s)\ninviter %s, invitee %s; %s %dx%d komi %v", a.ID, a.Digest(), a.Inviter, a.Invitee, o.Variant, o.Size, o.Size, o.Komi)
	if o.Time != "" && o.Time != "none" {
		fmt.Fprintf(&b, ", clock %s", o.Time)
	}
	fmt.Fprintf(&b, ", %d games, colours %s\n", a.Games, a.Colours)
	for _, g := range s.Games {
		result := "not counted"
		if g.Counted {
			result = fmt.Sprintf("%s-%s %s, game %s", Quarters(g.Points[protocol.Inviter]), Quarters(g.Points[protocol.Invitee]), g.How, g.Game)
		}
		colour := "colours unknown"
		if g.InviterColor != engine.Empty {
			colour = "inviter " + strings.ToLower(g.InviterColor.String())
		}
		fmt.Fprintf(&b, "  game %d (%s): %s\n", g.Index+1, colour, result)
	}
	fmt.Fprintf(&b, "score: inviter %s – %s invitee\n", Quarters(s.Points[protocol.Inviter]), Quarters(s.Points[protocol.Invitee]))
	if len(s.NotCounted) > 0 {
		b.WriteString("not counted\n")
		for _, l := range s.NotCounted {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.Bytes()
}

// SeriesCSV writes the games of every series as standings.csv holds them
// for series: a header line, then one line a game.
func SeriesCSV(series []*SeriesStandings) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"series", "game", "inviter", "invitee", "inviter_color", "counted", "inviter_points", "invitee_points", "game_id", "how"})
	for _, s := range series {
		for _, g := range s.Games {
			colour := ""
			if g.InviterColor != engine.Empty {
				colour = strings.ToLower(g.InviterColor.String())
			}
			w.Write([]string{s.Agreement.ID, strconv.Itoa(g.Index + 1), s.Agreement.Inviter, s.Agreement.Invitee, colour,
				strconv.FormatBool(g.Counted), Quarters(g.Points[protocol.Inviter]), Quarters(g.Points[protocol.Invitee]), g.Game, g.How})
		}
	}
	w.Flush()
	return b.Bytes()
}
