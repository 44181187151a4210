package session_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// goldenRecord is the record of the worked example of docs/record.md.
const goldenRecord = "../testdata/records/go-resign.record.json"

// docGolden reads the ```golden block of docs/record.md: "name: value"
// lines, a value continued on the following indented lines.
func docGolden(t *testing.T) (names []string, values map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "record.md"))
	if err != nil {
		t.Fatal(err)
	}
	values = map[string]string{}
	in := false
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```golden":
			in = true
		case in && line == "```":
			return names, values
		case in && strings.HasPrefix(line, "  ") && last != "":
			values[last] += strings.TrimSpace(line)
		case in:
			name, value, ok := strings.Cut(line, ": ")
			if !ok {
				t.Fatalf("docs/record.md, golden block: line %q", line)
			}
			names = append(names, name)
			values[name] = strings.TrimSpace(value)
			last = name
		}
	}
	t.Fatal("docs/record.md has no ```golden block")
	return nil, nil
}

// The doc's encodings, written here from the doc's text, independent of
// the program's own functions (which the test then compares with).
func lenPrefixed64(fields ...[]byte) []byte {
	var b []byte
	for _, f := range fields {
		b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
		b = append(b, f...)
	}
	return b
}

func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

func docSigningBytes(m protocol.Message) []byte {
	return lenPrefixed64([]byte("kakure/message/v1"), m.Game[:], []byte{byte(m.From)}, u64(m.Seq),
		m.Prev[:], u64(uint64(m.Ack)), m.AckHash[:], []byte(m.Kind), m.Body)
}

func docCommitmentInput(domain string, game []byte, player byte, index uint32, value, salt []byte) []byte {
	field := func(b, f []byte) []byte {
		return append(binary.BigEndian.AppendUint32(b, uint32(len(f))), f...)
	}
	var b []byte
	b = field(b, []byte("kakure/commit/v1"))
	b = field(b, []byte(domain))
	b = field(b, game)
	b = append(b, player)
	b = binary.BigEndian.AppendUint32(b, index)
	b = field(b, value)
	return field(b, salt)
}

func docOpening(text string) (value, salt []byte, err error) {
	b, err := hex.DecodeString(text)
	if err != nil || len(b) < 5 || b[0] != 1 {
		return nil, nil, fmt.Errorf("opening %q", text)
	}
	n := binary.BigEndian.Uint32(b[1:5])
	if len(b) != 5+int(n)+32 {
		return nil, nil, fmt.Errorf("opening %q: length", text)
	}
	return b[5 : 5+n], b[5+n:], nil
}

// TestT3GoldenRecordExample recomputes every value the worked example of
// docs/record.md shows from the doc's own description of the encodings
// (signing bytes, message hashes, the toss commitments and their
// openings, the toss's result and the colours) and from the record, and
// checks each against the doc's hex and against what the program
// computes: the doc cannot drift from the code. KAKURE_GOLDEN_PRINT=1
// prints the block to paste after a deliberate change.
func TestT3GoldenRecordExample(t *testing.T) {
	tr, err := session.LoadTranscript(goldenRecord)
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Messages
	byKey := map[string]protocol.Message{}
	for _, m := range msgs {
		byKey[fmt.Sprintf("%d/%d", m.From, m.Seq)] = m
	}
	// What the doc's description gives, value by value.
	computed := map[string]string{"record": strings.TrimPrefix(goldenRecord, "../"), "game": tr.Game.String()}
	var order []string
	add := func(name, value string) {
		computed[name] = value
		order = append(order, name)
	}
	add("record", strings.TrimPrefix(goldenRecord, "../"))
	add("game", tr.Game.String())
	for _, key := range []string{"1/0", "0/3"} {
		m := byKey[key]
		sb := docSigningBytes(m)
		if !bytes.Equal(sb, m.SigningBytes()) {
			t.Errorf("message %s: the doc's signing bytes differ from the program's", key)
		}
		add("signing bytes "+key, hex.EncodeToString(sb))
	}
	for _, m := range msgs {
		key := fmt.Sprintf("%d/%d", m.From, m.Seq)
		h := sha256.Sum256(docSigningBytes(m))
		if h != m.Hash() {
			t.Errorf("message %s: the doc's hash differs from the program's", key)
		}
		add("hash "+key+" "+string(m.Kind), hex.EncodeToString(h[:]))
	}
	var contributions [2][]byte
	for r := 0; r < 2; r++ {
		var commitText, openText string
		for _, m := range msgs {
			if int(m.From) != r {
				continue
			}
			switch m.Kind {
			case protocol.KindTossCommit:
				commitText = strings.TrimSuffix(strings.TrimPrefix(string(m.Body), `{"commitment":"`), `"}`)
			case protocol.KindTossReveal:
				openText = strings.TrimSuffix(strings.TrimPrefix(string(m.Body), `{"opening":"`), `"}`)
			}
		}
		value, salt, err := docOpening(openText)
		if err != nil {
			t.Fatal(err)
		}
		contributions[r] = value
		in := docCommitmentInput("kakure/toss/colours", tr.Game[:], byte(r), 0, value, salt)
		c := sha256.Sum256(in)
		if hex.EncodeToString(c[:]) != commitText {
			t.Errorf("role %d: the doc's commitment %x is not the one in the record, %s", r, c, commitText)
		}
		var o commit.Opening
		if err := o.UnmarshalText([]byte(openText)); err != nil {
			t.Fatal(err)
		}
		if pc, err := commit.Compute("kakure/toss/colours", tr.Game[:], uint8(r), 0, o); err != nil || pc != c {
			t.Errorf("role %d: the program's commitment %x, the doc's %x", r, pc, c)
		}
		add(fmt.Sprintf("toss contribution %d", r), hex.EncodeToString(value))
		add(fmt.Sprintf("toss salt %d", r), hex.EncodeToString(salt))
		if r == 0 {
			add("commitment input 0", hex.EncodeToString(in))
		}
		add(fmt.Sprintf("commitment %d", r), hex.EncodeToString(c[:]))
	}
	tossIn := lenPrefixed64([]byte("kakure/toss/result/v1"), tr.Game[:], contributions[0], contributions[1])
	toss := sha256.Sum256(tossIn)
	add("toss input", hex.EncodeToString(tossIn))
	add("toss result", hex.EncodeToString(toss[:]))
	inviter := "black"
	if toss[0]&1 == 1 {
		inviter = "white"
	}
	add("inviter plays", inviter)
	// The program's colours, from replaying the record.
	m := protocol.NewMachine(tr.Game)
	for i := range msgs {
		m.Apply(&msgs[i])
	}
	if want := map[string]engine.Color{"black": engine.Black, "white": engine.White}[inviter]; m.Colors[protocol.Inviter] != want {
		t.Errorf("the program gives the inviter %v, the doc's rule %s", m.Colors[protocol.Inviter], inviter)
	}
	if os.Getenv("KAKURE_GOLDEN_PRINT") != "" {
		var b strings.Builder
		b.WriteString("```golden\n")
		for _, name := range order {
			v := computed[name]
			b.WriteString(name + ": ")
			for len(v) > 64 {
				b.WriteString(v[:64] + "\n  ")
				v = v[64:]
			}
			b.WriteString(v + "\n")
		}
		b.WriteString("```\n")
		fmt.Print(b.String())
	}
	names, doc := docGolden(t)
	if len(names) != len(order) {
		t.Errorf("the doc shows %d values, the example has %d", len(names), len(order))
	}
	for _, name := range order {
		if doc[name] != computed[name] {
			t.Errorf("docs/record.md, %s:\n doc  %s\n want %s", name, doc[name], computed[name])
		}
	}
}
