package sgf

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kakure/kakure/engine"
)

// Application is the program name written in AP.
const Application = "kakure"

// GameInfo is the game information at the root of every kakure record.
type GameInfo struct {
	// Options name the variant (empty means plain Go), the board size, the
	// komi and the variant's options.
	Options engine.Options
	// Black and White are the players' names; empty names are not written.
	Black, White string
	// Result is the outcome; the zero Result (no winner, no reason) means
	// no result and writes no RE.
	Result engine.Result
	// Date is the DT value, such as "2025-03-14"; empty is not written.
	Date string
	// Version is the kakure version that wrote the record:
	// AP[kakure:Version], or AP[kakure] when empty.
	Version string
}

// Root returns the root node of a record with this information:
// GM FF CA AP SZ KM RU PB PW RE DT, then for a variant other than plain Go
// the custom properties VA and VO (docs/sgf.md). GM is 1 (Go), or 4 for
// gomoku; RU[Chinese] is written for the variants scored by area (GO-5).
// The options are checked with engine.Options.Normalize and written with
// their defaults filled in.
func (info GameInfo) Root() (Node, error) {
	o := info.Options
	if o.Variant == "" {
		o.Variant = engine.VariantGo
	}
	o, err := o.Normalize()
	if err != nil {
		return Node{}, fmt.Errorf("%w: %w", ErrValue, err)
	}
	d := o.Variant.Descriptor() // o is normalized
	var n Node
	n.Add("GM", NumberValue(d.SGFGame))
	n.Add("FF", "4")
	n.Add("CA", "UTF-8")
	if info.Version == "" {
		n.Add("AP", TextValue(Application))
	} else {
		n.Add("AP", ComposeValue(Application, info.Version))
	}
	n.Add("SZ", NumberValue(o.Size))
	n.Add("KM", RealValue(o.Komi))
	if d.SGFRules != "" {
		n.Add("RU", TextValue(d.SGFRules))
	}
	if info.Black != "" {
		n.Add("PB", TextValue(info.Black))
	}
	if info.White != "" {
		n.Add("PW", TextValue(info.White))
	}
	if info.Result != (engine.Result{}) {
		n.Add("RE", TextValue(info.Result.String()))
	}
	if info.Date != "" {
		n.Add("DT", TextValue(info.Date))
	}
	if o.Variant != engine.VariantGo {
		n.Add(PropVariant, TextValue(string(o.Variant)))
		if opts := variantOptions(d, o); opts != "" {
			n.Add(PropVariantOptions, TextValue(opts))
		}
	}
	return n, nil
}

// variantOptions writes the VO value of normalized options: the options of
// the variant, as key=value pairs separated by ";".
func variantOptions(d *engine.Descriptor, o engine.Options) string {
	pairs := make([]string, 0, len(d.Options))
	for _, opt := range d.Options {
		v := opt.Format(o)
		if opt.Own() && opt.Type == engine.OptionBool && v == "false" {
			// A switch held in Own that is off is left out, as the
			// wire leaves it out (Phantom Go's try-flips, UI-D49):
			// exports of records older than the switch stay as they
			// were, and a VO without it reads as off.
			continue
		}
		pairs = append(pairs, opt.Key+"="+v)
	}
	return strings.Join(pairs, ";")
}

// parseVariantOptions reads a VO value into o.
func parseVariantOptions(o *engine.Options, s string) error {
	d, err := engine.LookupDescriptor(o.Variant)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrValue, err)
	}
	for _, pair := range strings.Split(s, ";") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		key, val, ok := strings.Cut(pair, "=")
		if !ok {
			return fmt.Errorf("%w: VO option %q is not key=value", ErrValue, pair)
		}
		i := slices.IndexFunc(d.Options, func(opt engine.VariantOption) bool { return opt.Key == key })
		if i < 0 {
			return fmt.Errorf("%w: VO option %q does not apply to %s", ErrValue, key, o.Variant)
		}
		if err := d.Options[i].Parse(o, val); err != nil {
			return fmt.Errorf("%w: VO %v", ErrValue, err)
		}
	}
	return nil
}

// ReadGameInfo reads the game information of a root node: the inverse of
// [GameInfo.Root]. Missing properties take SGF's defaults (SZ 19, GM 1,
// KM 0); an RE of "?" or "" is no result. A nil root is ErrEmptyGameTree.
// It refuses a game other than Go
// (GM 1) or kakure's gomoku (GM 4 with VA[gomoku]), a board that is not
// square, and options engine.Options.Normalize refuses.
func ReadGameInfo(root *Node) (GameInfo, error) {
	var info GameInfo
	if root == nil {
		return info, ErrEmptyGameTree
	}
	o := engine.Options{Variant: engine.VariantGo, Size: 19, KomiSet: true}
	if v, ok := root.Get(PropVariant); ok {
		o.Variant = engine.Variant(v.SimpleText())
		if !slices.Contains(engine.Variants, o.Variant) {
			return info, fmt.Errorf("%w: VA[%s] is not a kakure variant", ErrValue, v)
		}
	}
	if v, ok := root.Get("GM"); ok {
		gm, err := v.Number()
		want := o.Variant.Descriptor().SGFGame // checked against Variants above
		if err != nil || gm != want {
			return info, fmt.Errorf("%w: GM[%s] for %s (want GM[%d])", ErrValue, v, o.Variant, want)
		}
	}
	if v, ok := root.Get("SZ"); ok {
		cols, rows, square := v.Compose()
		size, err := cols.Number()
		if err != nil {
			return info, fmt.Errorf("%w (in SZ)", err)
		}
		if square {
			if r, err := rows.Number(); err != nil || r != size {
				return info, fmt.Errorf("%w: SZ[%s] is not a square board", ErrValue, v)
			}
		}
		o.Size = size
	}
	if v, ok := root.Get("KM"); ok {
		k, err := v.Real()
		if err != nil {
			return info, fmt.Errorf("%w (in KM)", err)
		}
		o.Komi = k
	}
	if v, ok := root.Get(PropVariantOptions); ok {
		if err := parseVariantOptions(&o, v.SimpleText()); err != nil {
			return info, err
		}
	}
	o, err := o.Normalize()
	if err != nil {
		return info, fmt.Errorf("%w: %w", ErrValue, err)
	}
	info.Options = o
	info.Black = root.SimpleText("PB")
	info.White = root.SimpleText("PW")
	info.Date = root.SimpleText("DT")
	if re := strings.TrimSpace(root.SimpleText("RE")); re != "" && re != "?" {
		r, err := engine.ParseResult(re)
		if err != nil {
			return info, fmt.Errorf("%w: RE[%s]: %w", ErrValue, re, err)
		}
		if r.Margin < 0 || math.IsInf(r.Margin, 0) || math.IsNaN(r.Margin) {
			return info, fmt.Errorf("%w: RE[%s]: the margin must be a number of points", ErrValue, re)
		}
		info.Result = r
	}
	if v, ok := root.Get("AP"); ok {
		name, version, _ := v.Compose()
		if name.SimpleText() == Application {
			info.Version = version.SimpleText()
		}
	}
	return info, nil
}

// Setup holds the stones on the board before the first move (AB and AW in
// the root node), such as handicap stones.
type Setup struct {
	Black, White []engine.Point
}

// GoRecord is a game of plain Go as kakure records it and as GNU Go and
// other SGF programs read it. Points are engine points of a board of side
// Size (rows counted from the bottom); the conversion to SGF coordinates
// (rows from the top) happens in [GoRecord.Tree] and [GoRecordFromTree].
type GoRecord struct {
	// Size is the board side, 5 to 19 (engine.MinSize to engine.MaxSize).
	Size int
	// Komi is added to White's score.
	Komi float64
	// Black and White are the players' names.
	Black, White string
	// Result is the outcome; the zero Result means none.
	Result engine.Result
	// Date is the DT value, "YYYY-MM-DD".
	Date string
	// Version is the kakure version written in AP.
	Version string
	// Setup holds stones placed before the first move.
	Setup Setup
	// Moves are the moves in order; a pass is engine.Pass.
	Moves []Move
}

// Info returns the game information of the record (plain Go).
func (r GoRecord) Info() GameInfo {
	return GameInfo{
		Options: engine.Options{Variant: engine.VariantGo, Size: r.Size, Komi: r.Komi, KomiSet: true},
		Black:   r.Black, White: r.White, Result: r.Result, Date: r.Date, Version: r.Version,
	}
}

// Tree returns the record as an SGF game tree: the root node of
// [GameInfo.Root] with AB and AW for the setup stones, then one node per
// move, B[..] or W[..], a pass written as B[] / W[]. It holds standard
// FF[4] properties only, never kakure's custom ones. It refuses a size
// outside 5–19, a move whose colour is not Black or White, and a point off
// the board (ErrValue).
func (r GoRecord) Tree() (GameTree, error) {
	root, err := r.Info().Root()
	if err != nil {
		return GameTree{}, err
	}
	for _, s := range [2]struct {
		id string
		ps []engine.Point
	}{{"AB", r.Setup.Black}, {"AW", r.Setup.White}} {
		for _, p := range s.ps {
			if p < 0 || int(p) >= r.Size*r.Size {
				return GameTree{}, fmt.Errorf("%w: setup point %d is off a %dx%d board", ErrValue, p, r.Size, r.Size)
			}
		}
		if len(s.ps) > 0 {
			root.AddPoints(s.id, r.Size, s.ps...)
		}
	}
	t := GameTree{Nodes: make([]Node, 1, 1+len(r.Moves))}
	t.Nodes[0] = root
	for i, m := range r.Moves {
		if m.Color != engine.Black && m.Color != engine.White {
			return GameTree{}, fmt.Errorf("%w: move %d has colour %v", ErrValue, i+1, m.Color)
		}
		if m.Point != engine.Pass && (m.Point < 0 || int(m.Point) >= r.Size*r.Size) {
			return GameTree{}, fmt.Errorf("%w: move %d at point %d is off a %dx%d board", ErrValue, i+1, m.Point, r.Size, r.Size)
		}
		var n Node
		n.AddMove(r.Size, m)
		t.Nodes = append(t.Nodes, n)
	}
	return t, nil
}

// SGF returns the record as the text of an SGF file (see [GoRecord.Tree]
// and [Format]).
func (r GoRecord) SGF() ([]byte, error) {
	t, err := r.Tree()
	if err != nil {
		return nil, err
	}
	return Format(Collection{t})
}

// GoRecordFromTree reads a game of plain Go from the main line of t (the
// first variation at each branch): game information and setup stones from
// the root, then the B and W moves in order. Nodes without a move, and
// properties a GoRecord has no place for (comments, markup), are skipped.
// It refuses, with ErrNotPlainGo, a root naming a kakure variant, any of
// kakure's custom properties, a node with both B and W, and setup stones
// after the root; with ErrValue, a bad value.
func GoRecordFromTree(t GameTree) (GoRecord, error) {
	root := t.Root()
	if root == nil {
		return GoRecord{}, ErrEmptyGameTree
	}
	if v, ok := root.Get(PropVariant); ok && engine.Variant(v.SimpleText()) != engine.VariantGo {
		return GoRecord{}, fmt.Errorf("%w: VA[%s]", ErrNotPlainGo, v)
	}
	line := t.MainLine()
	for i := range line {
		for _, p := range line[i].Properties {
			if IsCustomProperty(p.ID) && !(i == 0 && p.ID == PropVariant) {
				return GoRecord{}, fmt.Errorf("%w: node %d holds kakure's custom property %s", ErrNotPlainGo, i, p.ID)
			}
		}
	}
	info, err := ReadGameInfo(root)
	if err != nil {
		return GoRecord{}, err
	}
	r := GoRecord{
		Size: info.Options.Size, Komi: info.Options.Komi,
		Black: info.Black, White: info.White, Result: info.Result, Date: info.Date, Version: info.Version,
	}
	if r.Setup.Black, err = root.Points("AB", r.Size); err != nil {
		return GoRecord{}, err
	}
	if r.Setup.White, err = root.Points("AW", r.Size); err != nil {
		return GoRecord{}, err
	}
	for i := range line {
		n := &line[i]
		if i > 0 && (n.Has("AB") || n.Has("AW") || n.Has("AE")) {
			return GoRecord{}, fmt.Errorf("%w: node %d adds or removes stones (a GoRecord has setup stones in the root only)", ErrNotPlainGo, i)
		}
		ms, err := n.Moves(r.Size)
		if err != nil {
			return GoRecord{}, fmt.Errorf("%w (node %d)", err, i)
		}
		if len(ms) > 1 {
			return GoRecord{}, fmt.Errorf("%w: node %d holds both B and W", ErrNotPlainGo, i)
		}
		r.Moves = append(r.Moves, ms...)
	}
	return r, nil
}

// ParseGoRecord reads a game of plain Go from the first game tree of an
// SGF file (see [Parse] and [GoRecordFromTree]).
func ParseGoRecord(data []byte) (GoRecord, error) {
	c, err := Parse(data)
	if err != nil {
		return GoRecord{}, err
	}
	return GoRecordFromTree(c[0])
}

// MoveError reports the first move of a record that engine.GoGame refuses.
type MoveError struct {
	// Number is the move's number, from 1.
	Number int
	// Move is the refused move.
	Move Move
	// Err is the engine's reason (wrapping engine.ErrOccupied,
	// engine.ErrSuicide, engine.ErrSuperko, engine.ErrOffBoard ...).
	Err error
}

// Error returns "sgf: move N: reason".
func (e *MoveError) Error() string { return fmt.Sprintf("sgf: move %d: %v", e.Number, e.Err) }

// Unwrap returns the engine's reason.
func (e *MoveError) Unwrap() error { return e.Err }

// Replay plays the record through engine.GoGame: the setup stones (see
// engine.GoGame.WithSetup), then every move with its own colour. It returns
// the final game, or the game before the first illegal move together with
// a [*MoveError]. Options or setup stones the engine refuses give an error
// without a game.
func (r GoRecord) Replay() (engine.GoGame, error) {
	g, err := engine.NewGoGame(engine.Options{Variant: engine.VariantGo, Size: r.Size, Komi: r.Komi, KomiSet: true})
	if err != nil {
		return engine.GoGame{}, fmt.Errorf("sgf: replay: %w", err)
	}
	if len(r.Setup.Black) > 0 || len(r.Setup.White) > 0 {
		if g, err = g.WithSetup(r.Setup.Black, r.Setup.White); err != nil {
			return engine.GoGame{}, fmt.Errorf("sgf: replay: %w", err)
		}
	}
	for i, m := range r.Moves {
		next, _, err := g.Play(m.Color, m.Point)
		if err != nil {
			return g, &MoveError{Number: i + 1, Move: m, Err: err}
		}
		g = next
	}
	return g, nil
}
