package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/bridgerules"

	"encoding/json"
	"fmt"

	"github.com/kakure/kakure/engine"
)

// The local side of Bridge Go (a variantPlayer): what this peer keeps to
// itself and how its actions become messages; the rules are in protocol/bridgerules.

// bridgePlayer is the local side of Bridge Go: no secrets, moves only.
type bridgePlayer struct{}

func (bridgePlayer) message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error) {
	g, ok := m.Rules.(*bridgerules.Rules)
	if !ok {
		return "", nil, fmt.Errorf("%w: no Bridge Go game", protocol.ErrNotNow)
	}
	switch a := a.(type) {
	case protocol.Play:
		c := m.Colors[me]
		if g.Game.ToMove() != c {
			return "", nil, fmt.Errorf("play %s: %w", c, engine.ErrNotYourTurn)
		}
		if err := g.Game.Check(c, a.Point); err != nil {
			return "", nil, err
		}
		return protocol.KindMove, protocol.MoveBody{Point: a.Point.Vertex(m.Options.Size)}, nil
	}
	return "", nil, fmt.Errorf("%w: %T in %s", protocol.ErrNotNow, a, m.Options.Variant)
}

func (bridgePlayer) auto(*protocol.Machine, protocol.Role) (protocol.Kind, any, bool, error) {
	return "", nil, false, nil
}
func (bridgePlayer) secrets() (json.RawMessage, error) { return json.RawMessage("null"), nil }
func (bridgePlayer) restore(json.RawMessage) error     { return nil }
