package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
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
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	declared := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Kind" {
					continue
				}
				for i, name := range v.Names {
					lit, ok := v.Values[i].(*ast.BasicLit)
					if !ok {
						t.Errorf("%s: %s is no literal", path, name.Name)
						continue
					}
					declared++
					if _, ok := kindTable[Kind(strings.Trim(lit.Value, `"`))]; !ok {
						t.Errorf("%s: %s (%s) has no entry in kindTable", path, name.Name, lit.Value)
					}
				}
			}
		}
	}
	if declared < 50 {
		t.Errorf("found %d kinds declared, want at least the 50 of issue 33", declared)
	}
	if len(kindTable) != declared {
		t.Errorf("kindTable has %d entries for %d kinds declared", len(kindTable), declared)
	}
}
