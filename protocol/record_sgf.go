package protocol

import (
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/sgf"
)

// sgfEventWriters turn the events of a variant into SGF nodes: each writer
// returns the node for an event it knows, or false. Variant files add
// theirs; EventMoved is written here as B[]/W[].
var sgfEventWriters []func(e Event, size int) (sgf.Node, bool)

// ExportSGF replays a transcript and writes the game as SGF FF[4]: plain
// Go records use only standard properties (and load in GNU Go); the other
// variants add the custom properties of docs/sgf.md.
func ExportSGF(t *Transcript) ([]byte, error) {
	m := NewMachine(t.Game)
	var nodes []sgf.Node
	for i := range t.Messages {
		events, err := m.Apply(&t.Messages[i])
		if err != nil {
			return nil, fmt.Errorf("protocol: export SGF: message %d: %w", i, err)
		}
		for _, e := range events {
			if mv, ok := e.(EventMoved); ok {
				var n sgf.Node
				n.AddMove(m.Options.Size, sgf.Move{Color: mv.Color, Point: mv.Point})
				nodes = append(nodes, n)
				continue
			}
			for _, w := range sgfEventWriters {
				if n, ok := w(e, m.Options.Size); ok {
					nodes = append(nodes, n)
					break
				}
			}
		}
	}
	if m.Options.Variant == "" {
		return nil, fmt.Errorf("protocol: export SGF: the record has no invitation")
	}
	info := sgf.GameInfo{Options: m.Options, Version: Version}
	for r, c := range m.Colors {
		name := t.Peers[r].String()
		switch c {
		case engine.Black:
			info.Black = name
		case engine.White:
			info.White = name
		}
	}
	if m.Outcome != nil && m.Outcome.Result.By != "declined" {
		info.Result = m.Outcome.Result
	}
	root, err := info.Root()
	if err != nil {
		return nil, fmt.Errorf("protocol: export SGF: %w", err)
	}
	if n := m.Options.Handicap; n > 0 {
		// HC-D1: the standard HA and AB, so that other programs place the
		// stones too.
		stones, err := engine.HandicapPoints(m.Options.Size, n)
		if err != nil {
			return nil, fmt.Errorf("protocol: export SGF: %w", err)
		}
		root.Add("HA", sgf.NumberValue(n))
		root.AddPoints("AB", m.Options.Size, stones...)
	}
	if gv, ok := m.variant.(*gomokuRules); ok && gv.record != nil {
		nodes = gomokuSGF(&root, *gv.record, m.Options.Size)
	}
	if pv, ok := m.variant.(*phantomRules); ok && pv.replay != nil {
		nodes = append(phantomSGF(pv.replay.Outcomes, m.Options.Size), nodes...)
	}
	tree := sgf.GameTree{Nodes: append([]sgf.Node{root}, nodes...)}
	return sgf.Format(sgf.Collection{tree})
}
