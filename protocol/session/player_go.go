package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/gorules"

	"encoding/json"
	"fmt"
	"strings"

	"github.com/kakure/kakure/engine"
)

// variantPlayer is the local side of a variant: it holds this peer's
// secrets (none for public variants) and turns the caller's actions into
// messages.
type variantPlayer interface {
	// message turns an action of the local player into the message to
	// send; with no kind, the action changed only the player's secrets,
	// or, with the body heldAction, is held until what it goes after
	// is in (CLK-D33).
	message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error)
	// auto returns a message the program sends by itself now (an opening,
	// a commitment), if any.
	auto(m *protocol.Machine, me protocol.Role) (kind protocol.Kind, body any, ok bool, err error)
	// secrets returns what must survive a restart; restore reads it back.
	secrets() (json.RawMessage, error)
	restore(json.RawMessage) error
}

// newVariantPlayer makes the local side of each variant; the session
// fills it (the rules, newVariantRules, do not know the players).
// heldAction is the body a player's message returns, with no kind, for
// an action it holds, unsaved, until the other's steps it goes after
// are in (a Phantom Go try, CLK-D33): its program sends it by itself
// (auto), and the action's time ends its think time.
type heldAction struct{}

var newVariantPlayer = map[engine.Variant]func(game protocol.GameID, opts engine.Options, me protocol.Role) variantPlayer{}

// Playable returns nil when variant v can be played over the network:
// the core has its rules (protocol.PlayableOverNetwork) and this package
// its player (newVariantPlayer). Otherwise its error names what v lacks,
// so that a variant added piece by piece is refused by name instead of
// calling a player it has not got (VAR-D8).
func Playable(v engine.Variant) error {
	var lacks []string
	if !protocol.PlayableOverNetwork(v) {
		lacks = append(lacks, "rules (no protocol.Register entry, ARCH-D3)")
	}
	if newVariantPlayer[v] == nil {
		lacks = append(lacks, "player (protocol/session's newVariantPlayer)")
	}
	if lacks != nil {
		return fmt.Errorf("protocol: %s cannot be played over the network yet: it has no %s", v, strings.Join(lacks, " and no "))
	}
	return nil
}

// publicPlayer serves the variants with no secrets that are played by
// moves and GO-4 scoring: plain Go and Bridge Go.
type publicPlayer struct{}

func init() {
	newVariantPlayer[engine.VariantGo] = func(protocol.GameID, engine.Options, protocol.Role) variantPlayer { return publicPlayer{} }
	newVariantPlayer[engine.VariantBridge] = func(protocol.GameID, engine.Options, protocol.Role) variantPlayer { return bridgePlayer{} }
	newVariantPlayer[engine.VariantFGo] = func(game protocol.GameID, _ engine.Options, me protocol.Role) variantPlayer {
		return &fgoPlayer{game: game, me: me}
	}
	newVariantPlayer[engine.VariantHMG] = func(game protocol.GameID, o engine.Options, me protocol.Role) variantPlayer {
		return &hmgPlayer{game: game, opts: o}
	}
	newVariantPlayer[engine.VariantPhantom] = func(game protocol.GameID, o engine.Options, me protocol.Role) variantPlayer {
		return &phantomPlayer{game: game, opts: o, me: me}
	}
}

func (publicPlayer) message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error) {
	board := func() engine.Board {
		if g, ok := m.Rules.(*gorules.Rules); ok {
			return g.Game.Board()
		}
		return engine.Board{}
	}
	switch a := a.(type) {
	case protocol.Play:
		b := board()
		if a.Point != engine.Pass && !b.OnBoard(a.Point) && b.Size() > 0 {
			return "", nil, fmt.Errorf("%w: %d", engine.ErrOffBoard, a.Point)
		}
		size := m.Options.Size
		return protocol.KindMove, protocol.MoveBody{Point: a.Point.Vertex(size)}, nil
	case protocol.MarkDead:
		return protocol.KindMark, protocol.WireMarking(board(), a.Dead), nil
	case protocol.AgreeScore:
		g, ok := m.Rules.(*gorules.Rules)
		if !ok || !g.Score.HasProposal {
			return "", nil, fmt.Errorf("%w: no marking to agree to", protocol.ErrNotNow)
		}
		b := g.Game.Board()
		return protocol.KindAgree, protocol.WireMarking(b, g.Score.Proposal.Dead(b)), nil
	}
	return "", nil, fmt.Errorf("%w: %T in %s", protocol.ErrNotNow, a, m.Options.Variant)
}

func (publicPlayer) auto(*protocol.Machine, protocol.Role) (protocol.Kind, any, bool, error) {
	return "", nil, false, nil
}
func (publicPlayer) secrets() (json.RawMessage, error) { return json.RawMessage("null"), nil }
func (publicPlayer) restore(json.RawMessage) error     { return nil }
