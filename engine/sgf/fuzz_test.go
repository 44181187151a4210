package sgf

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzRoundTrip checks, for any input: Parse never panics and fails only
// with a positioned *ParseError; what it reads, Format writes, and Parse
// reads that back as the same collection, which Format writes identically;
// the value decoders and the record readers never panic, and a plain Go
// record or game information read from the input survives its own round
// trip. The seed corpus is testdata/fuzz/FuzzRoundTrip and the golden
// files.
func FuzzRoundTrip(f *testing.F) {
	golden, _ := filepath.Glob(filepath.Join("testdata", "*.sgf"))
	for _, name := range golden {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Column < 1 {
				t.Fatalf("Parse error %v is not a positioned *ParseError", err)
			}
			sentinels := []error{ErrNoGameTree, ErrUnexpectedEOF, ErrSyntax, ErrPropertyID, ErrNoValue, ErrEmptyGameTree, ErrTooDeep}
			found := false
			for _, s := range sentinels {
				found = found || errors.Is(err, s)
			}
			if !found {
				t.Fatalf("Parse error %v wraps no sentinel", err)
			}
			return
		}
		out, err := Format(c)
		if err != nil {
			t.Fatalf("Format of a parsed collection: %v", err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse of Format's output: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip changed the collection:\n got  %#v\n want %#v\n%s", back, c, out)
		}
		again, err := Format(back)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Format is not stable: %v\n%s\n%s", err, out, again)
		}
		for i := range c {
			decodeEverything(&c[i])
			checkRecords(t, c[i])
		}
	})
}

// decodeEverything calls every decoder on every value of t.
func decodeEverything(t *GameTree) {
	for i := range t.Nodes {
		n := &t.Nodes[i]
		n.Player()
		n.Moves(19)
		for _, p := range n.Properties {
			n.Points(p.ID, 9)
			for _, v := range p.Values {
				v.Text()
				v.SimpleText()
				_, _, _ = v.Compose()
				v.Number()
				v.Real()
				v.Color()
				v.Point(9)
				v.Points(19)
				v.Card(13)
				v.Choice(5)
				v.Commitment()
				v.Line(7)
			}
		}
	}
	for i := range t.Variations {
		decodeEverything(&t.Variations[i])
	}
}

// checkRecords reads t as a plain Go record and as game information and,
// when that works, checks that writing and reading again gives the same.
func checkRecords(t *testing.T, tree GameTree) {
	if info, err := ReadGameInfo(tree.Root()); err == nil {
		root, err := info.Root()
		if err != nil {
			t.Fatalf("GameInfo %+v read from the input cannot be written: %v", info, err)
		}
		back, err := ReadGameInfo(&root)
		if err != nil || !reflect.DeepEqual(back, info) {
			t.Fatalf("GameInfo round trip: %+v, %v; want %+v", back, err, info)
		}
	}
	r, err := GoRecordFromTree(tree)
	if err != nil {
		return
	}
	data, err := r.SGF()
	if err != nil {
		t.Fatalf("GoRecord %+v read from the input cannot be written: %v", r, err)
	}
	back, err := ParseGoRecord(data)
	if err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("GoRecord round trip: %+v, %v; want %+v\n%s", back, err, r, data)
	}
	r.Replay()
}
