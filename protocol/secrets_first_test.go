package protocol_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
)

// TestT11RecordComesWithItsSecrets: the invitee saves its record with its
// acceptance, before any secret of its own (the inviter commits to the
// coin toss first, and here never does); its secrets file is there from
// that first save, so that a peer killed before its toss still finds a
// game it can resume (T-11) instead of a record without secrets, which it
// could never resume (seen in TestT11KillCampaign).
func TestT11RecordComesWithItsSecrets(t *testing.T) {
	p := newPair(t, func(i int, c *protocol.Config) {
		if i == 0 {
			protocol.SetTamper(c, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
				if m.Kind == protocol.KindTossCommit {
					return [][]byte{} // held back: the invitee waits for it
				}
				return nil
			})
		}
	})
	ctx := testenv.Context(t, 30*time.Second)
	if _, err := p.services[0].Invite(ctx, p.hosts[1].ID(), goOpts); err != nil {
		t.Fatalf("Invite: %v", err)
	}
	var h *protocol.Game
	select {
	case h = <-p.services[1].Accepted():
	case <-ctx.Done():
		t.Fatal("the invitee never got the game")
	}
	record := h.RecordPath()
	deadline := testenv.Deadline(10 * time.Second)
	for {
		if tr, err := protocol.LoadTranscript(record); err == nil && len(tr.Messages) >= 2 {
			break // the invitation and the acceptance
		}
		if time.Now().After(deadline) {
			t.Fatalf("the invitee's record %s never held its acceptance", record)
		}
		time.Sleep(5 * time.Millisecond)
	}
	secrets := strings.TrimSuffix(record, ".record.json") + ".secrets.json"
	if _, err := os.Stat(secrets); err != nil {
		t.Fatalf("the invitee's record is saved and its secrets file is not: %v", err)
	}
	if kinds := h.Transcript().Messages; kinds[len(kinds)-1].Kind == protocol.KindTossCommit && kinds[len(kinds)-1].From == protocol.Invitee {
		t.Fatal("the invitee committed to its toss: the test does not check the first save")
	}
}
