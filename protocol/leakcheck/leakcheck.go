// Package leakcheck finds the values a peer keeps hidden (trust.md T-5)
// where they must not be before they are opened. It reads a peer's
// secrets file for the values it committed to, tells which message of a
// record opens each, and looks for a value in a text: a log, an error, a
// process's output. It serves the leak tests of protocol and cmd/kakure,
// which hold the same secrets files, records and logs up to it; the
// program itself never calls it.
package leakcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/protocol/gomokurules"

	"github.com/kakure/kakure/protocol/fgorules"

	"github.com/kakure/kakure/protocol/hmgrules"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Value is one value a peer keeps to itself until it opens it: the point
// of a Hidden Move Go card, an F-Go choice, a gomoku piece, a Phantom Go
// try, or the bytes of a coin-toss contribution or of the Phantom Go
// seed.
type Value struct {
	// Owner is the role of the peer that committed to the value.
	Owner protocol.Role
	// Text is the value as it would be written: a GTP vertex, or the hex
	// of a binary value.
	Text string
	// Vertex tells that Text is a GTP vertex.
	Vertex bool
	// Raw is the committed bytes.
	Raw []byte
	// Salt (hex) names the opening that opens the value; a Phantom Go try
	// has none: the owner's reveal at the end opens every try.
	Salt string
}

// OpeningKinds are the kinds of message that open a commitment: a value
// is opened only by one of them, sent by its owner.
var OpeningKinds = map[protocol.Kind]bool{
	protocol.KindTossReveal: true, hmgrules.KindReveal: true,
	hmgrules.KindOpenCards: true, fgorules.KindOpen: true,
	gomokurules.KindReveal: true, gomokurules.KindResponse: true,
	gomokurules.KindDeclare: true, gomokurules.KindOpenAll: true,
	phantomrules.KindReveal: true, phantomrules.KindAccuse: true,
}

// vertexText matches a GTP vertex of a board up to 19×19.
var vertexText = regexp.MustCompile(`^[A-HJ-T]([1-9]|1[0-9])$`)

// secretsFile is the part of a secrets file the checks read by name: the
// owner's role and the Phantom Go tries, which are no openings.
type secretsFile struct {
	Role    protocol.Role `json:"role"`
	Variant struct {
		Tries []string `json:"tries"`
	} `json:"variant"`
}

// Openings reads a peer's secrets file: its role and every commitment
// opening it holds, wherever in the file (the coin toss, hidden cards,
// F-Go choices, gomoku pieces, the Phantom Go seed).
func Openings(secrets []byte) (protocol.Role, []commit.Opening, error) {
	secrets, err := session.ReadSecrets(secrets)
	if err != nil {
		return 0, nil, fmt.Errorf("secrets file: %w", err)
	}
	var f secretsFile
	if err := json.Unmarshal(secrets, &f); err != nil {
		return 0, nil, fmt.Errorf("secrets file: %w", err)
	}
	var all any
	if err := json.Unmarshal(secrets, &all); err != nil {
		return 0, nil, fmt.Errorf("secrets file: %w", err)
	}
	var openings []commit.Opening
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			var o commit.Opening
			if o.UnmarshalText([]byte(v)) == nil {
				openings = append(openings, o)
			}
		}
	}
	walk(all)
	return f.Role, openings, nil
}

// Values reads a peer's secrets file: its role and every value it
// committed to that could be recognised in a text (a vertex, or binary
// bytes of 16 and more; "pass" and the like hide nothing useful), the
// Phantom Go tries included.
func Values(secrets []byte) (protocol.Role, []Value, error) {
	role, openings, err := Openings(secrets)
	if err != nil {
		return 0, nil, err
	}
	var f secretsFile
	doc, _ := session.ReadSecrets(secrets) // Openings read it already
	json.Unmarshal(doc, &f)
	var vals []Value
	add := func(raw []byte, salt string) {
		v := Value{Owner: role, Raw: raw, Salt: salt}
		switch {
		case vertexText.Match(raw):
			v.Text, v.Vertex = string(raw), true
		case len(raw) >= 16:
			v.Text = hex.EncodeToString(raw)
		default:
			return
		}
		vals = append(vals, v)
	}
	for _, o := range openings {
		add(o.Value, hex.EncodeToString(o.Salt[:]))
	}
	for _, try := range f.Variant.Tries {
		add([]byte(try), "")
	}
	return role, vals, nil
}

// OpensAt returns the index in msgs of the message that opens v (its
// owner's opening message holding its salt; for a Phantom Go try, its
// owner's reveal or accusation), or len(msgs) when v is not opened in
// msgs.
func (v Value) OpensAt(msgs []protocol.Message) int {
	for i, m := range msgs {
		if m.From != v.Owner || !OpeningKinds[m.Kind] {
			continue
		}
		if v.Salt != "" && bytes.Contains(m.Body, []byte(v.Salt)) {
			return i
		}
		if v.Salt == "" && (m.Kind == phantomrules.KindReveal || m.Kind == phantomrules.KindAccuse) {
			return i
		}
	}
	return len(msgs)
}

// In reports whether text holds v: a vertex as a word of its own (not
// inside a peer ID or a hex string), a binary value in hex or base64.
func (v Value) In(text string) bool {
	if v.Vertex {
		return ContainsWord(text, v.Text)
	}
	return strings.Contains(text, v.Text) || strings.Contains(text, base64.StdEncoding.EncodeToString(v.Raw)) ||
		strings.Contains(text, base64.RawURLEncoding.EncodeToString(v.Raw))
}

// InBody returns where a message body carries v, or "": "the body" for
// a binary value found anywhere in it; for a vertex, the name of the
// field that holds it. A vertex counts only in free text (FreeTextKeys)
// or in a field of its own: one of PublicPointKeys may be a public point
// of the message (a move, a marking, an offer) that happens to equal a
// hidden one.
func (v Value) InBody(body json.RawMessage) string {
	if !v.Vertex {
		if v.In(string(body)) {
			return "the body"
		}
		return ""
	}
	var b any
	if json.Unmarshal(body, &b) != nil {
		return ""
	}
	found := ""
	var walk func(key string, x any)
	walk = func(key string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, y := range x {
				walk(k, y)
			}
		case []any:
			for _, y := range x {
				walk(key, y)
			}
		case string:
			switch {
			case FreeTextKeys[key] && v.In(x):
				found = key
			case !PublicPointKeys[key] && x == v.Text:
				found = key
			}
		}
	}
	walk("", b)
	return found
}

// FreeTextKeys are the body fields that hold free text: violation
// details, decline reasons, chat, a Phantom Go accusation.
var FreeTextKeys = map[string]bool{"detail": true, "reason": true, "text": true, "accuse": true}

// PublicPointKeys are the body fields that carry a point everyone sees
// (a move, a marking, an offer, the opening piece, a claimed line).
var PublicPointKeys = map[string]bool{"point": true, "points": true, "dead": true, "if_you_play": true, "i_play": true, "start": true}

// ContainsWord reports whether text holds w as a word: w inside a peer
// ID or a hex string does not count, w between spaces, quotes or commas
// does.
func ContainsWord(text, w string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordByte(text[j-1])
		after := j+len(w) == len(text) || !isWordByte(text[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

// isWordByte reports whether b is an ASCII letter or digit.
func isWordByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// Messages returns the messages of a record file, either form of
// docs/record.md (the finished JSON document, or the log of an unfinished
// game with perhaps a torn last line), without checking them: only their
// senders, kinds and bodies matter to the leak checks.
func Messages(record []byte) ([]protocol.Message, error) {
	var tr struct{ Messages []protocol.Message }
	if json.Valid(record) {
		err := json.Unmarshal(record, &tr)
		return tr.Messages, err
	}
	lines := bytes.Split(record, []byte("\n"))
	if len(lines) < 2 {
		return nil, nil
	}
	var msgs []protocol.Message
	// The head line, then one message a line after its separator; the
	// last piece is empty or a torn line.
	for _, line := range lines[1 : len(lines)-1] {
		if len(line) < 2 || line[0] == ']' {
			continue
		}
		var m protocol.Message
		if err := json.Unmarshal(line[1:], &m); err != nil {
			return msgs, fmt.Errorf("record line: %w", err)
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}
