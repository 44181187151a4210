package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/ui"
)

func init() {
	register(command{name: "petname", summary: "name a peer for yourself: the screens show your name for it instead of its short ID", run: runPetname})
}

// PetnamesFile is the file of the home that holds the petname book
// (UI-D33): a JSON object from peer IDs to names.
const PetnamesFile = "petnames.json"

// runPetname lists the petname book, or gives a peer a petname, or (with
// an empty name) takes it away.
func runPetname(env *environment, args []string) error {
	fs := newFlagSet(env, "petname", "[--home DIR] [PEERID [NAME]]")
	home := fs.String("home", "", "directory of the identity and the petname book (default $XDG_CONFIG_HOME/kakure)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *home == "" {
		var err error
		if *home, err = node.DefaultHome(); err != nil {
			return err
		}
	}
	book, err := readPetnames(*home)
	if err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		for _, id := range slices.Sorted(maps.Keys(book)) {
			fmt.Fprintf(env.stdout, "%s %s\n", id, book[id])
		}
		return nil
	case 1:
		if name, ok := book[fs.Arg(0)]; ok {
			fmt.Fprintln(env.stdout, name)
			return nil
		}
		return fmt.Errorf("no petname for %s", fs.Arg(0))
	case 2:
	default:
		return usageError("unexpected argument %q", fs.Arg(2))
	}
	id, name := fs.Arg(0), strings.TrimSpace(fs.Arg(1))
	if _, err := peer.Decode(id); err != nil {
		return usageError("%q is no peer ID: %v", id, err)
	}
	if err := checkPetname(name); err != nil {
		return usageError("%v", err)
	}
	if name == "" {
		delete(book, id)
	} else {
		book[id] = name
	}
	if err := writePetnames(*home, book); err != nil {
		return err
	}
	// Say what changed (issue 34: it printed nothing); a running
	// `kakure play` of this home shows it within seconds (watchPetnames).
	if name == "" {
		fmt.Fprintf(env.stdout, "%s has no petname now\n", id)
	} else {
		fmt.Fprintf(env.stdout, "%s is %s%s on your screens now\n", id, ui.PetnameMark, ui.SafeName(name))
	}
	return nil
}

// petnamesPoll is how often a running `kakure play` looks whether the
// petname book changed.
const petnamesPoll = 2 * time.Second

// watchPetnames re-reads the home's petname book whenever the file
// changes (its time or size), every poll, and hands the new book to
// changed, until ctx ends: a petname given with `kakure petname` while
// `kakure play` runs shows without a restart (UI-D45). A book that does
// not read is skipped (the last good one stays).
func watchPetnames(ctx context.Context, home string, poll time.Duration, changed func(ui.Petnames)) {
	path := filepath.Join(home, PetnamesFile)
	stamp := func() (time.Time, int64) {
		info, err := os.Stat(path)
		if err != nil {
			return time.Time{}, -1
		}
		return info.ModTime(), info.Size()
	}
	lastTime, lastSize := stamp()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		t, size := stamp()
		if t.Equal(lastTime) && size == lastSize {
			continue
		}
		lastTime, lastSize = t, size
		if book, err := readPetnames(home); err == nil {
			changed(book)
		}
	}
}

// checkPetname checks a petname as a display name is checked (UI-D30):
// at most protocol.MaxNameLength bytes of UTF-8, no control characters.
func checkPetname(name string) error {
	if p := nameProblem("petname", name); p != "" {
		return errors.New(p)
	}
	return nil
}

// nameProblem says what is wrong with a display name or a petname (what
// names which) kept in the home (UI-D30), or "" if nothing is: it is at
// most protocol.MaxNameLength bytes of UTF-8 and has no control
// characters.
func nameProblem(what, name string) string {
	if len(name) > protocol.MaxNameLength || !utf8.ValidString(name) {
		return fmt.Sprintf("a %s is at most %d bytes of UTF-8", what, protocol.MaxNameLength)
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		return fmt.Sprintf("a %s has no control characters", what)
	}
	return ""
}

// readPetnames returns the home's petname book (empty when it has none);
// a book with a bad entry (edited by hand) is an error that names it.
func readPetnames(home string) (ui.Petnames, error) {
	path := filepath.Join(home, PetnamesFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return ui.Petnames{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("petnames: %w", err)
	}
	book := ui.Petnames{}
	if err := json.Unmarshal(b, &book); err != nil {
		return nil, fmt.Errorf("petnames: %s: %w", path, err)
	}
	for id, name := range book {
		if _, err := peer.Decode(id); err != nil {
			return nil, fmt.Errorf("petnames: %s: %q is no peer ID", path, id)
		}
		if err := checkPetname(name); err != nil {
			return nil, fmt.Errorf("petnames: %s: the name of %s: %w", path, id, err)
		}
	}
	return book, nil
}

// writePetnames replaces the home's petname book, through a temporary
// file renamed over it, so that a crash leaves the old book or the new.
func writePetnames(home string, book ui.Petnames) error {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return fmt.Errorf("petnames: %w", err)
	}
	b, err := json.MarshalIndent(book, "", "  ")
	if err != nil {
		return fmt.Errorf("petnames: %w", err)
	}
	tmp, err := os.CreateTemp(home, PetnamesFile+".*")
	if err != nil {
		return fmt.Errorf("petnames: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("petnames: %w", err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("petnames: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("petnames: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(home, PetnamesFile)); err != nil {
		return fmt.Errorf("petnames: %w", err)
	}
	return nil
}

// petnameBook tells the game service which peers the player has a
// petname for (session.Config.Known, LIM-D11: their streams take the
// handshake slots kept for known peers). It reads the home's book again
// whenever the file changes (kakure petname replaces it), so that a name
// given while the program runs counts at once; a book that cannot be
// read knows nobody.
type petnameBook struct {
	home string

	mu   sync.Mutex
	file os.FileInfo // of the book last read; nil for none
	book ui.Petnames
}

func newPetnameBook(home string) *petnameBook { return &petnameBook{home: home} }

// has reports whether the book names p.
func (b *petnameBook) has(p peer.ID) bool {
	fi, err := os.Stat(filepath.Join(b.home, PetnamesFile))
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case err != nil:
		b.file, b.book = nil, nil
	case b.file == nil || !os.SameFile(fi, b.file) || !fi.ModTime().Equal(b.file.ModTime()) || fi.Size() != b.file.Size():
		b.file = fi
		b.book, _ = readPetnames(b.home) // none if it cannot be read
	}
	_, ok := b.book[p.String()]
	return ok
}
