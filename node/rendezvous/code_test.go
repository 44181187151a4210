package rendezvous

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestCodeWordList checks the properties ParseCode relies on: 256 words
// of lower-case letters, at least three letters long, told apart by
// their first three letters.
func TestCodeWordList(t *testing.T) {
	seen := map[string]string{}
	for _, w := range codeWords {
		if len(w) < 3 || len(w) > 7 {
			t.Errorf("word %q: %d letters, want 3 to 7", w, len(w))
		}
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("word %q: not only lower-case letters", w)
		}
		if other, ok := seen[w[:3]]; ok {
			t.Errorf("words %q and %q share their first three letters", other, w)
		}
		seen[w[:3]] = w
	}
}

func TestNewCode(t *testing.T) {
	tests := []struct {
		name  string
		bytes []byte
		want  string
	}{
		{"first words", []byte{0, 1, 2}, "acorn-actor-adult"},
		{"last word", []byte{255, 255, 255}, codeWords[255] + "-" + codeWords[255] + "-" + codeWords[255]},
		{"mixed", []byte{8, 128, 37}, codeWords[8] + "-" + codeWords[128] + "-" + codeWords[37]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewCode(bytes.NewReader(tt.bytes))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("NewCode = %q, want %q", got, tt.want)
			}
			if back, err := ParseCode(got); err != nil || back != got {
				t.Errorf("ParseCode(%q) = %q, %v; want it back unchanged", got, back, err)
			}
		})
	}
	if _, err := NewCode(bytes.NewReader([]byte{1, 2})); err == nil {
		t.Error("NewCode with a short random source: no error")
	}
	a, _ := NewCode(nil)
	b, _ := NewCode(nil)
	c, _ := NewCode(nil)
	if a == b && b == c {
		t.Errorf("three codes from crypto/rand are all %q", a)
	}
}

func TestParseCode(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" means an error
	}{
		{"maple-otter-quail", "maple-otter-quail"},
		{"Maple Otter QUAIL", "maple-otter-quail"},
		{"  maple   otter\tquail\n", "maple-otter-quail"},
		{"maple.otter,quail", "maple-otter-quail"},
		{"maple/otter_quail", "maple-otter-quail"},
		{"map ott qua", "maple-otter-quail"},
		{"mapl-otte-quai", "maple-otter-quail"},
		{"ma ott qua", ""},              // two letters are not enough
		{"maples otter quail", ""},      // longer than the word
		{"mapel otter quail", ""},       // misspelt
		{"maple otter", ""},             // too few words
		{"maple otter quail acorn", ""}, // too many
		{"", ""},
		{"maple-otter-quäil", ""},
		{"123-456-789", ""},
	}
	for _, tt := range tests {
		got, err := ParseCode(tt.in)
		if tt.want == "" {
			if err == nil || !errors.Is(err, ErrBadCode) {
				t.Errorf("ParseCode(%q) = %q, %v; want an error wrapping ErrBadCode", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseCode(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// FuzzParseCode checks that whatever ParseCode accepts is canonical and
// parses to itself.
func FuzzParseCode(f *testing.F) {
	for _, s := range []string{"maple-otter-quail", "MAP ott qua", "a-b-c", "acorn acorn acorn", "zone-zone-zone."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, err := ParseCode(s)
		if err != nil {
			return
		}
		again, err := ParseCode(code)
		if err != nil || again != code {
			t.Fatalf("ParseCode(%q) = %q, but ParseCode(%q) = %q, %v", s, code, code, again, err)
		}
		if n := len(strings.Split(code, "-")); n != CodeWords {
			t.Fatalf("ParseCode(%q) = %q: %d words", s, code, n)
		}
	})
}
