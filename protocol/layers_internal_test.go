package protocol

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// coreFiles are protocol's files of the replayable core (ARCH-D1 in
// docs/spec/architecture.md): the machine, each variant's rules over
// messages, the bodies and kinds, the signed transcript read from bytes,
// the judge, Verify, the clocks' rules and Phantom Go's certificates. They
// import neither libp2p nor the disk nor the network and use nothing of
// the session (Game, Service), so that they can move into a package of
// their own (issue 33).
var coreFiles = []string{
	"actions.go", "challenge.go", "clock.go", "clock_adjourn.go", "clock_fgo.go", "clock_gomoku.go",
	"clock_phantom.go", "clock_rule.go", "clock_stamp.go", "events.go", "judge.go", "kinds.go",
	"machine.go", "machine_apply.go", "machine_bodies.go", "message.go", "options_wire.go",
	"peerid.go", "phantom_certificate.go", "record_sgf.go", "record_sgf_gomoku.go",
	"record_sgf_variants.go", "scoring.go", "transcript.go", "undo.go", "variant_bridge.go",
	"variant_fgo.go", "variant_go.go", "variant_gomoku.go", "variant_gomoku_audit.go",
	"variant_gomoku_turn.go", "variant_hmg.go", "variant_phantom.go", "variant_phantom_wire.go",
	"verify.go", "view.go", "wire.go",
}

// sessionFiles are the files of the session around the core: the service,
// the game loop, streams, storage, limits, reconnects, the players (which
// hold a peer's secrets) and what a game publishes.
var sessionFiles = []string{
	"broadcast.go", "clock_game.go", "doc.go", "game.go", "game_bulk.go", "game_loop.go", "game_send.go",
	"game_storage.go", "game_stream.go", "hooks.go", "limits.go", "panic.go", "player_go.go",
	"player_gomoku.go", "player_phantom.go", "player_phantom_bulk.go", "player_phantom_secrets.go",
	"public.go", "queue.go", "record_file.go", "series.go", "session.go", "storage.go",
	"storage_linux.go", "storage_other.go", "storage_patch.go",
}

// coreForbidden reports whether a core file may not import path: libp2p
// and multiaddresses (the network stack), the disk and the network.
func coreForbidden(path string) bool {
	for _, p := range []string{"github.com/libp2p/", "github.com/multiformats/go-multiaddr", "net/", "os/", "io/fs", "path/filepath", "syscall", "github.com/kakure/kakure/node"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return path == "net" || path == "os" || path == "github.com/kakure/kakure/protocol/watch"
}

// sessionTypes are the session's types, which no core file names.
var sessionTypes = map[string]bool{"Game": true, "Service": true, "Config": true, "Publisher": true}

// coreFileFaults returns what is wrong with the core file name of source
// src: a forbidden import, or a use of a session type (a pointer to one, a
// method on one, a literal of one, or Service, Config or Publisher named
// at all: Game is also a field of messages), and the file's other
// imports.
func coreFileFaults(name string, src []byte) (faults, imports []string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return []string{err.Error()}, nil
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if coreForbidden(path) {
			faults = append(faults, name+" imports "+path)
			continue
		}
		imports = append(imports, path)
	}
	// Game is named by a pointer or a literal, the others by any mention.
	game := func(e ast.Expr) string {
		if id, ok := e.(*ast.Ident); ok && id.Name == "Game" {
			return id.Name
		}
		return ""
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		var typ string
		switch n := n.(type) {
		case *ast.SelectorExpr: // referee.Config, m.Game: not the session's
			ast.Inspect(n.X, visit)
			return false
		case *ast.Field: // a field or parameter named Config
			ast.Inspect(n.Type, visit)
			return false
		case *ast.KeyValueExpr: // Config: in a literal
			if _, ok := n.Key.(*ast.Ident); !ok {
				ast.Inspect(n.Key, visit)
			}
			ast.Inspect(n.Value, visit)
			return false
		case *ast.StarExpr:
			typ = game(n.X)
		case *ast.CompositeLit:
			typ = game(n.Type)
		case *ast.Ident:
			if n.Name != "Game" && sessionTypes[n.Name] {
				typ = n.Name
			}
		}
		if typ != "" {
			faults = append(faults, fset.Position(n.Pos()).String()+": names the session's "+typ)
		}
		return true
	}
	ast.Inspect(f, visit)
	return faults, imports
}

// TestARCHD1CoreFilesNeitherNetworkNorDisk: protocol's files are each of
// the core or of the session (a new file must say which); the core's
// files import no libp2p, no file or network package and name no session
// type, and the packages they import (the engine, commit, protocol/mpc,
// internal/memo, the multiformats libraries) depend on no libp2p and no
// network package either.
func TestARCHD1CoreFilesNeitherNetworkNorDisk(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		listed = append(listed, n)
		if slices.Contains(coreFiles, n) == slices.Contains(sessionFiles, n) {
			t.Errorf("%s is in neither or both of coreFiles and sessionFiles", n)
		}
	}
	for _, n := range append(slices.Clone(coreFiles), sessionFiles...) {
		if !slices.Contains(listed, n) {
			t.Errorf("%s is listed but is not a file of protocol", n)
		}
	}
	deps := map[string]bool{}
	lines := 0
	for _, n := range coreFiles {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(src, []byte("\n"))
		faults, imports := coreFileFaults(n, src)
		for _, f := range faults {
			t.Error(f)
		}
		for _, imp := range imports {
			if strings.Contains(imp, ".") {
				deps[imp] = true
			}
		}
	}
	t.Logf("the core: %d files, %d lines", len(coreFiles), lines)
	args := append([]string{"list", "-deps"}, slices.Sorted(func(yield func(string) bool) {
		for d := range deps {
			if !yield(d) {
				return
			}
		}
	})...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go %s: %v", strings.Join(args, " "), err)
	}
	all := strings.Fields(string(out))
	if len(all) < 50 {
		t.Fatalf("go list -deps gave only %d packages", len(all))
	}
	for _, p := range all {
		if strings.HasPrefix(p, "github.com/libp2p/") || p == "net" || strings.HasPrefix(p, "net/") || strings.HasPrefix(p, "github.com/multiformats/go-multiaddr") {
			t.Errorf("the core depends on %s", p)
		}
	}
}

// TestARCHD1CoreFileFaultsFound holds coreFileFaults to cases, so that the
// check above can fail.
func TestARCHD1CoreFileFaultsFound(t *testing.T) {
	for _, c := range []struct {
		name, src string
		faults    int
	}{
		{"pure", "package protocol\nimport (\"bytes\"\n\"github.com/kakure/kakure/engine\")\ntype M struct{ Game GameID }\nfunc f(m *M) { _ = m.Game; _ = bytes.Equal; _ = engine.Black }", 0},
		{"libp2p", "package protocol\nimport \"github.com/libp2p/go-libp2p/core/peer\"\nvar _ peer.ID", 1},
		{"the disk", "package protocol\nimport (\"os\"\n\"path/filepath\")\nvar _, _ = os.Open, filepath.Join", 2},
		{"the network", "package protocol\nimport \"net\"\nvar _ net.Conn", 1},
		{"a method of Game", "package protocol\nfunc (g *Game) f() {}", 1},
		{"a Game literal", "package protocol\nvar _ = Game{}", 1},
		{"the service", "package protocol\nfunc f(s Service) {}", 1},
		{"a method of Service", "package protocol\nfunc (s *Service) f() {}", 1},
		{"the session's config in a body", "package protocol\nfunc f() any { return struct{ c Config }{Config{}} }", 2},
		{"fields and selectors", "package protocol\nimport \"github.com/kakure/kakure/protocol/mpc/referee\"\ntype r struct{ Config referee.Config; Service int }\nvar _ = r{Config: referee.Config{}, Service: 1}", 0},
	} {
		faults, _ := coreFileFaults(c.name+".go", []byte(c.src))
		if len(faults) != c.faults {
			t.Errorf("%s: %q, want %d faults", c.name, faults, c.faults)
		}
	}
}
