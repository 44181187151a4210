package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/hmgrules"

	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/hmg"
)

// The local side of Hidden Move Go (a variantPlayer): what this peer keeps to
// itself and how its actions become messages; the rules are in protocol/hmgrules.

// hmgPlayer is the local side of Hidden Move Go: it holds this player's
// card points and the openings of their commitments. Its own lock guards
// them, as the caller's View reads them from another goroutine.
type hmgPlayer struct {
	game protocol.GameID
	opts engine.Options

	mu       sync.Mutex
	points   []engine.Point
	commits  []commit.Commitment
	openings []commit.Opening
}

// hmgSecrets is the saved form of an hmgPlayer's secrets.
type hmgSecrets struct {
	Commitments []commit.Commitment `json:"commitments,omitempty"`
	Openings    []commit.Opening    `json:"openings,omitempty"`
}

func (p *hmgPlayer) rules(m *protocol.Machine) *hmgrules.Rules {
	h, _ := m.Rules.(*hmgrules.Rules)
	return h
}

func (p *hmgPlayer) message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error) {
	h := p.rules(m)
	if h == nil {
		return "", nil, fmt.Errorf("%w: no Hidden Move Go game", protocol.ErrNotNow)
	}
	stage := h.Stage()
	if _, ok := a.(hmgrules.SetCards); !ok && stage == hmgrules.StageCards {
		p.mu.Lock()
		chosen := p.points != nil
		p.mu.Unlock()
		if !chosen {
			return "", nil, fmt.Errorf("%w: choose the points of your %d hidden-move cards first (SetCards)", protocol.ErrNotNow, m.Options.Cards)
		}
		return "", nil, fmt.Errorf("%w: the hidden-move commitments are being exchanged", protocol.ErrNotNow)
	}
	switch a := a.(type) {
	case hmgrules.SetCards:
		return "", nil, p.setCards(m, me, h, a.Points)
	case protocol.Play:
		if b := h.Game.Board(); a.Point != engine.Pass && !b.OnBoard(a.Point) {
			return "", nil, fmt.Errorf("%w: %d", engine.ErrOffBoard, a.Point)
		}
		return protocol.KindMove, protocol.MoveBody{Point: a.Point.Vertex(m.Options.Size)}, nil
	case hmgrules.Reveal:
		p.mu.Lock()
		defer p.mu.Unlock()
		if a.Card < 0 || a.Card >= len(p.openings) {
			return "", nil, fmt.Errorf("reveal card index %d of %d: %w", a.Card, len(p.openings), hmg.ErrNoSuchCard)
		}
		o := p.openings[a.Card]
		return hmgrules.KindReveal, hmgrules.RevealBody{CardOpening: hmgrules.CardOpening{Card: a.Card, Point: string(o.Value), Salt: hex.EncodeToString(o.Salt[:])}}, nil
	case protocol.MarkDead:
		return protocol.KindMark, protocol.WireMarking(h.Game.Board(), a.Dead), nil
	case protocol.AgreeScore:
		if !h.Score.HasProposal {
			return "", nil, fmt.Errorf("%w: no marking to agree to", protocol.ErrNotNow)
		}
		b := h.Game.Board()
		return protocol.KindAgree, protocol.WireMarking(b, h.Score.Proposal.Dead(b)), nil
	}
	return "", nil, fmt.Errorf("%w: %T in %s", protocol.ErrNotNow, a, m.Options.Variant)
}

// setCards checks the chosen points and commits to them; the commitments
// are sent by auto when it is this player's turn.
func (p *hmgPlayer) setCards(m *protocol.Machine, me protocol.Role, h *hmgrules.Rules, points []engine.Point) error {
	if m.Options.Cards == 0 {
		return fmt.Errorf("%w: this game has no hidden-move cards", protocol.ErrNotNow)
	}
	if h.Committed[me] {
		return fmt.Errorf("%w: the hidden-move cards are already committed (HMG-1)", protocol.ErrNotNow)
	}
	if _, err := h.Game.SetCards(m.Colors[me], points); err != nil {
		return err
	}
	commits := make([]commit.Commitment, len(points))
	openings := make([]commit.Opening, len(points))
	for i, pt := range points {
		c, o, err := commit.New(hmgrules.CardDomain, m.Game[:], uint8(me), uint32(i), []byte(pt.Vertex(m.Options.Size)))
		if err != nil {
			return err
		}
		commits[i], openings[i] = c, o
	}
	p.mu.Lock()
	p.points, p.commits, p.openings = append([]engine.Point(nil), points...), commits, openings
	p.mu.Unlock()
	return nil
}

func (p *hmgPlayer) auto(m *protocol.Machine, me protocol.Role) (protocol.Kind, any, bool, error) {
	h := p.rules(m)
	if h == nil {
		return "", nil, false, nil
	}
	from, kinds, _ := h.Expected()
	if from != me || len(kinds) != 1 {
		return "", nil, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch kinds[0] {
	case hmgrules.KindCards:
		if p.commits == nil {
			return "", nil, false, nil // the caller has not chosen yet
		}
		return hmgrules.KindCards, hmgrules.CardsBody{Commitments: p.commits}, true, nil
	case hmgrules.KindOpenCards:
		if len(p.openings) != m.Options.Cards {
			return "", nil, false, errors.New("protocol: the openings of this player's hidden-move cards are lost")
		}
		body := hmgrules.OpenCardsBody{Cards: []hmgrules.CardOpening{}}
		for i, card := range h.Game.Cards(m.Colors[me]) {
			if !card.Revealed {
				o := p.openings[i]
				body.Cards = append(body.Cards, hmgrules.CardOpening{Card: i, Point: string(o.Value), Salt: hex.EncodeToString(o.Salt[:])})
			}
		}
		return hmgrules.KindOpenCards, body, true, nil
	}
	return "", nil, false, nil
}

func (p *hmgPlayer) secrets() (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return json.Marshal(hmgSecrets{Commitments: p.commits, Openings: p.openings})
}

func (p *hmgPlayer) restore(raw json.RawMessage) error {
	var s hmgSecrets
	if err := protocol.UnmarshalStrict(raw, &s); err != nil {
		return fmt.Errorf("protocol: hidden-move secrets: %w", err)
	}
	if len(s.Commitments) != len(s.Openings) {
		return errors.New("protocol: hidden-move secrets: commitments and openings differ in number")
	}
	var points []engine.Point
	for i, o := range s.Openings {
		pt, err := engine.ParseVertex(p.opts.Size, string(o.Value))
		if err != nil || pt == engine.Pass {
			return fmt.Errorf("protocol: hidden-move secrets: card index %d at %q", i, o.Value)
		}
		points = append(points, pt)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(s.Openings) > 0 {
		p.points, p.commits, p.openings = points, s.Commitments, s.Openings
	}
	return nil
}

// PrivateView adds this player's card points to its view.
func (p *hmgPlayer) PrivateView(m *protocol.Machine, me protocol.Role, v protocol.VariantView) protocol.VariantView {
	hv, ok := v.(hmgrules.View)
	if !ok {
		return v
	}
	p.mu.Lock()
	points := append([]engine.Point(nil), p.points...)
	p.mu.Unlock()
	if m.Options.Cards == 0 {
		hv.CardsChosen, hv.MyCards = true, []hmg.Card{}
		return hv
	}
	if len(points) != m.Options.Cards {
		return hv
	}
	c := m.Colors[me]
	g, err := hv.Game.OpenCards(c, points)
	if err != nil {
		return hv // the record and the secrets disagree; show the public game
	}
	hv.Game, hv.CardsChosen, hv.MyCards = g, true, g.Cards(c)
	return hv
}
