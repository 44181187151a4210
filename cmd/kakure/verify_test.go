package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol"
)

// TestT3VerifyRejectsDamagedRecords: `kakure verify` accepts a sound
// record, in both forms of docs/record.md (the finished document and
// the log), and rejects, with a non-zero status and the reason, a record
// that is torn or has a byte changed; it never prints "ok" for one. A log
// torn in its last line reads as the game before that line: unfinished.
func TestT3VerifyRejectsDamagedRecords(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "protocol", "testdata", "records", "go.record.json"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := protocol.ParseTranscript(good)
	if err != nil {
		t.Fatal(err)
	}
	document, err := tr.MarshalJSON() // the form this program writes
	if err != nil {
		t.Fatal(err)
	}
	log := bytes.TrimSuffix(document, []byte("]}\n"))
	// Torn in the line of a move in the middle: what is left is the game
	// before it.
	torn := log[:bytes.LastIndex(log[:len(log)/2], []byte(`"kind":"move"`))]
	changed := bytes.Clone(good)
	i := bytes.LastIndex(changed, []byte(`"kind":"move"`)) + len(`"kind":"m`)
	changed[i] = 'a' // "mave"
	// The record without its last message (the invitee's result
	// statement): every message sound, the game not finished (T-14).
	var rec map[string]json.RawMessage
	var msgs []json.RawMessage
	if err := json.Unmarshal(good, &rec); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(rec["messages"], &msgs); err != nil {
		t.Fatal(err)
	}
	if rec["messages"], err = json.Marshal(msgs[:len(msgs)-1]); err != nil {
		t.Fatal(err)
	}
	cutOff, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		data   []byte
		status int
		want   string
	}{
		{"T-3 sound record", good, 0, "ok: result"},
		{"T-14 result statement cut off", cutOff, 1, "not a finished game"},
		{"T-3 torn record", good[:len(good)/2], 1, "record rejected"},
		{"T-3 torn at the last message", good[:len(good)-10], 1, "record rejected"},
		{"T-3 byte changed", changed, 1, "bad signature"},
		{"T-3 empty file", nil, 1, "record rejected"},
		{"T-3 finished record as written", document, 0, "ok: result"},
		{"T-3 log without its closing line", log, 0, "ok: result"},
		{"T-3 log torn in its last line", torn, 1, "before both players stated the result: not a finished game"},
		{"T-3 log without its head", log[bytes.IndexByte(log, '\n')+1:], 1, "record rejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "game.record.json")
			if err := os.WriteFile(path, tt.data, 0o600); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			env := &environment{stdout: &stdout, stderr: &stderr}
			status := run(env, []string{"verify", path})
			out := stdout.String() + stderr.String()
			if status != tt.status || !strings.Contains(out, tt.want) {
				t.Errorf("status %d, output %q; want status %d mentioning %q", status, out, tt.status, tt.want)
			}
			if tt.status != 0 && strings.Contains(stdout.String(), "ok:") {
				t.Errorf("a damaged record is reported ok: %q", stdout.String())
			}
		})
	}
}
