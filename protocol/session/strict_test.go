package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/hmgrules"

	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
)

// TestT3DamagedKeysAreRefused: a record or a secrets file whose key is
// damaged (a byte changed in "messages", in a message's field, in a
// secret's name), that lost a key it always has, or that has data after
// its end is refused; it never reads as a file without that key, its
// value silently lost (T-3, T-11). A key in other case reads the same
// (encoding/json matches keys without case), so it loses nothing.
func TestT3DamagedKeysAreRefused(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "records", "*.record.json"))
	if len(paths) == 0 {
		t.Fatal("no records in testdata/records")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		records := []struct {
			name   string
			damage func([]byte) []byte
			refuse bool
		}{
			{"messages key with a byte changed", func(d []byte) []byte {
				return bytes.Replace(d, []byte(`"messages":`), []byte(`"messageq":`), 1)
			}, true},
			{"a message field with a byte changed", func(d []byte) []byte {
				return bytes.Replace(d, []byte(`"kind":`), []byte(`"kinf":`), 1)
			}, true},
			{"no messages key", func(d []byte) []byte {
				var f map[string]json.RawMessage
				if err := json.Unmarshal(d, &f); err != nil {
					t.Fatal(err)
				}
				delete(f, "messages")
				out, _ := json.Marshal(f)
				return out
			}, true},
			{"data after the end", func(d []byte) []byte { return append(bytes.Clone(d), "\n{}"...) }, true},
			{"messages key in other case", func(d []byte) []byte {
				return bytes.Replace(d, []byte(`"messages":`), []byte(`"Messages":`), 1)
			}, false},
		}
		for _, c := range records {
			bad := c.damage(data)
			if bytes.Equal(bad, data) {
				t.Fatalf("%s, %s: the damage changed nothing", name, c.name)
			}
			tr, err := protocol.ParseTranscript(bad)
			switch {
			case c.refuse && err == nil:
				t.Errorf("%s, %s: read as a record of %d messages", name, c.name, len(tr.Messages))
			case !c.refuse && err != nil:
				t.Errorf("%s, %s: refused: %v", name, c.name, err)
			}
		}
	}

	commitment, opening, err := commit.New(hmgrules.CardDomain, make([]byte, 16), 0, 0, []byte("C3"))
	if err != nil {
		t.Fatal(err)
	}
	encode := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	fgo := encode(fgoSecrets{Turn: 3, Choice: "C3", Opening: &opening})
	hmg := encode(hmgSecrets{Commitments: []commit.Commitment{commitment}, Openings: []commit.Opening{opening}})
	secrets := []struct {
		name string
		v    any
		good string
		bad  string
	}{
		{"secrets file role", &secretsFile{}, `{"role":1,"variant":null}`, `{"rolf":1,"variant":null}`},
		{"F-Go choice", &fgoSecrets{}, fgo, strings.Replace(fgo, `"opening"`, `"openinf"`, 1)},
		{"hidden-move cards", &hmgSecrets{}, hmg, strings.Replace(hmg, `"openings"`, `"openingr"`, 1)},
	}
	for _, s := range secrets {
		if err := protocol.UnmarshalStrict([]byte(s.good), s.v); err != nil {
			t.Errorf("%s: the sound form is refused: %v", s.name, err)
		}
		if s.bad == s.good {
			t.Fatalf("%s: the damage changed nothing", s.name)
		}
		if err := protocol.UnmarshalStrict([]byte(s.bad), s.v); err == nil {
			t.Errorf("%s: a damaged key reads", s.name)
		}
	}
	// The players read their secrets through it.
	p := newVariantPlayer[engine.VariantFGo](protocol.GameID{}, engine.Options{Variant: engine.VariantFGo, Size: 5}, protocol.Inviter)
	if err := p.restore(json.RawMessage(secrets[1].bad)); err == nil {
		t.Error("the F-Go player restores secrets with a damaged key")
	}
}
