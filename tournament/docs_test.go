package tournament

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docPath is docs/tournaments.md, from this package's directory.
var docPath = filepath.Join("..", "docs", "tournaments.md")

// fencedBlock returns the body of the fenced block whose info string is
// info ("json entry"), or fails.
func fencedBlock(t *testing.T, doc, info string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "```"+info+"\n")
	if !ok {
		t.Fatalf("%s: no block ```%s", docPath, info)
	}
	body, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatalf("%s: the block ```%s does not close", docPath, info)
	}
	return body
}

// TestTRNGoldenExamples: the entry and the announcement printed in
// docs/tournaments.md are files the program reads: their signatures
// verify, the ID and the pairing the document states are the ones
// computed (TRN-D1, TRN-D2, TRN-D4, TRN-D6).
func TestTRNGoldenExamples(t *testing.T) {
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, e, err := ParseEntry([]byte(fencedBlock(t, doc, "json entry")))
	if err != nil {
		t.Fatalf("golden entry: %v", err)
	}
	if e.Name != "alice" || e.Call != "Autumn cup 2026 #7f3a" || !strings.Contains(doc, "The entry of the peer `"+e.Peer+"`") {
		t.Errorf("golden entry %+v is not the one the text describes", e)
	}
	tt, err := ParseAnnouncement([]byte(fencedBlock(t, doc, "json announcement")))
	if err != nil {
		t.Fatalf("golden announcement: %v", err)
	}
	if err := tt.Complete(); err != nil {
		t.Fatalf("golden announcement: %v", err)
	}
	if !strings.Contains(doc, "Its tournament ID is\n`"+tt.ID+"`") {
		t.Errorf("the document does not state the golden announcement's ID %s", tt.ID)
	}
	r, err := tt.Pairings(1, nil, nil)
	if err != nil || len(r.Games) != 1 {
		t.Fatalf("pairings: %v %+v", err, r)
	}
	g := r.Games[0]
	if tt.Participants[g.Black].Name != "bob" || tt.Participants[g.White].Name != "alice" {
		t.Errorf("round 1: black %s, white %s; the document says bob plays black", tt.Participants[g.Black].Name, tt.Participants[g.White].Name)
	}
	ref := `"tournament":{"id":"` + tt.ID + `","round":1,"board":1}`
	if !strings.Contains(doc, ref) {
		t.Errorf("the document does not show the reference %s", ref)
	}
	// One byte changed in the golden announcement: its signature fails.
	bad := strings.Replace(fencedBlock(t, doc, "json announcement"), `"rounds":1`, `"rounds":2`, 1)
	if _, err := ParseAnnouncement([]byte(bad)); err == nil {
		t.Error("an altered announcement opens")
	}
}

// TestTRNDecisionIDsDocumented: every TRN-D id the code and tests of
// this package and of cmd/kakure name is defined in docs/tournaments.md,
// and every one defined there is named by some code or test.
func TestTRNDecisionIDsDocumented(t *testing.T) {
	data, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^- \*\*(TRN-D\d+) `).FindAllStringSubmatch(string(data), -1) {
		defined[m[1]] = true
	}
	named := map[string]bool{}
	for _, dir := range []string{".", filepath.Join("..", "cmd", "kakure")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range regexp.MustCompile(`TRN-D\d+`).FindAllString(string(src), -1) {
				named[id] = true
			}
		}
	}
	for id := range named {
		if !defined[id] {
			t.Errorf("%s is named in the code but not defined in %s", id, docPath)
		}
	}
	var unnamed []string
	for id := range defined {
		if !named[id] {
			unnamed = append(unnamed, id)
		}
	}
	slices.Sort(unnamed)
	if len(unnamed) > 0 {
		t.Errorf("defined in %s but named by no code or test: %v", docPath, unnamed)
	}
}
