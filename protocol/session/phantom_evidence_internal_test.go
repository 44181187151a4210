package session

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/mpc/referee"
)

// TestMPCD33EvidenceInOrder (MPC-D33): the messages kept for the
// certificates of MPC-D29 come back from the secrets (a map) oldest
// first — the record's tries in order, then what the record does not
// hold yet — so that keepEvidence, which drops the oldest, keeps the
// last tries' messages across a second restart; 200 random map orders.
func TestMPCD33EvidenceInOrder(t *testing.T) {
	msg := func(s string) []byte { return []byte(s) }
	var rec referee.Record
	var want [][]byte
	for i := range 3 {
		cm, ch := msg(fmt.Sprintf("commitments %d", i)), msg(fmt.Sprintf("choice %d", i))
		rec.Tries = append(rec.Tries, referee.TryRecord{Commitment: referee.Sum(cm), Choice: referee.Sum(ch)})
		want = append(want, cm, ch)
	}
	ahead := msg("commitments 3")
	want = append(want, ahead)
	kept := keyedByDigest(want...)
	for range 200 {
		got := evidenceInOrder(rec, kept)
		if len(got) != len(want) {
			t.Fatalf("%d messages back, want %d", len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("message %d is %q, want %q", i, got[i], want[i])
			}
		}
	}
}
