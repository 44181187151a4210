package protocol

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// signedInvite returns a transcript between two fresh identities and an
// invitation of the inviter whose body is exactly body, validly signed:
// what a cheating (or careless) program could send or write.
func signedInvite(t *testing.T, body string) (*Transcript, Message) {
	t.Helper()
	var keys [2]crypto.PrivKey
	var ids [2]peer.ID
	for i := range keys {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
		if ids[i], err = peer.IDFromPrivateKey(k); err != nil {
			t.Fatal(err)
		}
	}
	game := GameID{1, 2, 3}
	tr := NewTranscript(game, PeerID(ids[0]), PeerID(ids[1]))
	body = strings.NewReplacer("INVITER", ids[0].String(), "INVITEE", ids[1].String()).Replace(body)
	m := Message{Game: game, From: Inviter, Ack: -1, Kind: KindInvite, Body: json.RawMessage(body)}
	if err := m.Sign(keys[0]); err != nil {
		t.Fatal(err)
	}
	return tr, m
}

// TestT10SignedBodiesAreCanonical: a body is checked on the exact bytes
// that were signed, and only its one canonical form is taken: a validly
// signed invitation whose body names "komi" twice (Go would keep the
// last, another reader the first: two games from one signed message), or
// holds white space, is refused as malformed from the wire (Check) and in
// a record, in both forms of the record file; the error is the sender's
// (T-10), never a bad signature of the reader's making.
func TestT10SignedBodiesAreCanonical(t *testing.T) {
	const good = `{"version":"1.0.0","inviter":"INVITER","invitee":"INVITEE","options":{"variant":"go","size":9,"komi":0.5}}`
	tests := []struct {
		name string
		body string
		ok   bool
	}{
		{"T-10 the canonical body", good, true},
		{"T-10 a key twice (komi 0.5 then 7.5)", strings.Replace(good, `"komi":0.5`, `"komi":0.5,"komi":7.5`, 1), false},
		{"T-10 a key twice at the top", strings.Replace(good, `{"version":"1.0.0",`, `{"version":"1.0.0","version":"1.0.0",`, 1), false},
		{"T-10 white space after a colon", strings.Replace(good, `"size":9`, `"size": 9`, 1), false},
		{"T-10 a newline at the end", good + "\n", false},
		{"T-10 an escape encoding/json does not write", strings.Replace(good, `"go"`, `"g\u006f"`, 1), false},
		{"T-10 a number not as encoding/json writes it", strings.Replace(good, `"komi":0.5`, `"komi":5e-1`, 1), false},
		{"T-10 a zero with a sign", strings.Replace(good, `"size":9`, `"size":-0`, 1), false},
		{"T-10 an integer written as a float", strings.Replace(good, `"size":9`, `"size":9.0`, 1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, m := signedInvite(t, tt.body)
			if err := m.VerifySignature(tr.Peers[Inviter]); err != nil {
				t.Fatalf("the cheater's message is not validly signed: %v", err)
			}
			err := tr.Clone().Append(m)
			if tt.ok != (err == nil) {
				t.Fatalf("Append: %v, want ok %v", err, tt.ok)
			}
			if !tt.ok && !errors.Is(err, ErrMalformed) {
				t.Errorf("Append: %v, want ErrMalformed (the sender's fault)", err)
			}
			// The same message in a record, in the log form and as a
			// JSON document, with the body as signed.
			line, err := json.Marshal(struct {
				Game    GameID          `json:"game"`
				From    Role            `json:"from"`
				Seq     uint64          `json:"seq"`
				Prev    Hash            `json:"prev"`
				Ack     int64           `json:"ack"`
				AckHash Hash            `json:"ack_hash"`
				Kind    Kind            `json:"kind"`
				Body    json.RawMessage `json:"body"`
				Sig     []byte          `json:"sig"`
			}{m.Game, m.From, m.Seq, m.Prev, m.Ack, m.AckHash, m.Kind, m.Body, m.Sig})
			if err != nil {
				t.Fatal(err)
			}
			// encoding/json compacts a RawMessage it writes: put the body
			// back as signed.
			compact, _ := json.Marshal(m.Body)
			line = []byte(strings.Replace(string(line), string(compact), string(m.Body), 1))
			if strings.Contains(string(m.Body), "\n") {
				return // a newline cannot stand in a line of the log form
			}
			head, err := RecordHead(tr)
			if err != nil {
				t.Fatal(err)
			}
			log := string(head) + " " + string(line) + "\n"
			for form, data := range map[string]string{"log": log, "document": log + "]}\n"} {
				got, err := ParseTranscript([]byte(data))
				if tt.ok != (err == nil) {
					t.Fatalf("the record as a %s: %v, want ok %v", form, err, tt.ok)
				}
				if err != nil && (errors.Is(err, ErrBadSignature) || !strings.Contains(err.Error(), "message 0") && !strings.Contains(err.Error(), "twice")) {
					t.Errorf("the record as a %s: %v, want the body of message 0 refused", form, err)
				}
				if err == nil && len(got.Messages) != 1 {
					t.Errorf("the record as a %s: %d messages", form, len(got.Messages))
				}
			}
		})
	}
}
