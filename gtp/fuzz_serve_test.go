package gtp

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
)

// fuzzServeVariants are the variants with a GTP handler, on small boards.
var fuzzServeVariants = []engine.Options{
	{Variant: engine.VariantGo, Size: 5},
	{Variant: engine.VariantPhantom, Size: 5},
	{Variant: engine.VariantHMG, Size: 5, Cards: 2, CardsSet: true},
	{Variant: engine.VariantGo},
}

// expectedAnswers returns the ids of the commands of script that Serve
// must answer, in order ("" for a command without id): every non-empty
// line after preprocessing that is more than an id, up to and including
// quit.
func expectedAnswers(script string) []string {
	var ids []string
	sc := bufio.NewScanner(strings.NewReader(script))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(clean(sc.Text()))
		if len(fields) == 0 {
			continue
		}
		id := ""
		if _, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			id, fields = fields[0], fields[1:]
			if len(fields) == 0 {
				continue
			}
		}
		ids = append(ids, id)
		if strings.ToLower(fields[0]) == "quit" {
			break
		}
	}
	return ids
}

// FuzzGTPServe runs arbitrary scripts through the server of each variant
// with a handler: it never panics or fails, and answers every command
// exactly once, with a success or failure answer that carries the
// command's id and holds no empty line.
func FuzzGTPServe(f *testing.F) {
	seeds := []string{
		"protocol_version\nname\nlist_commands\nquit\n",
		"1 boardsize 5\n2 clear_board\n3 play b C3\n4 genmove w\n5 showboard\n6 final_score\n",
		"play black A1\nplay white B1\nplay black pass\nplay white pass\nfinal_score\nundo\nundo\n",
		"kakure-try b C3\nkakure-try w C3\nkakure-announce b\ncaptures w\nall_legal b\n",
		"kakure-cards b C3 D4\nkakure-cards w B2 B2\nkakure-reveal b 0\ngenmove w\nlist_stones b\n",
		"komi 0.5\nkomi x\nboardsize 19\nboardsize 1\n  # comment only\n\t7\tknown_command\tplay\n",
		"is_legal b E5\nis_legal w Z9\nplay b\nplay\ngenmove\nundo\nundo\nundo\n",
		"boardsize 25\ngenmove b\ngenmove w\nfinal_score\nquit\nplay b A1\n",
	}
	for i, s := range seeds {
		for v := range fuzzServeVariants {
			if i%2 == 0 || v == 1 || v == 2 {
				f.Add(uint8(v), s)
			}
		}
	}
	f.Fuzz(func(t *testing.T, variant uint8, script string) {
		if len(script) > 4000 {
			script = script[:4000]
		}
		srv, err := NewServer(fuzzServeVariants[int(variant)%len(fuzzServeVariants)])
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := srv.Serve(strings.NewReader(script), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		want := expectedAnswers(script)
		text := out.String()
		if len(want) == 0 {
			if text != "" {
				t.Fatalf("answers %q to no command", text)
			}
			return
		}
		if !strings.HasSuffix(text, "\n\n") {
			t.Fatalf("the answers do not end with an empty line: %q", text)
		}
		answers := strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n")
		if len(answers) != len(want) {
			t.Fatalf("%d answers to %d commands:\n%s", len(answers), len(want), text)
		}
		for i, a := range answers {
			if a == "" || (a[0] != '=' && a[0] != '?') {
				t.Fatalf("answer %d %q does not start with = or ?", i, a)
			}
			rest := a[1:]
			if !strings.HasPrefix(rest, want[i]) {
				t.Fatalf("answer %d %q does not carry the id %q", i, a, want[i])
			}
			rest = rest[len(want[i]):]
			if rest != "" && rest[0] != ' ' {
				t.Fatalf("answer %d %q: no space after the id", i, a)
			}
		}
	})
}
