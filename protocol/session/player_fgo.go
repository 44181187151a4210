package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"

	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/fgo"
)

// The local side of F-Go (a variantPlayer): what this peer keeps to
// itself and how its actions become messages; the rules are in protocol/fgorules.

// fgoPlayer is the local side of F-Go: it holds this turn's choice and
// the opening of its commitment until the program opens it. Its own lock
// guards the secrets, as the view reads them from another goroutine.
type fgoPlayer struct {
	game protocol.GameID
	me   protocol.Role

	mu sync.Mutex
	s  fgoSecrets
}

// fgoSecrets is what the player keeps to itself, saved before each send.
type fgoSecrets struct {
	Turn    int             `json:"turn"`
	Choice  string          `json:"choice,omitempty"`
	Opening *commit.Opening `json:"opening,omitempty"`
}

func (p *fgoPlayer) message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error) {
	g, ok := m.Rules.(*fgorules.Rules)
	if !ok {
		return "", nil, fmt.Errorf("%w: no F-Go game", protocol.ErrNotNow)
	}
	from, kinds, done := g.Expected()
	may := func(k protocol.Kind) error {
		if done || from != me || !slices.Contains(kinds, k) {
			return fmt.Errorf("%w: %T now (expected %v from the %s)", protocol.ErrNotNow, a, kinds, from)
		}
		return nil
	}
	b := g.Game.Board()
	c := m.Colors[me]
	switch a := a.(type) {
	case protocol.Play:
		if err := may(fgorules.KindCommit); err != nil && !g.ChoosesEarly(me, fgorules.KindCommit) {
			return "", nil, err
		}
		if err := g.Game.CheckChoice(c, a.Point); err != nil {
			return "", nil, err
		}
		if g.Score.Active && a.Point == engine.Pass {
			return "", nil, fmt.Errorf("%w: play resumes with a stone, not a pass (GO-4)", protocol.ErrNotNow)
		}
		turn := g.Game.TurnNumber()
		v := a.Point.Vertex(b.Size())
		cm, o, err := commit.New(fgorules.ChoiceDomain, p.game[:], uint8(me), uint32(turn), []byte(v))
		if err != nil {
			return "", nil, err
		}
		p.mu.Lock()
		p.s = fgoSecrets{Turn: turn, Choice: v, Opening: &o}
		p.mu.Unlock()
		return fgorules.KindCommit, fgorules.CommitBody{Commitment: cm}, nil
	case fgorules.Offer:
		if err := may(fgorules.KindOffer); err != nil {
			return "", nil, err
		}
		if err := g.Game.CheckOffer(fgo.Offer{From: c, IfYouPlay: a.IfYouPlay, IPlay: a.IPlay}); err != nil {
			return "", nil, err
		}
		return fgorules.KindOffer, fgorules.OfferBody{IfYouPlay: a.IfYouPlay.Vertex(b.Size()), IPlay: a.IPlay.Vertex(b.Size())}, nil
	case fgorules.AcceptOffer:
		if err := may(fgorules.KindAccept); err != nil {
			return "", nil, err
		}
		return fgorules.KindAccept, struct{}{}, nil
	case fgorules.DeclineOffer:
		if err := may(fgorules.KindDecline); err != nil {
			return "", nil, err
		}
		return fgorules.KindDecline, struct{}{}, nil
	case protocol.MarkDead:
		if err := may(protocol.KindMark); err != nil {
			return "", nil, err
		}
		return protocol.KindMark, protocol.WireMarking(b, a.Dead), nil
	case protocol.AgreeScore:
		if err := may(protocol.KindAgree); err != nil || !g.Score.HasProposal {
			return "", nil, fmt.Errorf("%w: no marking to agree to", protocol.ErrNotNow)
		}
		return protocol.KindAgree, protocol.WireMarking(b, g.Score.Proposal.Dead(b)), nil
	}
	return "", nil, fmt.Errorf("%w: %T in %s", protocol.ErrNotNow, a, m.Options.Variant)
}

// auto opens this turn's commitment when it is this player's turn to.
func (p *fgoPlayer) auto(m *protocol.Machine, me protocol.Role) (protocol.Kind, any, bool, error) {
	g, ok := m.Rules.(*fgorules.Rules)
	if !ok {
		return "", nil, false, nil
	}
	from, kinds, done := g.Expected()
	if done || from != me || !slices.Equal(kinds, []protocol.Kind{fgorules.KindOpen}) {
		return "", nil, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.s.Opening == nil || p.s.Turn != g.Game.TurnNumber() {
		return "", nil, false, fmt.Errorf("protocol: the opening of turn %d is lost", g.Game.TurnNumber())
	}
	return fgorules.KindOpen, fgorules.OpenBody{Opening: *p.s.Opening}, true, nil
}

func (p *fgoPlayer) secrets() (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(p.s)
}

func (p *fgoPlayer) restore(raw json.RawMessage) error {
	var s fgoSecrets
	if err := protocol.UnmarshalStrict(raw, &s); err != nil {
		return fmt.Errorf("protocol: F-Go secrets: %w", err)
	}
	p.mu.Lock()
	p.s = s
	p.mu.Unlock()
	return nil
}

// PrivateView adds the local player's own choice of this turn.
func (p *fgoPlayer) PrivateView(m *protocol.Machine, me protocol.Role, public protocol.VariantView) protocol.VariantView {
	v, ok := public.(fgorules.View)
	if !ok {
		return public
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.s.Opening != nil && p.s.Turn == v.Game.TurnNumber() {
		if c, err := engine.ParseVertex(m.Options.Size, p.s.Choice); err == nil {
			v.MyChoice = c
		}
	}
	return v
}
