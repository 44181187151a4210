package protocol

import (
	"bytes"
	"fmt"
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

// coreFileFaults returns what is wrong with the core's file name of
// source src: an import of the network stack, the disk or the network.
// (The session's types cannot be named: protocol/session imports the
// core, and Go refuses the cycle.)
func coreFileFaults(name string, src []byte) (faults []string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
	if err != nil {
		return []string{err.Error()}
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if coreForbidden(path) {
			faults = append(faults, name+" imports "+path)
		}
	}
	return faults
}

// TestARCHD1CoreFilesNeitherNetworkNorDisk (ARCH-D1, ARCH-D2): the core
// is package protocol and the session package protocol/session on top of
// it. The core's files import no libp2p, no file or network package, and
// go list -deps shows that the package depends on no libp2p and no
// network package and, of kakure, only on the engine, commit,
// protocol/mpc and internal/{memo,version}.
func TestARCHD1CoreFilesNeitherNetworkNorDisk(t *testing.T) {
	var names []string
	for _, pattern := range coreGlobs {
		more, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, more...)
	}
	files, lines := 0, 0
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files++
		lines += bytes.Count(src, []byte("\n"))
		for _, f := range coreFileFaults(n, src) {
			t.Error(f)
		}
	}
	if files < 30 {
		t.Fatalf("found %d files of the core: the test reads the package wrong", files)
	}
	t.Logf("the core: %d files, %d lines", files, lines)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "./protocol/variants")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./protocol/variants: %v\n%s", err, out)
	}
	for _, f := range coreDepFaults(strings.Fields(string(out))) {
		t.Error(f)
	}
}

// coreGlobs are the core's files (ARCH-D1, ARCH-D3): package protocol,
// each variant's rules package and protocol/variants, which registers
// them.
var coreGlobs = []string{"*.go", "*rules/*.go", "variants/*.go"}

// isRulesPackage tells whether the package of kakure at path is a
// variant's rules package of the core (protocol/gorules, ...).
func isRulesPackage(path string) bool {
	name, ok := strings.CutPrefix(path, "protocol/")
	return ok && strings.HasSuffix(name, "rules") && !strings.Contains(name, "/")
}

// coreDepFaults returns what is wrong with the core's dependencies, as go
// list -deps gives them: a libp2p, multiaddress or network package, or a
// package of kakure other than the engine, commit, protocol/mpc and
// internal/{memo,version}.
func coreDepFaults(deps []string) (faults []string) {
	if len(deps) < 50 {
		return []string{fmt.Sprintf("go list -deps gave only %d packages", len(deps))}
	}
	const module = "github.com/kakure/kakure/"
	for _, p := range deps {
		kakure, ok := strings.CutPrefix(p, module)
		switch {
		case strings.HasPrefix(p, "github.com/libp2p/") || strings.HasPrefix(p, "github.com/multiformats/go-multiaddr") || p == "net" || strings.HasPrefix(p, "net/"):
			faults = append(faults, "the core depends on "+p)
		case ok && kakure != "protocol" && !isRulesPackage(kakure) && kakure != "protocol/variants" && kakure != "engine" && kakure != "commit" && !strings.HasPrefix(kakure, "engine/") &&
			!strings.HasPrefix(kakure, "protocol/mpc/") && kakure != "internal/memo" && kakure != "internal/version":
			faults = append(faults, "the core depends on kakure's "+kakure)
		}
	}
	return faults
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
		{"fields and selectors", "package protocol\nimport \"github.com/kakure/kakure/protocol/mpc/referee\"\ntype r struct{ Config referee.Config; Service int }\nvar _ = r{Config: referee.Config{}, Service: 1}", 0},
	} {
		faults := coreFileFaults(c.name+".go", []byte(c.src))
		if len(faults) != c.faults {
			t.Errorf("%s: %q, want %d faults", c.name, faults, c.faults)
		}
	}
}

// TestARCHD1CoreDepsChecked holds coreDepFaults to a list with each
// fault, so that the check above can fail.
func TestARCHD1CoreDepsChecked(t *testing.T) {
	base := make([]string, 50)
	for i := range base {
		base[i] = "fmt"
	}
	for _, c := range []struct {
		dep   string
		fails bool
	}{
		{"github.com/kakure/kakure/engine/sgf", false},
		{"github.com/kakure/kakure/protocol/mpc/referee", false},
		{"github.com/libp2p/go-libp2p/core/peer", true},
		{"github.com/multiformats/go-multiaddr", true},
		{"net/http", true},
		{"github.com/kakure/kakure/protocol/session", true},
		{"github.com/kakure/kakure/node", true},
	} {
		if faults := coreDepFaults(append(slices.Clone(base), c.dep)); (len(faults) > 0) != c.fails {
			t.Errorf("%s: faults %q, want a fault %v", c.dep, faults, c.fails)
		}
	}
	if coreDepFaults(base[:10]) == nil {
		t.Error("a list of 10 packages passed: go list read wrong goes unseen")
	}
}
