package engine

// The differential test of plain Go against GNU Go, the real program,
// spoken to over GTP. GNU Go runs with
//
//	--mode gtp --chinese-rules --positional-superko --forbid-suicide
//
// which are the rules of GO-1..GO-3: in GNU Go 3.8 the GTP commands play,
// is_legal and all_legal all ask is_allowed_move, which refuses an
// occupied point, a suicide (--forbid-suicide, the default) and, with
// --positional-superko, any move whose resulting position (ko point not
// counted) equals the current one or the one before any earlier move,
// passes included. That is our history: the start position and the
// position after every move. (--situational-superko would compare only
// positions with the same player to move, which is not GO-3.)
//
// GNU Go remembers the last 500 moves only (MAX_MOVE_HISTORY); beyond that
// it folds the oldest moves into its start position and forgets their
// positions, so random games stop at 500 moves.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// gnugoBinary is where Debian's gnugo package installs the program (it is
// not on PATH there).
const gnugoBinary = "/usr/games/gnugo"

// gnugoArgs select GTP mode and the rules of plain Go.
var gnugoArgs = []string{"--mode", "gtp", "--chinese-rules", "--positional-superko", "--forbid-suicide"}

// gnugoMaxMoves is GNU Go's MAX_MOVE_HISTORY: its superko sees only this
// many moves back.
const gnugoMaxMoves = 500

// gnugoPath returns the GNU Go program, or skips the test when it is not
// installed; CI must run the test, so there a missing program fails it.
func gnugoPath(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(gnugoBinary); err == nil {
		return gnugoBinary
	}
	if p, err := exec.LookPath("gnugo"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("GNU Go is not installed (%s); CI must run the differential test: apt-get install -y gnugo", gnugoBinary)
	}
	t.Skipf("GNU Go is not installed (%s); skipping the differential test", gnugoBinary)
	return ""
}

// gnugoProcess is one running GNU Go in GTP mode.
type gnugoProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	// broken is set when GNU Go stopped answering; the process is not
	// used again.
	broken bool
}

// startGnuGo starts GNU Go and stops it when the test ends.
func startGnuGo(t *testing.T, path string) *gnugoProcess {
	t.Helper()
	cmd := exec.Command(path, gnugoArgs...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting GNU Go: %v", err)
	}
	g := &gnugoProcess{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<16)}
	t.Cleanup(func() {
		// GNU Go ends at the end of its input; closing stdin also stops
		// a write still blocked on it.
		stdin.Close()
		io.Copy(io.Discard, g.out)
		cmd.Wait()
	})
	return g
}

// gnugoReply is GNU Go's answer to one command.
type gnugoReply struct {
	ok   bool
	text string
}

// readReply reads one GTP response: "= text" or "? message", then lines
// up to an empty one. An SGF record that "printsgf /dev/stdout" wrote just
// before the response is returned as the reply's text.
func (g *gnugoProcess) readReply() (gnugoReply, error) {
	line, err := g.out.ReadString('\n')
	if err != nil {
		return gnugoReply{}, fmt.Errorf("reading from GNU Go: %w", err)
	}
	var sgf strings.Builder
	for strings.HasPrefix(line, "(;") || sgf.Len() > 0 {
		sgf.WriteString(line)
		end := strings.TrimSpace(line) == ")"
		if line, err = g.out.ReadString('\n'); err != nil {
			return gnugoReply{}, fmt.Errorf("reading from GNU Go: %w", err)
		}
		if end {
			break
		}
	}
	if line == "" || (line[0] != '=' && line[0] != '?') {
		return gnugoReply{}, fmt.Errorf("GNU Go sent %q, not a GTP response", line)
	}
	r := gnugoReply{ok: line[0] == '=', text: strings.TrimSpace(line[1:])}
	if sgf.Len() > 0 && r.ok && r.text == "" {
		r.text = sgf.String()
	}
	for {
		more, err := g.out.ReadString('\n')
		if err != nil {
			return r, fmt.Errorf("reading from GNU Go: %w", err)
		}
		if strings.TrimSpace(more) == "" {
			return r, nil
		}
		r.text += "\n" + strings.TrimRight(more, "\r\n")
	}
}

// exchange sends every command at once (GTP answers in order, so the
// commands can be pipelined) and returns the replies in order.
func (g *gnugoProcess) exchange(cmds []gnugoCommand) ([]gnugoReply, error) {
	var buf bytes.Buffer
	for _, c := range cmds {
		buf.WriteString(c.line)
		buf.WriteByte('\n')
	}
	written := make(chan error, 1)
	go func() {
		_, err := g.stdin.Write(buf.Bytes())
		written <- err
	}()
	replies := make([]gnugoReply, 0, len(cmds))
	for range cmds {
		r, err := g.readReply()
		if err != nil {
			return nil, err
		}
		replies = append(replies, r)
	}
	if err := <-written; err != nil {
		return nil, fmt.Errorf("writing to GNU Go: %w", err)
	}
	return replies, nil
}

// gnugoWant says how a reply is compared.
type gnugoWant uint8

const (
	gnugoAccepted gnugoWant = iota // success, text ignored
	gnugoRefused                   // failure ("? illegal move")
	gnugoText                      // success with exactly this text
	gnugoVertices                  // success with this set of vertices (text)
	gnugoStones                    // list_stones: the stones of one colour
	gnugoPosition                  // printsgf: the whole position
)

// gnugoCommand is one GTP command and the answer our engine expects.
type gnugoCommand struct {
	line  string
	want  gnugoWant
	text  string // gnugoText, gnugoVertices (sorted, FormatVertices)
	color Color  // gnugoStones
	// moves is how many moves were played before this command; our
	// position then is the script's boards[moves].
	moves int
}

// check compares GNU Go's reply with what our engine says.
func (c gnugoCommand) check(s *gnugoScript, r gnugoReply) error {
	ours := s.boards[c.moves]
	switch c.want {
	case gnugoAccepted:
		if !r.ok {
			return fmt.Errorf("GNU Go refused (%s), our engine accepts", r.text)
		}
	case gnugoRefused:
		if r.ok {
			return errors.New("GNU Go accepted, our engine refuses")
		}
	case gnugoText:
		if !r.ok || r.text != c.text {
			return fmt.Errorf("GNU Go says %q (ok=%v), our engine %q", r.text, r.ok, c.text)
		}
	case gnugoVertices, gnugoStones:
		if !r.ok {
			return fmt.Errorf("GNU Go failed: %s", r.text)
		}
		var ps []Point
		for _, v := range strings.Fields(r.text) {
			p, err := ParseVertex(s.size, v)
			if err != nil {
				return fmt.Errorf("GNU Go sent %q: %v", r.text, err)
			}
			ps = append(ps, p)
		}
		slices.Sort(ps)
		want := c.text
		if c.want == gnugoStones {
			want = FormatVertices(s.size, ours.Stones(c.color))
		}
		if got := FormatVertices(s.size, ps); got != want {
			return fmt.Errorf("GNU Go: %s\n  ours:   %s", got, want)
		}
	case gnugoPosition:
		if !r.ok {
			return fmt.Errorf("GNU Go failed: %s", r.text)
		}
		theirs, err := gnugoSGFBoard(s.size, r.text)
		if err != nil {
			return err
		}
		if theirs != ours {
			return fmt.Errorf("the stones differ; GNU Go's position:\n%v", theirs)
		}
	}
	return nil
}

// gnugoSGFBoard reads the position from the AB and AW setup properties of
// the SGF record that GNU Go's printsgf writes. SGF points are two
// letters, column then row, from the top-left corner.
func gnugoSGFBoard(size int, sgf string) (Board, error) {
	b := MustNewBoard(size)
	color := Empty
	for i := 0; i < len(sgf); i++ {
		switch ch := sgf[i]; {
		case ch == '[':
			end := strings.IndexByte(sgf[i:], ']')
			if end < 0 {
				return b, fmt.Errorf("GNU Go's SGF has an unclosed value: %q", sgf)
			}
			if v := sgf[i+1 : i+end]; color != Empty {
				if len(v) != 2 || v[0] < 'a' || int(v[0]-'a') >= size || v[1] < 'a' || int(v[1]-'a') >= size {
					return b, fmt.Errorf("GNU Go's SGF has the point %q", v)
				}
				b.Set(PointAt(size, int(v[0]-'a'), size-1-int(v[1]-'a')), color)
			}
			i += end
		case ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(sgf) && sgf[j] >= 'A' && sgf[j] <= 'Z' {
				j++
			}
			switch sgf[i:j] {
			case "AB":
				color = Black
			case "AW":
				color = White
			default:
				color = Empty
			}
			i = j - 1
		}
	}
	return b, nil
}

// gnugoScript is a whole game to play on GNU Go, with our engine's answers.
type gnugoScript struct {
	name   string // names the game in reports
	size   int
	cmds   []gnugoCommand
	plays  []string // the play commands of the moves played, in order
	boards []Board  // our position after each move (boards[0]: start)
}

// add appends a command to the script.
func (s *gnugoScript) add(line string, want gnugoWant, text string) {
	s.cmds = append(s.cmds, gnugoCommand{line: line, want: want, text: text, moves: len(s.plays)})
}

// addState appends the checks of the position after a move: the capture
// counts and the stones of both colours. The stones come from "printsgf
// /dev/stdout", which writes the position as an SGF record with AB and AW
// properties. GNU Go's GTP output is unbuffered, one write per vertex and
// per space, so list_stones would cost two system calls per stone on the
// board, while printsgf writes through a buffered file in one; list_stones
// checks the same stones at the end of each game.
func (s *gnugoScript) addState(g GoGame) {
	s.add("captures black", gnugoText, strconv.Itoa(g.Captures(Black)))
	s.add("captures white", gnugoText, strconv.Itoa(g.Captures(White)))
	s.add("printsgf /dev/stdout", gnugoPosition, "")
}

// gtpColor is the GTP name of a player.
func gtpColor(c Color) string {
	if c == Black {
		return "b"
	}
	return "w"
}

// gnugoGameSettings are the chances and limits of the random games.
type gnugoGameSettings struct {
	passChance  float64 // chance of a pass instead of a move
	probeChance float64 // chance of trying a point that may be illegal first
	allLegal    int     // compare all_legal every this many moves (0: never)
}

// gnugoRandomGame plays a random game of plain Go with our engine and
// writes it as a GTP script with the answers our engine expects. Moves
// are uniformly random among the points our engine says are legal, with a
// small chance of a pass; some turns first try a point that may be
// illegal (any point, or an empty point our engine refuses: a suicide or
// a superko), comparing is_legal and play's acceptance.
func gnugoRandomGame(size int, seed uint64, set gnugoGameSettings) *gnugoScript {
	rng := rand.New(rand.NewPCG(seed, uint64(size)))
	g, err := NewGoGame(Options{Variant: VariantGo, Size: size})
	if err != nil {
		panic(err)
	}
	s := &gnugoScript{name: fmt.Sprintf("%dx%d game seed %d", size, size, seed), size: size, boards: []Board{g.Board()}}
	s.add(fmt.Sprintf("boardsize %d", size), gnugoAccepted, "")
	s.add("clear_board", gnugoAccepted, "")
	s.add("komi 7.5", gnugoAccepted, "")
	limit := min(3*size*size, gnugoMaxMoves)
	for g.MoveNumber() < limit && !g.PlayEnded() {
		c := g.ToMove()
		move := NoPoint
		if rng.Float64() < set.probeChance {
			probe, who := gnugoProbe(rng, g)
			v := probe.Vertex(size)
			legal := g.Check(who, probe) == nil
			s.add(fmt.Sprintf("is_legal %s %s", gtpColor(who), v), gnugoText, map[bool]string{true: "1", false: "0"}[legal])
			switch {
			case who != c:
				// Only asked; the player to move still moves.
			case legal:
				move = probe
			default:
				s.add(fmt.Sprintf("play %s %s", gtpColor(who), v), gnugoRefused, "")
			}
		}
		if move == NoPoint {
			if rng.Float64() < set.passChance {
				move = Pass
			} else {
				move = gnugoRandomLegal(rng, g, c)
			}
		}
		next, _, err := g.Play(c, move)
		if err != nil {
			panic(fmt.Sprintf("our engine refused the move it chose: %v", err))
		}
		g = next
		line := "play " + gtpColor(c) + " " + move.Vertex(size)
		s.add(line, gnugoAccepted, "")
		s.plays = append(s.plays, line)
		s.boards = append(s.boards, g.Board())
		s.addState(g)
		if set.allLegal > 0 && g.MoveNumber()%set.allLegal == 0 {
			to := g.ToMove()
			s.add("all_legal "+gtpColor(to), gnugoVertices, FormatVertices(size, g.LegalPoints(to)))
		}
	}
	s.cmds = append(s.cmds,
		gnugoCommand{line: "list_stones black", want: gnugoStones, color: Black, moves: len(s.plays)},
		gnugoCommand{line: "list_stones white", want: gnugoStones, color: White, moves: len(s.plays)})
	return s
}

// gnugoRandomLegal returns a uniformly random point c may play, or Pass if
// there is none: empty points are tried in a random order and the first
// legal one is taken. Board.Place rules out suicides before the whole-board
// history is searched.
func gnugoRandomLegal(rng *rand.Rand, g GoGame, c Color) Point {
	b := g.Board()
	empty := b.Stones(Empty)
	for len(empty) > 0 {
		i := rng.IntN(len(empty))
		p := empty[i]
		if _, res := b.Place(p, c); !res.Suicide && g.Check(c, p) == nil {
			return p
		}
		empty[i] = empty[len(empty)-1]
		empty = empty[:len(empty)-1]
	}
	return Pass
}

// gnugoProbe picks a point to try and who tries it (mostly the player to
// move): a third of the time any point of the board; a third of the time
// an empty point our engine refuses, if there is one: a suicide, or a
// capture that repeats a position (a move that captures nothing is not
// searched for in the history here, as it repeats a position only in
// contrived cycles); a third of the time an empty point where a stone
// would capture, legal or not, if there is one: ko recaptures and the
// longer cycles of positional superko are among those, and uniformly
// random moves seldom find them.
func gnugoProbe(rng *rand.Rand, g GoGame) (Point, Color) {
	who := g.ToMove()
	if rng.IntN(4) == 0 {
		who = who.Opponent()
	}
	b := g.Board()
	captures := gnugoCapturePoints(b, who)
	switch rng.IntN(3) {
	case 1:
		empty := b.Stones(Empty)
		rng.Shuffle(len(empty), func(i, j int) { empty[i], empty[j] = empty[j], empty[i] })
		for _, p := range empty {
			if captures[p] {
				if g.Check(who, p) != nil {
					return p, who
				}
				continue
			}
			if !gnugoHasEmptyNeighbor(b, p) {
				if _, res := b.Place(p, who); res.Suicide {
					return p, who
				}
			}
		}
	case 2:
		var ps []Point
		for p, ok := range captures {
			if ok {
				ps = append(ps, p)
			}
		}
		if len(ps) > 0 {
			slices.Sort(ps)
			return ps[rng.IntN(len(ps))], who
		}
	}
	return Point(rng.IntN(b.Points())), who
}

// gnugoCapturePoints returns the empty points where a stone of c would
// capture: the last liberties of the opponent's chains.
func gnugoCapturePoints(b Board, c Color) map[Point]bool {
	points := make(map[Point]bool)
	var seen [MaxPoints]bool
	for _, p := range b.Stones(c.Opponent()) {
		if seen[p] {
			continue
		}
		stones, libs := b.Chain(p)
		for _, s := range stones {
			seen[s] = true
		}
		if len(libs) == 1 {
			points[libs[0]] = true
		}
	}
	return points
}

// gnugoHasEmptyNeighbor reports whether a stone at p would have a liberty
// of its own, so that it cannot be a suicide.
func gnugoHasEmptyNeighbor(b Board, p Point) bool {
	ns, n := b.Neighbors(p)
	for _, q := range ns[:n] {
		if b.At(q) == Empty {
			return true
		}
	}
	return false
}

// errGnuGoBroken marks a failure to talk to GNU Go (not a disagreement):
// the process cannot be used any more.
var errGnuGoBroken = errors.New("GNU Go does not answer")

// gnugoPlay runs a script on GNU Go and returns the first disagreement,
// with the GTP commands that reproduce it.
func gnugoPlay(p *gnugoProcess, s *gnugoScript) error {
	replies, err := p.exchange(s.cmds)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", errGnuGoBroken, s.name, err)
	}
	for i, c := range s.cmds {
		if err := c.check(s, replies[i]); err != nil {
			var repro strings.Builder
			fmt.Fprintf(&repro, "boardsize %d\nclear_board\nkomi 7.5\n", s.size)
			for _, line := range s.plays[:c.moves] {
				repro.WriteString(line + "\n")
			}
			repro.WriteString(c.line + "\n")
			return fmt.Errorf("%s, after %d moves, %q: %v\nour position:\n%v\nGTP commands to reproduce:\n%s",
				s.name, c.moves, c.line, err, s.boards[c.moves], repro.String())
		}
	}
	return nil
}

// gnugoGames is how many random games the differential test plays per
// board size: 100, and 1000 in the full tier (KAKURE_TEST_FULL=1).
func gnugoGames() int {
	return testenv.Size(100, 1000)
}

// gnugoWorkers is how many GNU Go processes play games at once.
const gnugoWorkers = 2

// TestGO1to3GnuGoRandomGames plays random games of plain Go with our engine
// and checks every move on GNU Go: legality (play, is_legal, all_legal),
// captures (GO-1), suicide (GO-2), positional superko (GO-3), and the
// stones of both colours after each move.
func TestGO1to3GnuGoRandomGames(t *testing.T) {
	path := gnugoPath(t)
	procs := make([]*gnugoProcess, gnugoWorkers)
	for i := range procs {
		procs[i] = startGnuGo(t, path)
	}
	set := gnugoGameSettings{passChance: 0.02, probeChance: 0.1, allLegal: 50}
	for _, size := range []int{9, 13} {
		t.Run(fmt.Sprintf("%dx%d", size, size), func(t *testing.T) {
			games := gnugoGames()
			next := make(chan int)
			var failures atomic.Int32
			var wg sync.WaitGroup
			for _, p := range procs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						if p.broken {
							continue
						}
						seed := uint64(1000*size + i)
						if err := gnugoPlay(p, gnugoRandomGame(size, seed, set)); err != nil {
							t.Error(err)
							failures.Add(1)
							p.broken = errors.Is(err, errGnuGoBroken)
						}
					}
				}()
			}
			for i := 0; i < games && failures.Load() < 3; i++ {
				next <- i
			}
			close(next)
			wg.Wait()
		})
	}
}

// gnugoRuleCase is a case of the GO-1..GO-3 tables, replayed on GNU Go.
type gnugoRuleCase struct {
	name   string
	before []string
	moves  []string // legal moves after the diagram
	last   string   // the move compared
	legal  bool     // the table's answer
}

// gnugoRuleCases collects the cases of goCaptureCases, goSuicideCases and
// goSuperkoCases.
func gnugoRuleCases() []gnugoRuleCase {
	var cases []gnugoRuleCase
	for _, c := range goCaptureCases {
		cases = append(cases, gnugoRuleCase{name: c.name, before: c.before, last: c.move, legal: true})
	}
	for _, c := range goSuicideCases {
		cases = append(cases, gnugoRuleCase{name: c.name, before: c.before, last: c.move, legal: c.legal})
	}
	for _, c := range goSuperkoCases {
		cases = append(cases, gnugoRuleCase{name: c.name, before: c.before, moves: c.moves, last: c.last, legal: c.want == nil})
	}
	return cases
}

// gnugoRuleScript writes a rule case as a GTP script: the diagram's stones
// played one by one in point order (a chain placed part by part always
// keeps a liberty, so nothing is captured on the way), the case's moves,
// then is_legal and play of the last move and the position after it, with
// our engine's answers. Both engines get the same history that way.
func gnugoRuleScript(t *testing.T, rc gnugoRuleCase) *gnugoScript {
	t.Helper()
	diagram := MustParseBoard(rc.before...)
	size := diagram.Size()
	g, err := NewGoGame(Options{Variant: VariantGo, Size: size})
	if err != nil {
		t.Fatal(err)
	}
	s := &gnugoScript{name: rc.name, size: size, boards: []Board{g.Board()}}
	s.add(fmt.Sprintf("boardsize %d", size), gnugoAccepted, "")
	s.add("clear_board", gnugoAccepted, "")
	s.add("komi 7.5", gnugoAccepted, "")
	play := func(c Color, p Point) {
		next, _, err := g.Play(c, p)
		if err != nil {
			t.Fatalf("setting up: %v %s refused: %v", c, p.Vertex(size), err)
		}
		g = next
		line := "play " + gtpColor(c) + " " + p.Vertex(size)
		s.add(line, gnugoAccepted, "")
		s.plays = append(s.plays, line)
		s.boards = append(s.boards, g.Board())
	}
	for i := 0; i < diagram.Points(); i++ {
		if c := diagram.At(Point(i)); c != Empty {
			play(c, Point(i))
		}
	}
	if g.Board() != diagram {
		t.Fatalf("setting up the diagram gave\n%v", g.Board())
	}
	for _, m := range rc.moves {
		play(goSpecMove(t, size, m))
	}
	s.addState(g)
	c, p := goSpecMove(t, size, rc.last)
	legal := g.Check(c, p) == nil
	if legal != rc.legal {
		t.Fatalf("after the setup moves our engine says legal=%v for %s, the table %v", legal, rc.last, rc.legal)
	}
	s.add("is_legal "+gtpColor(c)+" "+p.Vertex(size), gnugoText, map[bool]string{true: "1", false: "0"}[legal])
	if legal {
		play(c, p)
		s.addState(g)
	} else {
		s.add("play "+gtpColor(c)+" "+p.Vertex(size), gnugoRefused, "")
	}
	s.cmds = append(s.cmds,
		gnugoCommand{line: "list_stones black", want: gnugoStones, color: Black, moves: len(s.plays)},
		gnugoCommand{line: "list_stones white", want: gnugoStones, color: White, moves: len(s.plays)})
	return s
}

// TestGO1to3GnuGoRuleCases replays the hand-made cases of the GO-1, GO-2
// and GO-3 tables on GNU Go: it must agree on the legality of each case's
// move, on what the move captures and on the position after it.
func TestGO1to3GnuGoRuleCases(t *testing.T) {
	p := startGnuGo(t, gnugoPath(t))
	for _, rc := range gnugoRuleCases() {
		t.Run(rc.name, func(t *testing.T) {
			if err := gnugoPlay(p, gnugoRuleScript(t, rc)); err != nil {
				t.Error(err)
			}
		})
	}
}
