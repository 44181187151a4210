package main

import (
	"crypto/rand"
	"encoding/json"

	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestSERD5BotSeriesKillAndResume plays a 3-game series between two
// `kakure bot` processes on loopback (plain Go 9×9, random players) and
// kills one of them with SIGKILL during game 2. The inviter, started
// again with the same command, resumes game 2, plays game 3 and prints
// the score; game 1 is not played again. The invitee, started again on
// its home and port, resumes game 2 and the inviter goes on with game 3.
// Both homes then hold the three games of the series, in order, colours
// alternating, every record verified, and the score line is the
// records' (SER-D4, SER-D5, SER-D6, SER-D7).
func TestSERD5BotSeriesKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	t.Parallel()
	for _, killed := range []string{"inviter", "invitee"} {
		t.Run(killed, func(t *testing.T) {
			t.Parallel()
			killSeries(t, killed == "inviter")
		})
	}
}

// killSeries is TestSERD5BotSeriesKillAndResume, the inviter killed or
// the invitee.
func killSeries(t *testing.T, inviter bool) {
	var homeA, homeB, listenB, game2 string
	var args []string
	var a, b *process
	for attempt := 1; ; attempt++ {
		homeA, homeB = t.TempDir(), t.TempDir()
		b = startKakure(t, "bot", "--home", homeB, "--listen", anyLoopbackPort, "--seed", "2", "--progress", "0")
		id := b.waitLine(t, regexp.MustCompile(`^peer ID: (\S+)`), 20*time.Second)[1]
		listenB = b.listenAddr(t)
		args = []string{"bot", "--home", homeA, "--listen", "/ip4/127.0.0.1/tcp/0", "--seed", "1", "--progress", "0",
			"--invite", listenB + "/p2p/" + id, "--variant", "go", "--size", "9", "--games", "3"}
		a = startKakure(t, args...)
		game2 = a.waitLine(t, regexp.MustCompile(`^game (\S+) started with \S+ \(series \S+ game 2 of 3\)$`), 60*time.Second)[1]
		// Let game 2 get going, then kill one peer without warning.
		victim, home := a, homeA
		if !inviter {
			victim, home = b, homeB
		}
		record := filepath.Join(home, "games", game2+".record.json")
		deadline := testenv.Deadline(30 * time.Second)
		for lines(record) < 20 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-victim.done
		tr, err := session.LoadTranscript(record)
		if err == nil && protocol.Verify(tr).Outcome == nil {
			break
		}
		if attempt == 3 {
			t.Fatalf("game 2 ended before the peer was killed, three times")
		}
		t.Logf("attempt %d: game 2 ended before the peer was killed; again", attempt)
	}

	if inviter {
		a = startKakure(t, args...)
		a.waitLine(t, regexp.MustCompile(`^series \S+: continuing`), 20*time.Second)
		a.waitLine(t, regexp.MustCompile(`^resuming game `+game2), 20*time.Second)
	} else {
		b = restartKakure(t, listenB, "bot", "--home", homeB, "--seed", "3", "--progress", "0")
		b.waitLine(t, regexp.MustCompile(`^resuming game `+game2), 20*time.Second)
	}
	score := a.waitLine(t, regexp.MustCompile(`^series (\S+): \S+ (\S+) – (\S+) \S+$`), 90*time.Second)
	<-a.done
	// The invitee prints the same score after the last game.
	if got := b.waitLine(t, regexp.MustCompile(`^series `+score[1]+`: .*`), 30*time.Second)[0]; got != score[0] {
		t.Errorf("the invitee's score line %q, the inviter's %q", got, score[0])
	}
	out := a.output()
	if inviter && strings.Contains(out, "game 1 of 3)") {
		t.Errorf("the restarted inviter played game 1 again:\n%s", out)
	}
	for _, want := range []string{"series " + score[1] + " game 2 of 3: ", "series " + score[1] + " game 3 of 3: "} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q:\n%s", want, out)
		}
	}

	// The records of both homes: the three games, colours alternating,
	// each verified; the score is theirs.
	for _, home := range []string{homeA, homeB} {
		games, err := session.SeriesGames(filepath.Join(home, "games"), score[1])
		if err != nil || len(games) != 3 {
			t.Fatalf("%s: series games %+v, %v; want 3", home, games, err)
		}
		for i, g := range games {
			want := engine.Black
			if i == 1 {
				want = engine.White
			}
			if g.Index != i || !g.Done || g.Colors[protocol.Inviter] != want {
				t.Errorf("%s: game %d of the series: index %d done %v inviter %v; want index %d over, inviter %v", home, i+1, g.Index, g.Done, g.Colors[protocol.Inviter], i, want)
			}
			tr, err := session.LoadTranscript(g.Path)
			if err != nil {
				t.Fatal(err)
			}
			if rep := protocol.Verify(tr); rep.Violation != nil || rep.Outcome == nil {
				t.Errorf("%s: verify: %+v", g.Path, rep)
			}
		}
		// The score counted here from each result's colour and the
		// inviter's colour (no draws nor disputes in 9×9 with komi 7.5).
		inviterWins := 0
		for _, g := range games {
			winner := engine.White
			if strings.HasPrefix(g.Outcome.Result.String(), "B+") {
				winner = engine.Black
			}
			if winner == g.Colors[protocol.Inviter] {
				inviterWins++
			}
		}
		if got := [2]string{fmt.Sprint(inviterWins), fmt.Sprint(3 - inviterWins)}; got != [2]string{score[2], score[3]} {
			t.Errorf("%s: the records give %v, the score line %v", home, got, score[2:])
		}
		// kakure verify names the series and the game's place in it.
		var stdout, stderr bytes.Buffer
		if status := run(&environment{stdout: &stdout, stderr: &stderr}, []string{"verify", games[1].Path}); status != 0 ||
			!strings.Contains(stdout.String(), fmt.Sprintf("series %s game 2 of 3 (colours alternate", score[1])) {
			t.Errorf("kakure verify: status %d:\n%s%s", status, stdout.String(), stderr.String())
		}
		// kakure standings recomputes the same score from the records
		// alone (SER-D9), and writes standings.csv beside them.
		stdout.Reset()
		stderr.Reset()
		if status := run(&environment{stdout: &stdout, stderr: &stderr}, []string{"standings", filepath.Join(home, "games")}); status != 0 ||
			!strings.Contains(stdout.String(), fmt.Sprintf("series %s (agreement", score[1])) ||
			!strings.Contains(stdout.String(), fmt.Sprintf("score: inviter %s – %s invitee\n", score[2], score[3])) {
			t.Errorf("kakure standings: status %d, want the score %s – %s:\n%s%s", status, score[2], score[3], stdout.String(), stderr.String())
		}
		if _, err := os.Stat(filepath.Join(home, "games", "standings.csv")); err != nil {
			t.Error(err)
		}
	}
}

// lines counts the lines of a file (0 when it cannot be read).
func lines(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte("\n"))
}

// TestSERD5BotSeriesFlags checks the usage errors of --games and
// --colours.
func TestSERD5BotSeriesFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--games", "3"}, "give --invite"},
		{[]string{"--invite", "/ip4/127.0.0.1/tcp/1", "--games", "0"}, "1 to 99"},
		{[]string{"--invite", "/ip4/127.0.0.1/tcp/1", "--games", "100"}, "1 to 99"},
		{[]string{"--invite", "/ip4/127.0.0.1/tcp/1", "--games", "2", "--color", "black"}, "leave out --color"},
		{[]string{"--invite", "/ip4/127.0.0.1/tcp/1", "--colours", "nigiri"}, "give --games"},
		{[]string{"--invite", "/ip4/127.0.0.1/tcp/1", "--games", "2", "--colours", "random"}, "alternate or nigiri"},
	} {
		var stdout, stderr bytes.Buffer
		status := run(&environment{stdout: &stdout, stderr: &stderr}, slices.Concat([]string{"bot", "--home", t.TempDir()}, c.args))
		if status == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("kakure bot %v: status %d, %q; want a usage error with %q", c.args, status, stderr.String(), c.want)
		}
	}
}

// TestSERD6SeriesScore checks the series' points (SER-D6): a win 1, a
// draw ½ to each, a disputed game none and named.
func TestSERD6SeriesScore(t *testing.T) {
	inviterBlack := [2]engine.Color{engine.Black, engine.White}
	inviterWhite := [2]engine.Color{engine.White, engine.Black}
	game := func(i int, colors [2]engine.Color, r engine.Result) session.SeriesGame {
		return session.SeriesGame{Index: i, Done: true, Colors: colors, Outcome: &protocol.Outcome{Result: r}}
	}
	games := []session.SeriesGame{
		game(0, inviterBlack, engine.Result{Winner: engine.Black, By: engine.ByResignation}),
		game(1, inviterWhite, engine.Result{Winner: engine.Black, By: engine.ByScore, Margin: 2.5}),
		game(2, inviterBlack, engine.Result{By: engine.ByScore}),
		game(3, inviterWhite, engine.Result{By: engine.ByDispute}),
		game(4, inviterBlack, engine.Result{Winner: engine.White, By: engine.ByTime}),
		{Index: 5, Colors: inviterWhite}, // not over
	}
	h, uncounted := seriesScore(games)
	if got := [2]string{formatHalves(h[0]), formatHalves(h[1])}; got != [2]string{"1½", "2½"} {
		t.Errorf("score %v, want 1½ – 2½", got)
	}
	if len(uncounted) != 1 || uncounted[0] != "game 4 (disputed)" {
		t.Errorf("not counted: %v, want game 4 (disputed)", uncounted)
	}
	for h, want := range map[int]string{0: "0", 1: "½", 2: "1", 3: "1½", 10: "5"} {
		if got := formatHalves(h); got != want {
			t.Errorf("formatHalves(%d) = %q, want %q", h, got, want)
		}
	}
}

// TestSERD7VerifyRefusesSeriesMismatch runs `kakure verify` on a record
// of one signed invitation to game 1 of a series whose options give the
// inviter White, where the agreement's colour rule gives it Black: it
// names the inviter's invitation (T-10, the series) and exits 1. The
// same invitation with the agreement's options reads as game 1 of 3, not
// finished.
func TestSERD7VerifyRefusesSeriesMismatch(t *testing.T) {
	key, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	inviter, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	invitee := randomPeerID(t)
	a, err := session.NewSeriesAgreement(inviter, invitee, engine.Options{Variant: engine.VariantGo, Size: 9}, 3, protocol.SeriesAlternate)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		options protocol.OptionsBody
		want    []string
	}{
		{"agreed", a.GameOptions(0), []string{fmt.Sprintf("series %s game 1 of 3 (colours alternate", a.ID), "not a finished game"}},
		{"other colour", a.GameOptions(1), []string{"T-10", "inviter", "not those the series agreement gives game 1 of 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, err := protocol.NewGameID()
			if err != nil {
				t.Fatal(err)
			}
			body, err := json.Marshal(protocol.InviteBody{Version: protocol.Version, Inviter: inviter.String(), Invitee: invitee.String(),
				Options: c.options, Series: &protocol.SeriesBody{Agreement: a, Index: 0}})
			if err != nil {
				t.Fatal(err)
			}
			m := protocol.Message{Game: id, From: protocol.Inviter, Ack: -1, Kind: protocol.KindInvite, Body: body}
			if err := m.Sign(key); err != nil {
				t.Fatal(err)
			}
			tr := protocol.NewTranscript(id, protocol.PeerID(inviter), protocol.PeerID(invitee))
			if err := tr.Append(m); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), id.String()+".record.json")
			if err := session.SaveTranscript(tr, path); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			status := run(&environment{stdout: &stdout, stderr: &stderr}, []string{"verify", path})
			out := stdout.String() + stderr.String()
			if status != 1 {
				t.Errorf("status %d, want 1:\n%s", status, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("kakure verify does not say %q:\n%s", w, out)
				}
			}
		})
	}
}
