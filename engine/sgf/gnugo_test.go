package sgf

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

const gnugoPath = "/usr/games/gnugo"

// gtpClient talks GTP to a GNU Go process.
type gtpClient struct {
	in  io.Writer
	out *bufio.Reader
}

// send sends a command and returns the response without "= ", or an error
// for a "?" response.
func (c *gtpClient) send(cmd string) (string, error) {
	if _, err := fmt.Fprintln(c.in, cmd); err != nil {
		return "", err
	}
	var lines []string
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("%s: %w", cmd, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" && len(lines) > 0 {
			break
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	resp := strings.Join(lines, "\n")
	if strings.HasPrefix(resp, "?") {
		return "", fmt.Errorf("%s: %s", cmd, resp)
	}
	return strings.TrimSpace(strings.TrimPrefix(resp, "=")), nil
}

// startGNUGo starts GNU Go in GTP mode, or skips the test when it is not
// installed (and fails it in CI, where it must be).
func startGNUGo(t *testing.T) *gtpClient {
	t.Helper()
	if _, err := os.Stat(gnugoPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("GNU Go is required in CI: %v", err)
		}
		t.Skipf("GNU Go not installed: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), gnugoPath, "--mode", "gtp")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		fmt.Fprintln(stdin, "quit")
		stdin.Close()
		cmd.Wait()
	})
	return &gtpClient{in: stdin, out: bufio.NewReader(stdout)}
}

// sortedStones returns GTP vertices sorted, for comparing position lists.
func sortedStones(list string) []string {
	f := strings.Fields(list)
	slices.Sort(f)
	return f
}

// TestGNUGoLoadsRecords writes records of random legal games, loads them in
// GNU Go and compares its position with engine.GoGame's.
func TestGNUGoLoadsRecords(t *testing.T) {
	gtp := startGNUGo(t)
	dir := t.TempDir()
	cases := []struct {
		size, moves int
		setup       string // black setup stones
	}{
		{9, 120, ""},
		{13, 150, "D4 K10"},
		{19, 200, "D4 Q16 D16 Q4"},
	}
	captures := 0
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%dx%d", tc.size, tc.size), func(t *testing.T) {
			r, g := randomGame(t, uint64(100+i), tc.size, tc.moves, Setup{Black: vertices(t, tc.size, tc.setup)})
			data, err := r.SGF()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, fmt.Sprintf("game%d.sgf", i))
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := gtp.send("loadsgf " + path); err != nil {
				t.Fatal(err)
			}
			b := g.Board()
			for _, c := range []engine.Color{engine.Black, engine.White} {
				got, err := gtp.send("list_stones " + c.String())
				if err != nil {
					t.Fatal(err)
				}
				want := strings.Join(sortedStones(strings.ReplaceAll(engine.FormatVertices(tc.size, b.Stones(c)), ",", " ")), " ")
				if strings.Join(sortedStones(got), " ") != want && !(want == "-" && got == "") {
					t.Errorf("%s stones: GNU Go has\n%s\nwe have\n%s\nboard:\n%v", c, got, want, b)
				}
			}
			// move_history lists the moves, passes included, last first.
			history, err := gtp.send("move_history")
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, m := range slices.Backward(r.Moves) {
				want = append(want, m.Color.String()+" "+strings.ToUpper(m.Point.Vertex(tc.size)))
			}
			if got := strings.Split(history, "\n"); !slices.Equal(got, want) {
				t.Errorf("GNU Go's move history differs:\n%q\nwant\n%q", got, want)
			}
			if got, err := gtp.send("query_boardsize"); err != nil || got != fmt.Sprint(tc.size) {
				t.Errorf("board size %q, %v", got, err)
			}
			if got, err := gtp.send("get_komi"); err != nil || got != "6.5" {
				t.Errorf("komi %q, %v", got, err)
			}
			for _, c := range []engine.Color{engine.Black, engine.White} {
				got, err := gtp.send("captures " + c.String())
				if err != nil || got != fmt.Sprint(g.Captures(c)) {
					t.Errorf("%s captures: GNU Go %q (%v), engine %d", c, got, err, g.Captures(c))
				}
				captures += g.Captures(c)
			}
		})
	}
	if captures == 0 {
		t.Errorf("the random games captured nothing: the test data checks too little")
	}
}
