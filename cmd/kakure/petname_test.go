package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/ui"
)

// TestUID33PetnameCommand (UI-D33): kakure petname gives a peer a name in
// the home's book, lists the book, tells one name, takes a name away with
// an empty one, and refuses what is no peer ID, a name with control
// characters, and a book edited into nonsense (naming the file).
func TestUID33PetnameCommand(t *testing.T) {
	home := t.TempDir()
	const bob = "12D3KooWDzEsNErrGSh6vy98ujs7aRDgnaFAovkLJhfGtKfTn386"
	if code, out := runCommand(t, "petname", "--home", home, bob, "  Bob  "); code != 0 || out != bob+" is @Bob on your screens now\n" {
		t.Fatalf("petname %s Bob exited %d, saying %q (issue 34: it said nothing)", bob, code, out)
	}
	if code, out := runCommand(t, "petname", "--home", home); code != 0 || out != bob+" Bob\n" {
		t.Errorf("the book lists %q (exit %d), want %q", out, code, bob+" Bob\n")
	}
	if code, out := runCommand(t, "petname", "--home", home, bob); code != 0 || out != "Bob\n" {
		t.Errorf("petname %s says %q (exit %d), want Bob", bob, out, code)
	}
	book, err := readPetnames(home)
	if err != nil || book[bob] != "Bob" {
		t.Errorf("the book as play reads it: %v, %v", book, err)
	}
	for _, args := range [][]string{{"notapeer", "Bob"}, {bob, "Bo\x07b"}, {bob, strings.Repeat("x", 65)}} {
		if code, out := runCommand(t, append([]string{"petname", "--home", home}, args...)...); code != 2 {
			t.Errorf("petname %q exited %d, want a usage error:\n%s", args, code, out)
		}
	}
	if code, out := runCommand(t, "petname", "--home", home, bob, ""); code != 0 || out != bob+" has no petname now\n" {
		t.Fatalf("petname %s '' exited %d, saying %q", bob, code, out)
	}
	if code, out := runCommand(t, "petname", "--home", home); code != 0 || out != "" {
		t.Errorf("after taking the name away the book lists %q", out)
	}
	path := filepath.Join(home, PetnamesFile)
	if err := os.WriteFile(path, []byte(`{"nonsense": "Bob"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readPetnames(home); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a book with no peer ID reads as %v, want an error naming %s", err, path)
	}
}

// TestLIMD11PetnamedPeersAreKnown (LIM-D11): the game service counts a
// peer as known when the home's petname book names it, reading the book
// again when kakure petname changes it while the program runs; a peer
// whose name is taken away, or a book that is gone or damaged, counts as
// a stranger again.
func TestLIMD11PetnamedPeersAreKnown(t *testing.T) {
	home := t.TempDir()
	bob, err := peer.Decode("12D3KooWDzEsNErrGSh6vy98ujs7aRDgnaFAovkLJhfGtKfTn386")
	if err != nil {
		t.Fatal(err)
	}
	carol, err := peer.Decode("12D3KooWRrVST5JpBa31NkoBX8EMxpDZPBAqEFcTzGueSfk7i1RA")
	if err != nil {
		t.Fatal(err)
	}
	known := newPetnameBook(home).has
	check := func(when string, wantBob, wantCarol bool) {
		t.Helper()
		if got := known(bob); got != wantBob {
			t.Errorf("%s: Bob known %v, want %v", when, got, wantBob)
		}
		if got := known(carol); got != wantCarol {
			t.Errorf("%s: Carol known %v, want %v", when, got, wantCarol)
		}
	}
	check("no book", false, false)
	if code, out := runCommand(t, "petname", "--home", home, bob.String(), "Bob"); code != 0 {
		t.Fatalf("petname exited %d:\n%s", code, out)
	}
	check("Bob named", true, false)
	if code, out := runCommand(t, "petname", "--home", home, carol.String(), "Carol"); code != 0 {
		t.Fatalf("petname exited %d:\n%s", code, out)
	}
	check("Carol named too", true, true)
	if code, out := runCommand(t, "petname", "--home", home, bob.String(), ""); code != 0 {
		t.Fatalf("petname exited %d:\n%s", code, out)
	}
	check("Bob's name taken away", false, true)
	path := filepath.Join(home, PetnamesFile)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	check("the book removed", false, false)
	if code, out := runCommand(t, "petname", "--home", home, carol.String(), "Carol"); code != 0 {
		t.Fatalf("petname exited %d:\n%s", code, out)
	}
	check("Carol named again", false, true)
	if err := os.WriteFile(path, []byte(`{"nonsense": "Bob"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	check("a damaged book", false, false)
}

// TestPlayTmuxPetname (UI-D33): A gave B the petname "Bob" (kakure
// petname); B calls itself "Robert". A's game shows B as "@Bob (Robert)"
// instead of its short peer ID; B, with no book, shows A by its ID.
func TestPlayTmuxPetname(t *testing.T) {
	t.Parallel()
	var ids [2]string
	black, white := twoPlayersSetUp(t, func(dir string) {
		for i, name := range []string{"", "Robert"} {
			var stdout, stderr strings.Builder
			env := &environment{stdout: &stdout, stderr: &stderr}
			home := filepath.Join(dir, []string{"a", "b"}[i])
			if status := run(env, []string{"id", "--home", home, "--name", name, "--listen", "/ip4/127.0.0.1/tcp/0"}); status != 0 {
				t.Fatalf("kakure id: status %d: %s", status, stderr.String())
			}
			first, _, _ := strings.Cut(stdout.String(), "\n")
			ids[i] = strings.TrimPrefix(first, "peer ID: ")
		}
		if code, out := runCommand(t, "petname", "--home", filepath.Join(dir, "a"), ids[1], "Bob"); code != 0 {
			t.Fatalf("kakure petname: %d: %s", code, out)
		}
	}, nil, "--variant", "go", "--size", "5")
	a, b := black, white
	if a.name != "a" {
		a, b = white, black
	}
	screen := a.waitText("vs @Bob (Robert)")
	if strings.Contains(screen, ui.ShortPeer(ids[1])) {
		t.Errorf("A's game shows B's short peer ID beside its petname:\n%s", screen)
	}
	b.waitText("vs " + ui.ShortPeer(ids[0]))
}

// TestUID45PlaySeesNewPetnames (issue 34 item 12): a petname given while
// `kakure play` runs reaches its screens: the watcher hands the new book
// over once the file changed, and not again while it stays the same.
func TestUID45PlaySeesNewPetnames(t *testing.T) {
	home := t.TempDir()
	const bob = "12D3KooWDzEsNErrGSh6vy98ujs7aRDgnaFAovkLJhfGtKfTn386"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	books := make(chan ui.Petnames, 8)
	go watchPetnames(ctx, home, 10*time.Millisecond, func(b ui.Petnames) { books <- b })
	time.Sleep(50 * time.Millisecond)
	if code, out := runCommand(t, "petname", "--home", home, bob, "Bob"); code != 0 {
		t.Fatalf("petname: exit %d: %s", code, out)
	}
	select {
	case b := <-books:
		if b[bob] != "Bob" {
			t.Errorf("the watcher handed over %v", b)
		}
	case <-time.After(testenv.Duration(5 * time.Second)):
		t.Fatal("the new petname never reached play")
	}
	select {
	case b := <-books:
		t.Errorf("the watcher handed over an unchanged book again: %v", b)
	case <-time.After(100 * time.Millisecond):
	}
}
