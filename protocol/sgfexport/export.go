// Package sgfexport writes a game's record as SGF FF[4] (docs/sgf.md):
// it replays the transcript with the core's machine, as kakure verify
// does, and writes each variant's moves, reveals and clocks from the
// events the replay gives. Plain Go records use only standard
// properties; the other variants add the custom properties of
// docs/sgf.md.
package sgfexport

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/gomokurules"
	"github.com/kakure/kakure/protocol/hmgrules"
	"github.com/kakure/kakure/protocol/phantomrules"

	"fmt"
	"strconv"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/engine/sgf"
	"github.com/kakure/kakure/internal/version"

	// Every variant's rules, registered with the core: a record of any variant is replayed to write its SGF.
	_ "github.com/kakure/kakure/protocol/variants"
)

// overtimeText writes a control's overtime as the OT property of other
// programs does ("3x30 byo-yomi", "25/300 Canadian", "5 Fischer").
func overtimeText(c clock.Control) string {
	secs := func(d time.Duration) int { return int(d / time.Second) }
	switch c.Kind {
	case clock.Fischer:
		return fmt.Sprintf("%d Fischer", secs(c.Increment))
	case clock.Japanese:
		return fmt.Sprintf("%dx%d byo-yomi", c.Periods, secs(c.Period))
	case clock.Canadian:
		return fmt.Sprintf("%d/%d Canadian", c.Stones, secs(c.Period))
	}
	return ""
}

// addTimeLeft writes a player's clock after its move (SGF-D11): BL or
// WL, the seconds left in the main time or, in overtime, in the current
// byo-yomi period or Canadian block, with OB or OW, the periods or the
// stones left.
func addTimeLeft(n *sgf.Node, c clock.Control, mover engine.Color, s clock.State) {
	if s.Flagged {
		return // the flag fell on a move not made: the last one was in time
	}
	left, overtime := s.Main, -1
	switch {
	case c.Kind == clock.Japanese && s.Main == 0:
		left, overtime = c.Period, s.Periods
	case c.Kind == clock.Canadian && s.Overtime:
		left, overtime = s.Block, s.Stones
	}
	tl, ot := "BL", "OB"
	if mover == engine.White {
		tl, ot = "WL", "OW"
	}
	n.Set(tl, sgf.Value(strconv.FormatFloat(left.Seconds(), 'f', 1, 64)))
	n.Remove(ot)
	if overtime >= 0 {
		n.Set(ot, sgf.NumberValue(overtime))
	}
}

// sgfEventWriters turn the events of a variant into SGF nodes: each writer
// returns the node for an event it knows, or false. Variant files add
// theirs; EventMoved is written here as B[]/W[].
var sgfEventWriters []func(e protocol.Event, size int) (sgf.Node, bool)

// Export replays a transcript and writes the game as SGF FF[4]: plain
// Go records use only standard properties (and load in GNU Go); the other
// variants add the custom properties of docs/sgf.md.
func Export(t *protocol.Transcript) ([]byte, error) {
	m := protocol.NewMachine(t.Game)
	var nodes []sgf.Node
	// lastMove holds each colour's last move node: a clock event writes
	// the time left on both, so that a settlement (CLK-D8) corrects the
	// other's.
	lastMove := map[engine.Color]int{}
	// after holds each colour's clock after each of its charged moves, in
	// order (a settlement replaces the last), for the variants whose
	// move nodes are written after the replay (SGF-D11).
	var after clockSnapshots
	for i := range t.Messages {
		events, err := m.Apply(&t.Messages[i])
		if err != nil {
			return nil, fmt.Errorf("protocol: export SGF: message %d: %w", i, err)
		}
		for _, e := range events {
			if mv, ok := e.(protocol.EventMoved); ok {
				var n sgf.Node
				n.AddMove(m.Options.Size, sgf.Move{Color: mv.Color, Point: mv.Point})
				nodes = append(nodes, n)
				if mv.Color == engine.Black || mv.Color == engine.White {
					lastMove[mv.Color] = len(nodes) - 1
				}
				continue
			}
			if ec, ok := e.(protocol.EventClock); ok {
				after.add(m, ec)
				for c, at := range lastMove {
					addTimeLeft(&nodes[at], m.Options.Time, c, ec.Clocks[m.RoleOf(c)])
				}
				continue
			}
			for _, w := range sgfEventWriters {
				if n, ok := w(e, m.Options.Size); ok {
					nodes = append(nodes, n)
					if r, ok := e.(hmgrules.EventRevealed); ok {
						// A reveal may end its player's turn (HMG-5): the
						// clock's time left goes on it (SGF-D11).
						lastMove[r.Color] = len(nodes) - 1
					}
					break
				}
			}
		}
	}
	if m.Options.Variant == "" {
		return nil, fmt.Errorf("protocol: export SGF: the record has no invitation")
	}
	info := sgf.GameInfo{Options: m.Options, Version: version.Program}
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
	if c := m.Options.Time; !c.IsNone() {
		// SGF-D11: the main time in seconds, the overtime in words.
		root.Add("TM", sgf.NumberValue(int(c.Main/time.Second)))
		if ot := overtimeText(c); ot != "" {
			root.AddText("OT", ot)
		}
	}
	if gv, ok := m.Rules.(*gomokurules.Rules); ok && gv.Record != nil {
		nodes = gomokuSGF(&root, *gv.Record, m.Options.Size)
	}
	if pv, ok := m.Rules.(*phantomrules.Rules); ok && pv.Replay != nil {
		nodes = append(phantomSGF(pv.Replay.Outcomes, m.Options.Size), nodes...)
	}
	if c := m.Options.Time; !c.IsNone() && len(lastMove) == 0 {
		// F-Go's turns, Phantom Go's audited moves and gomoku's opened
		// pieces: the k-th move node of a colour gets its k-th charged
		// clock (SGF-D11).
		after.write(nodes, c, m.Options.Size)
	}
	tree := sgf.GameTree{Nodes: append([]sgf.Node{root}, nodes...)}
	return sgf.Format(sgf.Collection{tree})
}

// clockSnapshots are each colour's clocks after each of its charged
// moves, in order.
type clockSnapshots struct {
	states [2][]clock.State
}

// add takes a clock event: a colour whose count of moves grew gets a new
// snapshot; one whose count stayed gets its last corrected (a settlement,
// CLK-D8).
func (cs *clockSnapshots) add(m *protocol.Machine, ec protocol.EventClock) {
	for i, c := range []engine.Color{engine.Black, engine.White} {
		s := ec.Clocks[m.RoleOf(c)]
		list := cs.states[i]
		switch {
		case s.Moves > len(list):
			cs.states[i] = append(list, s)
		case s.Moves > 0 && s.Moves == len(list):
			list[len(list)-1] = s
		}
	}
}

// write puts BL/WL (and OB/OW) on the move nodes: each colour's k-th move
// (a pass too) gets its k-th snapshot, as long as there are snapshots.
func (cs *clockSnapshots) write(nodes []sgf.Node, c clock.Control, size int) {
	var next [2]int
	for n := range nodes {
		moves, err := nodes[n].Moves(size)
		if err != nil {
			continue
		}
		for _, mv := range moves {
			i := 0
			if mv.Color == engine.White {
				i = 1
			} else if mv.Color != engine.Black {
				continue
			}
			if next[i] < len(cs.states[i]) {
				addTimeLeft(&nodes[n], c, mv.Color, cs.states[i][next[i]])
				next[i]++
			}
		}
	}
}
