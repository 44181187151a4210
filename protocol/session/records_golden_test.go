package session_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/sgfexport"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/records (TestWriteFuzzRecords) and testdata/golden from them")

// TestGoldenRecords replays every record of testdata/records, real games
// of every variant, through the game machine (the engine's rules), Verify
// (T-13, T-14) and the SGF export, and compares what they give with
// testdata/golden/NAME.txt: the events of each message, the verification
// report and the SGF. A change of any of them shows as a diff; after a
// deliberate change, -update writes the records and the golden files anew.
func TestGoldenRecords(t *testing.T) {
	t.Parallel() // reads the records, shares nothing
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "records", "*.record.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no records in testdata/records: %v", err)
	}
	seen := map[engine.Variant]bool{}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".record.json")
		t.Run(name, func(t *testing.T) {
			tr, err := session.LoadTranscript(path)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			m := protocol.NewMachine(tr.Game)
			for i := range tr.Messages {
				msg := tr.Messages[i]
				events, err := m.Apply(&msg)
				fmt.Fprintf(&b, "%d %s %s:", i, msg.From, msg.Kind)
				for _, e := range events {
					fmt.Fprintf(&b, " %T", e)
				}
				if err != nil {
					fmt.Fprintf(&b, " error %v", err)
				}
				b.WriteString("\n")
			}
			seen[m.Options.Variant] = true
			rep := protocol.Verify(tr)
			text, ok := rep.Describe(tr.Peers)
			fmt.Fprintf(&b, "\nverify (ok %t):\n%s\n", ok, text)
			data, err := sgfexport.Export(tr)
			if err != nil {
				t.Fatalf("export SGF: %v", err)
			}
			fmt.Fprintf(&b, "\nsgf:\n%s\n", data)
			golden := filepath.Join("..", "testdata", "golden", name+".txt")
			if err := testenv.CheckGolden(golden, b.String(), *updateGolden); err != nil {
				t.Error(err)
			}
		})
	}
	for _, v := range engine.Variants {
		if !seen[v] {
			t.Errorf("variant %s has no record in testdata/records (a game of it in records_gen_test.go's fuzzRecordGames, written with -update)", v)
		}
	}
}
