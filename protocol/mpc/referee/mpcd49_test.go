package referee

import (
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// TestMPCD49TablesDigestTaken checks MPC-D49: the garbler's digest of
// the tables of garbling ĵ is the one it committed to, and only while
// the tables are the bytes it returned; the evaluator compares the
// digest its caller vouches for (the record's, as a session's message
// signs it) with the commitment. Tables changed after the commitment are
// still caught with a certificate the judge accepts; a caller that
// vouches for a wrong digest makes the evaluator fail, with a
// certificate the judge refuses: the honest garbler is never convicted.
func TestMPCD49TablesDigestTaken(t *testing.T) {
	for k, form := range []string{"honest", "tables changed", "wrong digest vouched", "honest, authenticated", "tables changed, authenticated"} {
		base, auth := strings.CutSuffix(form, ", authenticated")
		gm := newCheckedGame(t, 5, engine.RulesHamburg, engine.White, testSeed("d49 g", k), testSeed("d49 e", k), 4)
		if auth {
			gm = newAuthGame(t, 5, engine.RulesHamburg, engine.White, testSeed("d49 g", k), testSeed("d49 e", k), 4, macForms[k%2])
		}
		gm.signedSums = true
		switch base {
		case "tables changed":
			gm.tamper = func(_ uint64, msg string, b []byte) []byte {
				if msg == "tables" {
					b[len(b)-1] ^= 1
				}
				return b
			}
		case "wrong digest vouched":
			gm.sumOf = func(d Digest) Digest {
				d[0] ^= 1
				return d
			}
		}
		_, err := gm.play(engine.Point(12))
		tr := gm.rec.Tries[0]
		// The record's digest of the tables (from Garbling.Digests) is
		// the digest of the tables sent.
		r := gm.received[circuit.Evaluator]
		sent := r[len(r)-3]
		if Sum(sent) != tr.Tables {
			t.Fatalf("%s: the record's digest of the tables is not theirs", form)
		}
		if base == "honest" {
			if err != nil {
				t.Fatalf("%s: %v", form, err)
			}
			continue
		}
		if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), "garbled tables") {
			t.Fatalf("%s: %v", form, err)
		}
		c := gm.e.Certificate()
		if c == nil || c.Opened != -1 {
			t.Fatalf("%s: certificate %+v", form, c)
		}
		err = JudgeCertificate(gm.rec, 0, *c)
		if base == "tables changed" && err != nil {
			t.Fatalf("%s: certificate not accepted: %v", form, err)
		}
		if base == "wrong digest vouched" && err == nil {
			t.Fatalf("%s: the honest garbler convicted", form)
		}
	}
}
