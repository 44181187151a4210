package sgf

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/kakure/kakure/engine"
)

// The custom properties of kakure's variant records: what FF[4] has no
// property for. docs/sgf.md gives each one's meaning, place and value
// syntax. None of them is a standard FF[4] identifier, and a plain Go
// record ([GoRecord]) never holds any of them.
const (
	// PropVariant (root, SimpleText): the variant, "phantom", "hmg",
	// "gomoku", "fgo" or "bridge" (engine.Variant).
	PropVariant = "VA"
	// PropVariantOptions (root, SimpleText): the variant's options as
	// key=value pairs joined by ";": rules=, cards=, suicide=,
	// perpendicular=.
	PropVariantOptions = "VO"
	// PropTurn (node, Color): the player whose turn the node records, on a
	// node that has no B or W.
	PropTurn = "TO"
	// PropAnnouncement (node, list of Text): what both players were told
	// during the node's turn, in order.
	PropAnnouncement = "AT"
	// PropIllegalTry (node, list of Point or empty): Phantom Go tries the
	// node's player made, illegal, before the node's move, in order; an
	// empty value is a try whose point the writer does not know.
	PropIllegalTry = "XT"
	// PropIllegalReason (node, list of SimpleText): the reason of each
	// PropIllegalTry, in the same order (see the Reason constants); an
	// empty value is an unknown reason.
	PropIllegalReason = "XR"
	// PropCardCommitment (root, list of Color:SimpleText): the Hidden Move
	// Go commitment of each card, per colour in card order.
	PropCardCommitment = "HC"
	// PropCardReveal (node, list of Number:Point): Hidden Move Go cards the
	// node's player revealed in its turn, in order, by 1-based index.
	PropCardReveal = "HR"
	// PropUndo (node, none): the node's last reveal landed on the
	// opponent's last stone and undid that move (HMG-5).
	PropUndo = "HU"
	// PropCardOpened (node, list of Number:Point): unused Hidden Move Go
	// cards of the node's player opened at the end of the game (HMG-7).
	PropCardOpened = "HE"
	// PropLineAnnounced (node, "row" or "col" : coordinate letter): the
	// line a gomoku mover announced (GM-3).
	PropLineAnnounced = "AL"
	// PropPiecesRevealed (node, list of Point): gomoku pieces the
	// opponent revealed in the announced line (GM-3).
	PropPiecesRevealed = "GR"
	// PropFailedPlacement (node, Point): a gomoku move that failed because
	// its point was among the pieces just revealed; no piece was placed.
	PropFailedPlacement = "GX"
	// PropFiveAnnounced (node, none): the mover announced "five" (GM-5).
	PropFiveAnnounced = "FV"
	// PropWinClaim (node, list of Point): the pieces of the two lines of
	// five a gomoku winner claimed (GM-6).
	PropWinClaim = "WC"
	// PropCollision (node, Point): both F-Go players chose this point; no
	// stone was played and the point became unavailable (FG-2).
	PropCollision = "FC"
	// PropVoidTurn (node, list of Color:Point): an F-Go turn not played
	// because of superko (FG-4), with each player's choice (an empty point
	// is a pass).
	PropVoidTurn = "FR"
	// PropUnavailable (node, elist of Point): the F-Go points unavailable
	// after this node's turn, written where the set changes.
	PropUnavailable = "FU"
	// PropBridge (node, list of Point): the Bridge Go chain whose bridge
	// won the game (BG-3), on the winning move's node.
	PropBridge = "BW"
)

// Reasons of an illegal Phantom Go try, the values of PropIllegalReason.
const (
	ReasonOpponentStone = "opponent-stone"
	ReasonOwnStone      = "own-stone"
	ReasonSuicide       = "suicide"
	ReasonKo            = "ko"
)

// customPropertyIDs lists the custom properties in the order of
// docs/sgf.md.
var customPropertyIDs = [...]string{
	PropVariant, PropVariantOptions, PropTurn, PropAnnouncement,
	PropIllegalTry, PropIllegalReason,
	PropCardCommitment, PropCardReveal, PropUndo, PropCardOpened,
	PropLineAnnounced, PropPiecesRevealed, PropFailedPlacement, PropFiveAnnounced, PropWinClaim,
	PropCollision, PropVoidTurn, PropUnavailable,
	PropBridge,
}

// CustomPropertyIDs returns the identifiers of kakure's custom properties.
func CustomPropertyIDs() []string { return slices.Clone(customPropertyIDs[:]) }

// IsCustomProperty reports whether id is one of kakure's custom properties.
func IsCustomProperty(id string) bool { return slices.Contains(customPropertyIDs[:], id) }

// Player returns the player of n's turn: the colour of its B or W move, or
// else of its TO property. A node with both B and W (an F-Go turn) or with
// neither and no valid TO has no single player.
func (n *Node) Player() (engine.Color, bool) {
	b, w := n.Has("B"), n.Has("W")
	switch {
	case b && !w:
		return engine.Black, true
	case w && !b:
		return engine.White, true
	case b && w:
		return engine.Empty, false
	}
	v, _ := n.Get(PropTurn)
	c, err := v.Color()
	return c, err == nil
}

// CardValue encodes a Hidden Move Go card, index (from 1) and point, as
// "index:point" (PropCardReveal, PropCardOpened).
func CardValue(size, index int, p engine.Point) Value {
	return Value(strconv.Itoa(index)) + ":" + PointValue(size, p)
}

// Card decodes a value written by [CardValue].
func (v Value) Card(size int) (index int, p engine.Point, err error) {
	first, second, ok := v.Compose()
	if !ok {
		return 0, engine.NoPoint, fmt.Errorf("%w: card %q is not index:point", ErrValue, string(v))
	}
	if index, err = first.Number(); err != nil || index < 1 {
		return 0, engine.NoPoint, fmt.Errorf("%w: card %q has no index from 1", ErrValue, string(v))
	}
	if p, err = second.stone(size); err != nil {
		return 0, engine.NoPoint, err
	}
	return index, p, nil
}

// CommitmentValue encodes the commitment of a Hidden Move Go card of
// player c as "B:commitment" or "W:commitment" (PropCardCommitment). The
// commitment is opaque text, escaped as needed.
func CommitmentValue(c engine.Color, commitment string) Value {
	return ColorValue(c) + ":" + Value(escape(commitment, true))
}

// Commitment decodes a value written by [CommitmentValue].
func (v Value) Commitment() (engine.Color, string, error) {
	first, second, ok := v.Compose()
	if !ok {
		return engine.Empty, "", fmt.Errorf("%w: commitment %q is not colour:text", ErrValue, string(v))
	}
	c, err := first.Color()
	if err != nil {
		return engine.Empty, "", err
	}
	return c, second.SimpleText(), nil
}

// ChoiceValue encodes a player's choice, a point or engine.Pass, as
// "B:point" or "W:point" (PropVoidTurn); a pass has an empty point.
func ChoiceValue(size int, c engine.Color, p engine.Point) Value {
	return ColorValue(c) + ":" + PointValue(size, p)
}

// Choice decodes a value written by [ChoiceValue].
func (v Value) Choice(size int) (engine.Color, engine.Point, error) {
	first, second, ok := v.Compose()
	if !ok {
		return engine.Empty, engine.NoPoint, fmt.Errorf("%w: choice %q is not colour:point", ErrValue, string(v))
	}
	c, err := first.Color()
	if err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	p, err := second.Point(size)
	if err != nil {
		return engine.Empty, engine.NoPoint, err
	}
	return c, p, nil
}

// Line is a row or a column of the board, as a gomoku mover announces it
// (GM-3).
type Line struct {
	// Column is true for a column, false for a row.
	Column bool
	// Index is the engine coordinate: x of a column (0 = A), y of a row
	// (0 = the bottom row, row 1).
	Index int
}

// LineValue encodes l on a board of side size as "row:c" or "col:d", with
// the SGF coordinate letter of the row (from the top) or column (from the
// left) (PropLineAnnounced). An index off the board gives "row:?".
func LineValue(size int, l Line) Value {
	kind, letter := Value("row:"), -1
	if l.Column {
		kind = "col:"
		letter = l.Index
	} else if l.Index >= 0 && l.Index < size {
		letter = size - 1 - l.Index
	}
	if letter < 0 || letter >= size || letter >= len(sgfLetters) {
		return kind + "?"
	}
	return kind + Value(sgfLetters[letter:letter+1])
}

// Line decodes a value written by [LineValue].
func (v Value) Line(size int) (Line, error) {
	first, second, ok := v.Compose()
	if ok && len(second) == 1 {
		i := coordinate(second[0])
		if i >= 0 && i < size {
			switch first {
			case "row":
				return Line{Index: size - 1 - i}, nil
			case "col":
				return Line{Column: true, Index: i}, nil
			}
		}
	}
	return Line{}, fmt.Errorf("%w: %q is not row:letter or col:letter on a %dx%d board", ErrValue, string(v), size, size)
}
