package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestKindTableNamesEveryKind (CLK-D31): every message kind the package
// declares (a constant of type Kind in its source) has its entry in
// kindTable, so that a new kind cannot fall through as untimed and not
// automatic by being forgotten; and the table names no kind twice by
// value.
func TestKindTableNamesEveryKind(t *testing.T) {
	t.Parallel()
	declared := declaredKinds(t)
	for _, k := range declared {
		if _, ok := kindTable[k.value]; !ok {
			t.Errorf("%s: %s (%q) has no entry in kindTable", k.path, k.name, k.value)
		}
	}
	if len(declared) < 50 {
		t.Errorf("found %d kinds declared, want at least the 50 of issue 33", len(declared))
	}
	if len(kindTable) != len(declared) {
		t.Errorf("kindTable has %d entries for %d kinds declared", len(kindTable), len(declared))
	}
	// Kinds, which the session's tables are checked against, is every
	// kind declared, once.
	kinds := Kinds()
	for _, k := range declared {
		if !slices.Contains(kinds, k.value) {
			t.Errorf("Kinds() leaves out %s (%q)", k.name, k.value)
		}
	}
	if len(kinds) != len(declared) {
		t.Errorf("Kinds() gives %d kinds for %d declared", len(kinds), len(declared))
	}
}

// declaredKind is a constant of type Kind in the package's source.
type declaredKind struct {
	path, name string
	value      Kind
}

// declaredKinds reads the constants of type Kind from the package's
// source (its non-test files), so that the tables keyed by kind can be
// checked against every kind declared, including one added later.
func declaredKinds(t testing.TB) []declaredKind {
	t.Helper()
	var declared []declaredKind
	for path, f := range parsedSources(t) {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if !isKindType(v.Type) {
					continue
				}
				for i, name := range v.Names {
					lit, ok := v.Values[i].(*ast.BasicLit)
					if !ok {
						t.Errorf("%s: %s is no literal", path, name.Name)
						continue
					}
					value, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatalf("%s: %s: %v", path, name.Name, err)
					}
					declared = append(declared, declaredKind{path: path, name: name.Name, value: Kind(value)})
				}
			}
		}
	}
	return declared
}

// isKindType tells whether a constant's declared type is Kind: in this
// package, or protocol.Kind in a variant's rules package.
func isKindType(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name == "Kind"
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "protocol" && e.Sel.Name == "Kind"
	}
	return false
}

// parsedSources parses the non-test Go files of the core and of each
// variant's rules package (ARCH-D3), by path.
func parsedSources(t testing.TB) map[string]*ast.File {
	t.Helper()
	var paths []string
	for _, pattern := range []string{"*.go", "*rules/*.go"} {
		more, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, more...)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[path] = f
	}
	return files
}
