package leakcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/protocol"
)

// TestT5ContainsWord: a vertex counts as a word of its own, not inside a
// peer ID or a hex string.
func TestT5ContainsWord(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"C3", true},
		{`err="at C3, own stone"`, true},
		{"[C3]", true},
		{"12D3KooWC3x", false},
		{"c3C3d", false},
		{"C31", false},
		{"xC3 C3", true},
		{"", false},
	}
	for _, tt := range tests {
		if got := ContainsWord(tt.text, "C3"); got != tt.want {
			t.Errorf("ContainsWord(%q, C3) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestT5ValuesOfASecretsFile reads the values of a secrets file (a card,
// a seed, a "pass" that hides nothing, a Phantom Go try), finds each in a
// text as the leak tests look for it, and tells which message opens it.
func TestT5ValuesOfASecretsFile(t *testing.T) {
	_, card, err := commit.New(hmgrules.CardDomain, make([]byte, 16), 1, 0, []byte("C3"))
	if err != nil {
		t.Fatal(err)
	}
	seed := bytes.Repeat([]byte{0xa7}, 32)
	_, seedOpening, _ := commit.New("kakure/test/seed", make([]byte, 16), 1, 1, seed)
	_, pass, _ := commit.New("kakure/test/pass", make([]byte, 16), 1, 2, []byte("pass"))
	text := func(o commit.Opening) string {
		b, _ := o.MarshalText()
		return string(b)
	}
	secrets := []byte(fmt.Sprintf(`{"role":1,"variant":{"openings":[%q,%q],"seed":%q,"tries":["E5"]}}`,
		text(card), text(pass), text(seedOpening)))

	role, openings, err := Openings(secrets)
	if err != nil || role != protocol.Invitee || len(openings) != 3 {
		t.Fatalf("Openings = %v, %d openings, %v; want the invitee's 3", role, len(openings), err)
	}
	role, vals, err := Values(secrets)
	if err != nil || role != protocol.Invitee {
		t.Fatalf("Values: %v, %v", role, err)
	}
	byText := map[string]Value{}
	for _, v := range vals {
		byText[v.Text] = v
	}
	if len(vals) != 3 || !byText["C3"].Vertex || !byText["E5"].Vertex || byText["E5"].Salt != "" {
		t.Fatalf("values %+v; want C3, E5 (a try, no salt) and the seed, not pass", vals)
	}
	s, ok := byText[hex.EncodeToString(seed)]
	if !ok || s.Vertex {
		t.Fatalf("the seed is not among the values %+v", vals)
	}
	for _, txt := range []string{hex.EncodeToString(seed), base64.StdEncoding.EncodeToString(seed), base64.RawURLEncoding.EncodeToString(seed)} {
		if !s.In("x=" + txt) {
			t.Errorf("the seed is not found in %q", txt)
		}
	}
	if byText["C3"].In("12D3KooWC3x") || !byText["C3"].In("card at C3") {
		t.Error("the card is looked for as a word")
	}

	msg := func(from protocol.Role, kind protocol.Kind, body string) protocol.Message {
		return protocol.Message{From: from, Kind: kind, Body: json.RawMessage(body)}
	}
	salt := fmt.Sprintf("%x", card.Salt[:])
	msgs := []protocol.Message{
		msg(protocol.Invitee, protocol.KindMove, fmt.Sprintf(`{"point":"A1","note":%q}`, salt)),            // not an opening kind
		msg(protocol.Inviter, hmgrules.KindReveal, fmt.Sprintf(`{"card":0,"point":"C3","salt":%q}`, salt)), // not its owner
		msg(protocol.Invitee, hmgrules.KindReveal, fmt.Sprintf(`{"card":0,"point":"C3","salt":%q}`, salt)),
		msg(protocol.Invitee, phantomrules.KindReveal, `{}`),
	}
	if got := byText["C3"].OpensAt(msgs); got != 2 {
		t.Errorf("the card opens at message %d, want 2 (its owner's reveal)", got)
	}
	if got := byText["E5"].OpensAt(msgs); got != 3 {
		t.Errorf("the try opens at message %d, want 3 (its owner's Phantom Go reveal)", got)
	}
	if got := s.OpensAt(msgs); got != len(msgs) {
		t.Errorf("the seed opens at message %d, want none", got)
	}
}
