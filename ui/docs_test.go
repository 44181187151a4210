package ui_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/ui"
)

var update = flag.Bool("update", false, "rewrite the generated parts of docs/ui.md and testdata/golden")

// docsPath is the file whose generated parts TestUIDocs keeps up to date.
const docsPath = "../docs/ui.md"

// docSections returns the generated parts of docs/ui.md by name: the key
// table and screens drawn on a simulated terminal.
func docSections(t *testing.T) map[string]string {
	sections := map[string]string{"keys": ui.NewBoard().Keys().Help()}

	// A 9×9 game of plain Go, White just played at E3, Black typing d4.
	g, err := engine.NewGoGame(engine.Options{Size: 9})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{"C3", "G7", "E5", "C6", "F3", "E3"} {
		c := []engine.Color{engine.Black, engine.White}[i%2]
		if g, _, err = g.Play(c, vertex(t, 9, v)); err != nil {
			t.Fatal(err)
		}
	}
	b := ui.NewBoard().SetModel(ui.ModelFromBoard(g.Board(), engine.Black, g.LastMove()))
	keys(b, "d4")
	sections["screen-9x9"] = screenText(drawNatural(t, b))

	// Every mark on one 9×9 board, as Black sees it.
	m := ui.NewBoardModel(9, engine.Black)
	for _, pm := range []struct {
		v  string
		c  engine.Color
		mk ui.Mark
	}{
		{"C7", engine.Black, 0}, {"D7", engine.Black, ui.MarkUncertain},
		{"F7", engine.White, 0}, {"G7", engine.White, ui.MarkLearnt},
		{"C5", engine.Empty, ui.MarkNote}, {"E5", engine.Empty, ui.MarkUnavailable},
		{"G5", engine.Empty, ui.MarkPending}, {"C3", engine.Black, ui.MarkHighlight},
		{"D3", engine.Black, ui.MarkHighlight}, {"G3", engine.White, ui.MarkLast},
	} {
		m.Points[vertex(t, 9, pm.v)] = ui.PointMark{Stone: pm.c, Marks: pm.mk}
	}
	sections["screen-marks"] = screenText(drawNatural(t, ui.NewBoard().SetModel(m)))

	// 19×19 on an 80×24 terminal.
	g, err = engine.NewGoGame(engine.Options{Size: 19})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{"Q16", "D4", "Q3", "D16", "R5", "C10"} {
		c := []engine.Color{engine.Black, engine.White}[i%2]
		if g, _, err = g.Play(c, vertex(t, 19, v)); err != nil {
			t.Fatal(err)
		}
	}
	b = ui.NewBoard().SetModel(ui.ModelFromBoard(g.Board(), engine.White, g.LastMove()))
	sections["screen-19x19"] = screenText(drawBoard(t, b, 80, 24))
	return sections
}

// TestUIDocs checks that docs/ui.md shows the key table and the screens
// the code makes now; go test ./ui -update rewrites them. A generated
// part sits between "<!-- begin NAME -->" and "<!-- end NAME -->", inside
// a text code block.
func TestUIDocs(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for name, want := range docSections(t) {
		begin, end := "<!-- begin "+name+" -->\n", "<!-- end "+name+" -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Errorf("%s: no section %q", docsPath, name)
			continue
		}
		block := "```text\n" + want + "```\n"
		if got := doc[i+len(begin) : j]; got != block {
			if !*update {
				t.Errorf("%s: section %q is out of date (go test ./ui -update):\n%s", docsPath, name, block)
				continue
			}
			doc = doc[:i+len(begin)] + block + doc[j:]
		}
	}
	if *update {
		if err := os.WriteFile(docsPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
