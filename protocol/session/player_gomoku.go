package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/gomokurules"

	"encoding/json"
	"fmt"
	"sync"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

func init() {
	newVariantPlayer[engine.VariantGomoku] = newGomokuPlayer
}

// gomokuPlayer is the local side of a gomoku game. Its secrets are the
// openings of its commitments; its view is rebuilt from the machine's log
// of public steps and those openings, so that a resumed game needs nothing
// else.
type gomokuPlayer struct {
	mu   sync.Mutex
	game protocol.GameID
	opts engine.Options
	me   protocol.Role
	// pieces are the openings of this player's commitments, by turn.
	pieces map[int]commit.Opening
	// view is this player's engine view after the first synced steps of
	// the machine's log.
	view   gomoku.View
	synced int
	// broken is set when the view refused a step the machine accepted.
	broken error
}

func newGomokuPlayer(game protocol.GameID, o engine.Options, me protocol.Role) variantPlayer {
	p := &gomokuPlayer{game: game, opts: o, me: me, pieces: map[int]commit.Opening{}}
	p.reset()
	return p
}

// reset starts the view again from the beginning of the game.
func (p *gomokuPlayer) reset() {
	seat := gomoku.Inviter
	if p.me == protocol.Invitee {
		seat = gomoku.Invitee
	}
	v, err := gomoku.NewView(p.opts, seat)
	p.view, p.synced, p.broken = v, 0, err
}

// gomokuRulesOf returns the machine's gomoku rules, or nil.
func gomokuRulesOf(m *protocol.Machine) *gomokurules.Rules {
	g, _ := m.Rules.(*gomokurules.Rules)
	return g
}

// sync brings the view up to the machine's log.
func (p *gomokuPlayer) sync(m *protocol.Machine) {
	g := gomokuRulesOf(m)
	if g == nil {
		return
	}
	for p.broken == nil && p.synced < len(g.Log) {
		e := g.Log[p.synced]
		next, err := p.step(e.From, e.Event)
		if err != nil {
			p.broken = fmt.Errorf("protocol: gomoku view refuses step %d (%s by the %s): %w", p.synced, e.Event.Kind, e.From, err)
			return
		}
		p.view = next
		p.synced++
	}
}

// step applies one public step to the view: the opponent's through
// Observe, this player's own through the action that made it.
func (p *gomokuPlayer) step(from protocol.Role, e gomoku.Event) (gomoku.View, error) {
	v := p.view
	if from != p.me {
		return v.Observe(e)
	}
	var next gomoku.View
	var err error
	switch e.Kind {
	case gomoku.EventOpening:
		next, _, err = v.PlaceOpening(e.Point)
	case gomoku.EventSide:
		next, _, err = v.ChooseSide(e.Side)
	case gomoku.EventCommit:
		var pt engine.Point
		if pt, err = p.piece(v.MoveNumber()); err == nil {
			next, _, err = v.Commit(pt)
		}
	case gomoku.EventPass:
		next, _, err = v.Pass()
	case gomoku.EventNoLegalPoint:
		next, _, err = v.DeclareNoLegalPoint()
	case gomoku.EventAnnounce:
		next, _, err = v.Announce(e.Line.Kind)
	case gomoku.EventResponse:
		points := make([]engine.Point, len(e.Openings))
		for i, o := range e.Openings {
			points[i] = o.Point
		}
		next, _, err = v.Respond(points)
	case gomoku.EventReveal:
		next, _, err = v.Reveal()
	case gomoku.EventDeclare:
		next, _, err = v.Declare(e.Declaration)
	default:
		err = fmt.Errorf("unknown step %v", e.Kind)
	}
	return next, err
}

// piece returns the point this player committed to in turn move.
func (p *gomokuPlayer) piece(move int) (engine.Point, error) {
	o, ok := p.pieces[move]
	if !ok {
		return engine.NoPoint, fmt.Errorf("protocol: the opening of move %d is lost", move)
	}
	return engine.ParseVertex(p.view.Size(), string(o.Value))
}

// openings returns the openings of this player's pieces named in os.
func (p *gomokuPlayer) openings(os []gomoku.Opening) ([]gomokurules.PieceOpening, error) {
	out := make([]gomokurules.PieceOpening, 0, len(os))
	for _, o := range os {
		op, ok := p.pieces[o.Move]
		if !ok {
			return nil, fmt.Errorf("protocol: the opening of move %d is lost", o.Move)
		}
		out = append(out, gomokurules.PieceOpening{Move: o.Move, Opening: op})
	}
	return out, nil
}

func (p *gomokuPlayer) message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sync(m)
	if p.broken != nil {
		return "", nil, p.broken
	}
	v := p.view
	size := v.Size()
	var kind protocol.Kind
	var body any
	var e gomoku.Event
	var err error
	if pl, ok := a.(protocol.Play); ok {
		switch {
		case pl.Point == engine.Pass: // stays Play: a pass (GM-7)
		case v.Phase() == gomoku.PhaseOpening:
			a = gomokurules.Opening(pl)
		default:
			a = gomokurules.Place(pl)
		}
	}
	switch a := a.(type) {
	case gomokurules.Opening:
		if _, e, err = v.PlaceOpening(a.Point); err == nil {
			kind, body = gomokurules.KindOpening, gomokurules.PointBody{Point: a.Point.Vertex(size)}
		}
	case gomokurules.ChooseSide:
		if _, e, err = v.ChooseSide(a.Side); err == nil {
			kind, body = gomokurules.KindSide, gomokurules.SideBody{Side: gomoku.PieceName(a.Side)}
		}
	case protocol.Play: // a pass, above
		if _, e, err = v.Pass(); err == nil {
			kind, body = gomokurules.KindPass, gomokurules.PassBody{}
		}
	case gomokurules.Place:
		if _, e, err = v.Commit(a.Point); err == nil {
			move := v.MoveNumber()
			var c commit.Commitment
			var o commit.Opening
			c, o, err = commit.New(gomokurules.PieceDomain, p.game[:], uint8(p.me), uint32(move), []byte(a.Point.Vertex(size)))
			if err == nil {
				p.pieces[move] = o
				kind, body = gomokurules.KindCommit, protocol.CommitBody{Commitment: c}
			}
		}
	case gomokurules.Announce:
		lk := gomoku.Row
		if a.Column {
			lk = gomoku.Column
		}
		if _, e, err = v.Announce(lk); err == nil {
			kind, body = gomokurules.KindAnnounce, lineBody(e.Line)
		}
	case gomokurules.Respond:
		if _, e, err = v.Respond(a.Reveal); err == nil {
			var os []gomokurules.PieceOpening
			if os, err = p.openings(e.Openings); err == nil {
				kind, body = gomokurules.KindResponse, gomokurules.OpeningsBody{Openings: os}
			}
		}
	default:
		return "", nil, fmt.Errorf("%w: %T in gomoku", protocol.ErrNotNow, a)
	}
	if err != nil {
		return "", nil, err
	}
	return kind, body, nil
}

// lineBody writes an announced line.
func lineBody(l gomoku.Line) gomokurules.LineBody {
	name := "row"
	if l.Kind == gomoku.Column {
		name = "column"
	}
	return gomokurules.LineBody{Line: name, Index: l.Index}
}

func (p *gomokuPlayer) auto(m *protocol.Machine, me protocol.Role) (protocol.Kind, any, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sync(m)
	g := gomokuRulesOf(m)
	if g == nil {
		return "", nil, false, nil
	}
	from, _, done := g.Expected()
	if done || from != p.me {
		return "", nil, false, nil
	}
	if p.broken != nil {
		return "", nil, false, p.broken
	}
	v := p.view
	var kind protocol.Kind
	var body any
	var e gomoku.Event
	var err error
	phase := g.Phase
	if g.Resigned {
		// GM-D23: after a resignation only the openings remain.
		phase = gomoku.PhaseOver
	}
	switch phase {
	case gomoku.PhaseCommit:
		if v.Phase() != gomoku.PhaseCommit || len(v.LegalPoints()) > 0 {
			return "", nil, false, nil
		}
		if _, e, err = v.DeclareNoLegalPoint(); err == nil {
			kind, body = gomokurules.KindNoLegalPoint, struct{}{}
		}
	case gomoku.PhaseReveal:
		o, ok := p.pieces[g.Move]
		if !ok {
			return "", nil, false, fmt.Errorf("protocol: the opening of move %d is lost", g.Move)
		}
		if _, e, err = v.Reveal(); err == nil {
			kind, body = gomokurules.KindReveal, protocol.OpenBody{Opening: o}
		}
	case gomoku.PhaseDeclare:
		d := gomoku.Declaration{Five: v.FiveDue()}
		if lines, ok := v.WinningLines(); ok {
			d.Claim, d.Lines = true, lines
		}
		if _, e, err = v.Declare(d); err == nil {
			b := gomokurules.DeclareBody{Five: d.Five, Claim: d.Claim}
			if d.Claim {
				b.Lines = []gomokurules.FiveBody{gomokurules.BodyOfFive(v.Size(), d.Lines[0]), gomokurules.BodyOfFive(v.Size(), d.Lines[1])}
				b.Openings, err = p.openings(e.Openings)
			}
			kind, body = gomokurules.KindDeclare, b
		}
	case gomoku.PhaseOver:
		var os []gomoku.Opening
		for _, k := range g.Closed(p.me) {
			os = append(os, gomoku.Opening{Move: k})
		}
		if g.Resigned && g.CurPending(p.me) {
			os = append(os, gomoku.Opening{Move: g.Move})
		}
		b := gomokurules.OpeningsBody{}
		if b.Openings, err = p.openings(os); err == nil {
			kind, body = gomokurules.KindOpenAll, b
		}
	default:
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, err
	}
	return kind, body, true, nil
}

// gomokuSecrets is what a gomoku player saves to resume: the openings of
// its commitments.
type gomokuSecrets struct {
	Pieces map[int]commit.Opening `json:"pieces"`
}

func (p *gomokuPlayer) secrets() (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, err := json.Marshal(gomokuSecrets{Pieces: p.pieces})
	if err != nil {
		return nil, fmt.Errorf("protocol: encode gomoku secrets: %w", err)
	}
	return b, nil
}

func (p *gomokuPlayer) restore(raw json.RawMessage) error {
	var s gomokuSecrets
	if err := protocol.UnmarshalStrict(raw, &s); err != nil {
		return fmt.Errorf("protocol: gomoku secrets: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pieces = s.Pieces
	if p.pieces == nil {
		p.pieces = map[int]commit.Opening{}
	}
	p.reset()
	return nil
}

// PrivateView puts this player's own view into the public one.
func (p *gomokuPlayer) PrivateView(m *protocol.Machine, me protocol.Role, public protocol.VariantView) protocol.VariantView {
	gv, ok := public.(gomokurules.View)
	if !ok {
		return public
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sync(m)
	gv.Game = p.view
	return gv
}
