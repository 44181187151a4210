package tournament

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"

	// Every variant's rules, registered with the core: a record of any variant is verified.
	_ "github.com/kakure/kakure/protocol/variants"
)

// RecordFile is one record file as read: its name (relative to the
// directory of the records, as it is shown) and its bytes.
type RecordFile struct {
	Name string
	Data []byte
}

// Quarter points: every number of the table is a multiple of a quarter
// point (a win is 4, a draw 2; Sonneborn–Berger adds half of a drawn
// opponent's points), kept as integers so that every reader computes the
// same digits.
const (
	win  = 4
	draw = 2
)

// BoardResult is what the records establish for one board of a round.
type BoardResult struct {
	Pairing
	// Game is the ID of the game that counts, "" when none does.
	Game string
	// Counted tells whether the board's result counts; BlackPoints and
	// WhitePoints are then each side's points (in quarter points).
	Counted                  bool
	BlackPoints, WhitePoints int
	// How names the result and the decision it counts by ("B+R
	// (TRN-D8)"); for a board that does not count, why not.
	How string
}

// Row is one participant's line of the table.
type Row struct {
	Participant
	Seat int
	// Rank is the place from 1; Tied tells that the row above has the
	// same points and tie-breaks.
	Rank int
	Tied bool
	// Points, SOS, SODOS and SB (Sonneborn–Berger) in quarter points;
	// Games is the number of counted games, Byes the rounds sat out.
	Points, SOS, SODOS, SB int
	Games, Wins, Byes      int
}

// Standings is the whole computation: the rounds as paired and counted,
// the table, and everything that could not be counted, and why.
type Standings struct {
	Tournament *Tournament
	Rounds     []RoundResult
	Table      []Row
	// NotCounted names, one line each, what could not be counted.
	NotCounted []string
}

// RoundResult is one round's pairings and what counts of each board.
type RoundResult struct {
	Round
	Boards []BoardResult
}

// recordGame is one record file, read and classified (TRN-D7..TRN-D13).
type recordGame struct {
	file         string
	game         string
	ref          protocol.TournamentRef
	black, white string
	options      protocol.OptionsBody
	counted      bool
	blackQ       int
	whiteQ       int
	how          string
}

// classify verifies one record as `kakure verify` does (signatures, hash
// chains, the rules) and says how its outcome counts.
func classify(tr *protocol.Transcript) (counted bool, blackQ, whiteQ int, how string) {
	return classifyReport(protocol.Verify(tr), tr.Peers)
}

// classifyReport says how the outcome of a verified record counts
// (TRN-D8..TRN-D13), the record's peers by role.
func classifyReport(rep *protocol.Report, peers [2]protocol.PeerID) (counted bool, blackQ, whiteQ int, how string) {
	text, ok := rep.Describe(peers)
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	o := rep.Outcome
	points := func(winner engine.Color) (int, int) {
		switch winner {
		case engine.Black:
			return win, 0
		case engine.White:
			return 0, win
		}
		return draw, draw
	}
	switch {
	case ok && o.Result.By == engine.ByTime:
		b, w := points(o.Result.Winner)
		return true, b, w, fmt.Sprintf("%s, a loss on time (TRN-D9)", o.Result)
	case ok:
		b, w := points(o.Result.Winner)
		return true, b, w, fmt.Sprintf("%s (TRN-D8)", o.Result)
	case o != nil && o.Disputed():
		return false, 0, 0, "disputed, no winner (TRN-D11): " + first
	case o != nil && o.Abandoned:
		return false, 0, 0, "abandoned (TRN-D12): " + first
	case o != nil && o.Violation != nil && o.Proven && rep.Violation == o.Violation && o.Result.Winner != engine.Empty:
		b, w := points(o.Result.Winner)
		return true, b, w, fmt.Sprintf("%s, a forfeit: %s (TRN-D10)", o.Result, first)
	case o != nil && o.Result.By == engine.ByTime:
		return false, 0, 0, "a loss on time the loser has not confirmed (TRN-D12): " + first
	case o != nil && o.Violation != nil:
		return false, 0, 0, "a forfeit the record does not prove (TRN-D12): " + first
	}
	return false, 0, 0, "not a finished game (TRN-D13): " + first
}

// Compute verifies every record, pairs every round from the
// announcement and the results counted before it, and makes the table
// (TRN-D7..TRN-D16). The result depends only on the announcement and
// the records' bytes, in any order, and their names.
func Compute(t *Tournament, files []RecordFile) *Standings {
	s := &Standings{Tournament: t}
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b RecordFile) int { return strings.Compare(a.Name, b.Name) })
	byBoard := map[[2]int][]recordGame{}
	var other []string
	for _, f := range files {
		tr, err := protocol.ParseTranscript(f.Data)
		if err != nil {
			other = append(other, fmt.Sprintf("file %s: record rejected, not counted (TRN-D14): %v", f.Name, oneLine(err.Error())))
			continue
		}
		m := protocol.NewMachine(tr.Game)
		if len(tr.Messages) == 0 {
			other = append(other, fmt.Sprintf("file %s: a record without its invitation, not counted (TRN-D14)", f.Name))
			continue
		}
		if _, err := m.Apply(&tr.Messages[0]); err != nil {
			other = append(other, fmt.Sprintf("file %s: game %s: its invitation is refused, not counted (TRN-D14): %v", f.Name, tr.Game, oneLine(err.Error())))
			continue
		}
		if m.Tournament == nil || m.Tournament.ID != t.ID {
			where := "no tournament"
			if m.Tournament != nil {
				where = "another tournament, " + m.Tournament.ID
			}
			other = append(other, fmt.Sprintf("file %s: game %s is a game of %s, not counted (TRN-D15)", f.Name, tr.Game, where))
			continue
		}
		g := recordGame{file: f.Name, game: tr.Game.String(), ref: *m.Tournament,
			black: tr.Peers[protocol.Inviter].String(), white: tr.Peers[protocol.Invitee].String(),
			options: protocol.OptionsToBody(m.Options)}
		g.counted, g.blackQ, g.whiteQ, g.how = classify(tr)
		key := [2]int{g.ref.Round, g.ref.Board}
		byBoard[key] = append(byBoard[key], g)
	}
	n := len(t.Participants)
	points := make([]int, n)
	var previous []Round
	for r := 1; r <= t.Body.Rounds; r++ {
		half := make([]int, n)
		for i, p := range points {
			half[i] = p / 2
		}
		round, err := t.Pairings(r, previous, half)
		if err != nil {
			s.NotCounted = append(s.NotCounted, fmt.Sprintf("round %d: %v", r, err))
			break
		}
		previous = append(previous, round)
		rr := RoundResult{Round: round}
		if round.Bye >= 0 && t.Body.System == SystemSwiss && t.Participants[round.Bye].Unentered == "" {
			points[round.Bye] += win // TRN-D16
		}
		for _, pr := range round.Games {
			b := s.board(r, pr, byBoard[[2]int{r, pr.Board}])
			delete(byBoard, [2]int{r, pr.Board})
			if b.Counted {
				points[pr.Black] += b.BlackPoints
				points[pr.White] += b.WhitePoints
			} else {
				s.NotCounted = append(s.NotCounted, fmt.Sprintf("round %d board %d (%s – %s): %s", r, pr.Board,
					s.who(pr.Black), s.who(pr.White), b.How))
			}
			rr.Boards = append(rr.Boards, b)
		}
		s.Rounds = append(s.Rounds, rr)
	}
	// Records of boards no round has.
	keys := make([][2]int, 0, len(byBoard))
	for k := range byBoard {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [2]int) int { return cmpPair(a, b) })
	for _, k := range keys {
		for _, g := range byBoard[k] {
			s.NotCounted = append(s.NotCounted, fmt.Sprintf("file %s: game %s names round %d board %d, which the pairings do not have, not counted (TRN-D6)", g.file, g.game, k[0], k[1]))
		}
	}
	for _, p := range t.Participants {
		if p.Unentered != "" {
			s.NotCounted = append(s.NotCounted, fmt.Sprintf("participant %s: no valid signed entry, none of its games counts and it is not in the table (TRN-D2): %s", p.Peer, oneLine(p.Unentered)))
		}
	}
	s.NotCounted = append(s.NotCounted, other...)
	s.table(points)
	return s
}

func cmpPair(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// who names a participant in a line: its display name (escaped) and its
// peer ID.
func (s *Standings) who(i int) string {
	p := s.Tournament.Participants[i]
	if p.Name == "" {
		return p.Peer
	}
	return SafeText(p.Name) + " " + p.Peer
}

// board decides what counts of one board from the records that name it.
func (s *Standings) board(r int, pr Pairing, games []recordGame) BoardResult {
	b := BoardResult{Pairing: pr}
	t := s.Tournament
	black, white := t.Participants[pr.Black], t.Participants[pr.White]
	if black.Unentered != "" || white.Unentered != "" {
		b.How = "a participant without a valid signed entry, not counted (TRN-D2)"
		return b
	}
	want := protocol.OptionsToBody(t.GameOptions)
	byGame := map[string][]recordGame{}
	var ids []string
	var wrong []string
	for _, g := range games {
		switch {
		case g.black != black.Peer || g.white != white.Peer:
			wrong = append(wrong, fmt.Sprintf("game %s (file %s) pairs %s as black with %s as white, not the computed pairing (TRN-D6)", g.game, g.file, g.black, g.white))
			continue
		case g.options != want:
			wrong = append(wrong, fmt.Sprintf("game %s (file %s) is played with other options than the announced ones (TRN-D6)", g.game, g.file))
			continue
		}
		if _, seen := byGame[g.game]; !seen {
			ids = append(ids, g.game)
		}
		byGame[g.game] = append(byGame[g.game], g)
	}
	slices.Sort(ids)
	var counted []recordGame
	var why []string
	for _, id := range ids {
		copies := byGame[id]
		var c []recordGame
		for _, g := range copies {
			if g.counted {
				c = append(c, g)
			}
		}
		switch {
		case len(c) == 0:
			why = append(why, fmt.Sprintf("game %s: %s", id, copies[0].how))
		case slices.ContainsFunc(c, func(g recordGame) bool { return g.blackQ != c[0].blackQ || g.whiteQ != c[0].whiteQ }):
			why = append(why, fmt.Sprintf("game %s: its records give different results, not counted (TRN-D14)", id))
		default:
			counted = append(counted, c[0])
		}
	}
	switch {
	case len(counted) == 1:
		g := counted[0]
		b.Counted, b.Game, b.BlackPoints, b.WhitePoints, b.How = true, g.game, g.blackQ, g.whiteQ, g.how
		for _, w := range wrong {
			s.NotCounted = append(s.NotCounted, fmt.Sprintf("round %d board %d: %s", r, pr.Board, w))
		}
		return b
	case len(counted) > 1:
		why = append(why, fmt.Sprintf("%d games with a result for one board, not counted (TRN-D14)", len(counted)))
	}
	why = append(why, wrong...)
	if len(why) == 0 {
		why = append(why, "no record: never played (TRN-D13)")
	}
	b.How = strings.Join(why, "; ")
	return b
}

// table computes the points and tie-breaks and ranks the participants
// with a valid entry (TRN-D16).
func (s *Standings) table(points []int) {
	t := s.Tournament
	rows := make([]Row, len(t.Participants))
	for i, p := range t.Participants {
		rows[i] = Row{Participant: p, Seat: i, Points: points[i]}
	}
	for _, rr := range s.Rounds {
		if rr.Bye >= 0 {
			rows[rr.Bye].Byes++
		}
		for _, b := range rr.Boards {
			if !b.Counted {
				continue
			}
			for _, side := range [2][3]int{{b.Black, b.White, b.BlackPoints}, {b.White, b.Black, b.WhitePoints}} {
				me, opp, mine := side[0], side[1], side[2]
				rows[me].Games++
				rows[me].SOS += points[opp]
				switch mine {
				case win:
					rows[me].Wins++
					rows[me].SODOS += points[opp]
					rows[me].SB += points[opp]
				case draw:
					rows[me].SB += points[opp] / 2
				}
			}
		}
	}
	rows = slices.DeleteFunc(rows, func(r Row) bool { return r.Unentered != "" })
	key := func(r Row) []int {
		if t.Body.System == SystemSwiss {
			return []int{r.Points, r.SOS, r.SODOS}
		}
		return []int{r.Points, r.SB}
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := slices.Compare(key(b), key(a)); c != 0 {
			return c
		}
		return a.Seat - b.Seat
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && slices.Equal(key(rows[i]), key(rows[i-1])) {
			rows[i].Rank, rows[i].Tied = rows[i-1].Rank, true
			rows[i-1].Tied = true
		}
	}
	s.Table = rows
}

// Quarters writes q quarter points as a decimal: 3, 2.5, 1.25.
func Quarters(q int) string {
	sign := ""
	if q < 0 {
		sign, q = "-", -q
	}
	s := strconv.Itoa(q / 4)
	switch q % 4 {
	case 1:
		s += ".25"
	case 2:
		s += ".5"
	case 3:
		s += ".75"
	}
	return sign + s
}

// SafeText is untrusted text as the table prints it: control and
// formatting characters are replaced by '?'.
func SafeText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return '?'
		}
		return r
	}, s)
}

// oneLine joins the lines of a message.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// systemName is how the table names the pairing system.
func (t *Tournament) systemName() string {
	if t.Body.System == SystemSwiss {
		return "Swiss system"
	}
	return "round robin (Berger tables)"
}

// Text writes the standings as `kakure standings` prints them: the
// tournament, each round's boards and results, the table, and what was
// not counted. The same announcement and records give the same bytes.
func (s *Standings) Text() []byte {
	t := s.Tournament
	var b bytes.Buffer
	o := t.GameOptions
	fmt.Fprintf(&b, "tournament %s", t.ID)
	if t.Body.Name != "" {
		fmt.Fprintf(&b, " %q", SafeText(t.Body.Name))
	}
	fmt.Fprintf(&b, "\norganizer %s\n%s, %d rounds, %d participants; %s %dx%d komi %v", t.Body.Organizer, t.systemName(), t.Body.Rounds, len(t.Participants), o.Variant, o.Size, o.Size, o.Komi)
	if !o.Time.IsNone() {
		fmt.Fprintf(&b, ", clock %s", o.Time)
	}
	b.WriteString("\n")
	for _, rr := range s.Rounds {
		fmt.Fprintf(&b, "\nround %d\n", rr.Number)
		for _, bd := range rr.Boards {
			result := "not counted"
			if bd.Counted {
				result = fmt.Sprintf("%s-%s %s, game %s", Quarters(bd.BlackPoints), Quarters(bd.WhitePoints), bd.How, bd.Game)
			}
			fmt.Fprintf(&b, "  board %d: black %s, white %s: %s\n", bd.Board, s.who(bd.Black), s.who(bd.White), result)
		}
		if rr.Bye >= 0 {
			pts := "no points (TRN-D16)"
			if t.Body.System == SystemSwiss {
				pts = "1 point (TRN-D16)"
			}
			fmt.Fprintf(&b, "  bye: %s, %s\n", s.who(rr.Bye), pts)
		}
	}
	b.WriteString("\nstandings\n")
	head := []string{"rank", "points", "SOS", "SODOS"}
	if t.Body.System == SystemRoundRobin {
		head = []string{"rank", "points", "SB"}
	}
	head = append(head, "games", "wins", "name", "peer")
	var lines [][]string
	for _, r := range s.Table {
		lines = append(lines, s.cells(r, false))
	}
	writeColumns(&b, head, lines)
	if len(s.NotCounted) > 0 {
		b.WriteString("\nnot counted\n")
		for _, l := range s.NotCounted {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.Bytes()
}

// cells writes a row's cells, in the columns of Text and CSV.
func (s *Standings) cells(r Row, csvForm bool) []string {
	rank := strconv.Itoa(r.Rank)
	if r.Tied && !csvForm {
		rank += "="
	}
	c := []string{rank, Quarters(r.Points)}
	if s.Tournament.Body.System == SystemSwiss {
		c = append(c, Quarters(r.SOS), Quarters(r.SODOS))
	} else {
		c = append(c, Quarters(r.SB))
	}
	name := SafeText(r.Name)
	if name == "" && !csvForm {
		name = "-"
	}
	return append(c, strconv.Itoa(r.Games), strconv.Itoa(r.Wins), name, r.Peer)
}

// writeColumns writes a plain table, columns padded with spaces.
func writeColumns(b *bytes.Buffer, head []string, rows [][]string) {
	width := make([]int, len(head))
	for _, row := range append([][]string{head}, rows...) {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, row := range append([][]string{head}, rows...) {
		var line strings.Builder
		for i, c := range row {
			line.WriteString(c)
			if i < len(row)-1 {
				line.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// CSV writes the table as standings.csv holds it: a header line, then one
// line a participant in rank order (a tie: the same rank).
func (s *Standings) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	head := []string{"rank", "points", "sos", "sodos"}
	if s.Tournament.Body.System == SystemRoundRobin {
		head = []string{"rank", "points", "sb"}
	}
	w.Write(append(head, "games", "wins", "name", "peer"))
	for _, r := range s.Table {
		w.Write(s.cells(r, true))
	}
	w.Flush()
	return b.Bytes()
}
