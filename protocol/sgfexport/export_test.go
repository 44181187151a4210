package sgfexport_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/sgf"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/sgfexport"
)

// TestEveryVariantHasAnSGFExport checks that Export writes the real game
// record of every variant (protocol/testdata/records, which the core's
// TestEveryVariantHasARecord verifies) with the variant's GM and VA and
// at least one move.
func TestEveryVariantHasAnSGFExport(t *testing.T) {
	for _, v := range engine.Variants {
		path := filepath.Join("..", "testdata", "records", string(v)+".record.json")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("variant %s has no record: %v", v, err)
			continue
		}
		tr, err := protocol.ParseTranscript(raw)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		data, err := sgfexport.Export(tr)
		if err != nil {
			t.Errorf("variant %s has no SGF export: %v", v, err)
			continue
		}
		col, err := sgf.Parse(data)
		if err != nil || len(col) != 1 {
			t.Errorf("%s: the SGF does not parse as one game: %v", v, err)
			continue
		}
		info, err := sgf.ReadGameInfo(col[0].Root())
		if err != nil || info.Options.Variant != v {
			t.Errorf("%s: the SGF's root reads as %q (%v)", v, info.Options.Variant, err)
		}
		if n := len(col[0].MainLine()); n < 2 {
			t.Errorf("variant %s: the SGF export has %d nodes, no moves", v, n)
		}
	}
}
