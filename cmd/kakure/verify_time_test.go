package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// recordKey is the identity key of role r in protocol/testdata/records,
// derived from a public string as protocol.RecordTestKey derives it (that
// one is visible to protocol's own tests only). Test keys only.
func recordKey(t *testing.T, r protocol.Role) crypto.PrivKey {
	t.Helper()
	seed := sha256.Sum256([]byte(fmt.Sprintf("kakure fuzz record key %d", r)))
	key, err := crypto.UnmarshalEd25519PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// timedRecord builds records of timed games on go.record.json's opening
// (invitation, acceptance, coin toss; the invitee plays Black and moves
// first), each message signed again with the peers' keys.
type timedRecord struct {
	t  *testing.T
	tr *protocol.Transcript
}

// newTimedRecord starts a record of go.record.json's game under the time
// control text, at the start of play.
func newTimedRecord(t *testing.T, control string) *timedRecord {
	t.Helper()
	full, err := session.LoadTranscript(filepath.Join("..", "..", "protocol", "testdata", "records", "go.record.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := &timedRecord{t: t, tr: protocol.NewTranscript(full.Game, full.Peers[0], full.Peers[1])}
	var inv protocol.InviteBody
	if err := json.Unmarshal(full.Messages[0].Body, &inv); err != nil {
		t.Fatal(err)
	}
	inv.Options.Time = clock.MustParse(control).String()
	inv.Options.LagMS = 1000
	r.add(protocol.Inviter, protocol.KindInvite, inv)
	for _, m := range full.Messages[1:6] {
		r.add(m.From, m.Kind, json.RawMessage(m.Body))
	}
	return r
}

// add appends role r's next message of kind with body, signed with r's
// key.
func (r *timedRecord) add(role protocol.Role, kind protocol.Kind, body any) {
	r.t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		r.t.Fatal(err)
	}
	seq, prev := r.tr.Next(role)
	ack, ackHash := r.tr.AckFor(role)
	m := protocol.Message{Game: r.tr.Game, From: role, Seq: seq, Prev: prev, Ack: ack, AckHash: ackHash, Kind: kind, Body: raw}
	if err := m.Sign(recordKey(r.t, role)); err != nil {
		r.t.Fatal(err)
	}
	if err := r.tr.Append(m); err != nil {
		r.t.Fatal(err)
	}
}

// move appends role's move at point claiming thinkMS of think time.
func (r *timedRecord) move(role protocol.Role, point string, thinkMS int64) {
	r.t.Helper()
	r.add(role, protocol.KindMove, protocol.MoveBody{Point: point, ThinkMS: thinkMS})
}

// results appends both players' result statements, the inviter's first.
func (r *timedRecord) results(result string) {
	r.t.Helper()
	r.add(protocol.Inviter, protocol.KindResult, protocol.ResultBody{Result: result})
	r.add(protocol.Invitee, protocol.KindResult, protocol.ResultBody{Result: result})
}

// verify writes the record to a file and runs `kakure verify` on it.
func (r *timedRecord) verify() (int, string) {
	r.t.Helper()
	data, err := r.tr.MarshalJSON()
	if err != nil {
		r.t.Fatal(err)
	}
	path := filepath.Join(r.t.TempDir(), "game.record.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		r.t.Fatal(err)
	}
	return runCommand(r.t, "verify", path)
}

// TestCLKD9VerifyHonestLossOnTime (CLK-D9, REC-D7; issue 30 cases 8 and
// 9): `kakure verify` on records of timed games. An honest loss on time
// prints `ok: result W+T (time)` and exits 0 whichever message showed the
// flag: the flagged side's own move past its clock (a slow engine under
// 0+1x1s), or the waiting side's time-out claim the flagged side
// confirmed. A claim the record shows false, and a loss on time whose
// results are missing, exit 1; a message after the event that decided the
// game is listed as not part of the game, and the deciding event is named
// with its result.
func TestCLKD9VerifyHonestLossOnTime(t *testing.T) {
	tests := []struct {
		name    string
		control string
		play    func(r *timedRecord)
		status  int
		want    []string
		notWant []string
	}{
		{"own move past its clock", "0+1x1s", func(r *timedRecord) {
			r.move(protocol.Invitee, "D4", 400)
			r.move(protocol.Inviter, "C4", 300)
			r.move(protocol.Invitee, "C5", 1641)
			r.results("W+T")
		}, 0, []string{"loss on time: the invitee", "its own think time 1.641s", "ok: result W+T (time)\n"}, []string{"VIOLATION"}},
		{"confirmed time-out claim", "10s", func(r *timedRecord) {
			r.move(protocol.Invitee, "D4", 2000)
			r.move(protocol.Inviter, "C4", 1000)
			r.add(protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 8001})
			// The flagged side confirms with its result first (CLK-D17).
			r.add(protocol.Invitee, protocol.KindResult, protocol.ResultBody{Result: "W+T"})
			r.add(protocol.Inviter, protocol.KindResult, protocol.ResultBody{Result: "W+T"})
		}, 0, []string{"loss on time: the invitee", "ok: result W+T (time)\n"}, []string{"VIOLATION"}},
		{"own move past its clock, results missing", "3s", func(r *timedRecord) {
			r.move(protocol.Invitee, "D4", 3001)
		}, 1, []string{"loss on time: the invitee", "not a finished game"}, []string{"ok:", "VIOLATION"}},
		{"a claim within the other's clock", "10s", func(r *timedRecord) {
			r.move(protocol.Invitee, "D4", 2000)
			r.move(protocol.Inviter, "C4", 1000)
			r.add(protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 5000})
			r.results("B+F")
		}, 1, []string{"VIOLATION of CLK-D9 by the inviter", "result: B+F"}, []string{"ok:"}},
		{"a move after the claim that decided the game", "10s", func(r *timedRecord) {
			r.move(protocol.Invitee, "D4", 2000)
			r.move(protocol.Inviter, "C4", 1000)
			r.add(protocol.Inviter, protocol.KindTimeout, protocol.TimeoutBody{ChargeMS: 5000})
			r.move(protocol.Invitee, "C5", 3000)
			r.results("B+F")
		}, 1, []string{"VIOLATION of CLK-D9 by the inviter", "result: B+F", "message 4 of the invitee is not part of the game"},
			[]string{"ok:", "VIOLATION of T-10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newTimedRecord(t, tt.control)
			tt.play(r)
			status, out := r.verify()
			if status != tt.status {
				t.Errorf("kakure verify exits %d, want %d:\n%s", status, tt.status, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("kakure verify says:\n%s\nwant it to mention %q", out, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("kakure verify says:\n%s\nwant no %q", out, w)
				}
			}
		})
	}
}
