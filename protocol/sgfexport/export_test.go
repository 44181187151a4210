package sgfexport_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/sgf"
	"github.com/kakure/kakure/internal/varianttest"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/sgfexport"
)

// TestEveryVariantHasAnSGFExport checks that Export writes the real game
// record of every variant (protocol/testdata/records, which the core's
// TestEveryVariantHasARecord verifies) with the variant's GM and VA and
// at least one move (missingExports).
func TestEveryVariantHasAnSGFExport(t *testing.T) {
	for _, m := range missingExports() {
		t.Error(m)
	}
}

// missingExports names each variant of engine.Variants whose record the
// SGF export does not write as one game of the variant with moves.
func missingExports() []string {
	var missing []string
	for _, v := range engine.Variants {
		path := filepath.Join("..", "testdata", "records", string(v)+".record.json")
		raw, err := os.ReadFile(path)
		if err != nil {
			missing = append(missing, fmt.Sprintf("variant %s has no record: %v", v, err))
			continue
		}
		tr, err := protocol.ParseTranscript(raw)
		if err != nil {
			missing = append(missing, fmt.Sprintf("%s: %v", path, err))
			continue
		}
		data, err := sgfexport.Export(tr)
		if err != nil {
			missing = append(missing, fmt.Sprintf("variant %s has no SGF export: %v", v, err))
			continue
		}
		col, err := sgf.Parse(data)
		if err != nil || len(col) != 1 {
			missing = append(missing, fmt.Sprintf("%s: the SGF does not parse as one game: %v", v, err))
			continue
		}
		info, err := sgf.ReadGameInfo(col[0].Root())
		if err != nil || info.Options.Variant != v {
			missing = append(missing, fmt.Sprintf("%s: the SGF's root reads as %q (%v)", v, info.Options.Variant, err))
		}
		if n := len(col[0].MainLine()); n < 2 {
			missing = append(missing, fmt.Sprintf("variant %s: the SGF export has %d nodes, no moves", v, n))
		}
	}
	return missing
}

// TestVARD8SeventhVariantNamedSGF: with a seventh descriptor added and no
// file of its own, the SGF export's completeness check names its missing
// record, panicking on nothing (VAR-D8).
func TestVARD8SeventhVariantNamedSGF(t *testing.T) {
	varianttest.Add(t)
	varianttest.Expect(t, missingExports, "variant seventh-test has no record")
}
