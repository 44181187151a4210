package protocol

import (
	"encoding/json"
	"fmt"

	"github.com/kakure/kakure/engine"
)

// The local side of Bridge Go (a variantPlayer): what this peer keeps to
// itself and how its actions become messages; the rules are in variant_bridge.go.

// bridgePlayer is the local side of Bridge Go: no secrets, moves only.
type bridgePlayer struct{}

func (bridgePlayer) message(m *Machine, me Role, a Action) (Kind, any, error) {
	g, ok := m.Rules.(*BridgeRules)
	if !ok {
		return "", nil, fmt.Errorf("%w: no Bridge Go game", ErrNotNow)
	}
	switch a := a.(type) {
	case Play:
		c := m.Colors[me]
		if g.Game.ToMove() != c {
			return "", nil, fmt.Errorf("play %s: %w", c, engine.ErrNotYourTurn)
		}
		if err := g.Game.Check(c, a.Point); err != nil {
			return "", nil, err
		}
		return KindMove, MoveBody{Point: a.Point.Vertex(m.Options.Size)}, nil
	}
	return "", nil, fmt.Errorf("%w: %T in %s", ErrNotNow, a, m.Options.Variant)
}

func (bridgePlayer) auto(*Machine, Role) (Kind, any, bool, error) { return "", nil, false, nil }
func (bridgePlayer) secrets() (json.RawMessage, error)            { return json.RawMessage("null"), nil }
func (bridgePlayer) restore(json.RawMessage) error                { return nil }
