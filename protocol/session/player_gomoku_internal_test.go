package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/gomokurules"

	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
)

// gomokuLocal plays a gomoku game between two local players through one
// machine, without network or signatures: both peers' machines see the
// same messages, so one stands for both.
type gomokuLocal struct {
	t       *testing.T
	m       *protocol.Machine
	players [2]*gomokuPlayer
	seq     [2]uint64
	rnd     *rand.Rand
}

func newGomokuLocal(t *testing.T, size int, seed uint64) *gomokuLocal {
	t.Helper()
	id, err := protocol.NewGameID()
	if err != nil {
		t.Fatal(err)
	}
	l := &gomokuLocal{t: t, m: protocol.NewMachine(id), rnd: rand.New(rand.NewPCG(seed, 7))}
	o, err := engine.Options{Variant: engine.VariantGomoku, Size: size}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	l.send(protocol.Inviter, protocol.KindInvite, protocol.InviteBody{Version: protocol.Version, Options: protocol.OptionsToBody(o)})
	l.send(protocol.Invitee, protocol.KindAccept, struct{}{})
	var opens [2]commit.Opening
	for r := range 2 {
		c, op, err := commit.New(protocol.TossDomain, id[:], uint8(r), 0, make([]byte, 32))
		if err != nil {
			t.Fatal(err)
		}
		opens[r] = op
		l.send(protocol.Role(r), protocol.KindTossCommit, protocol.CommitBody{Commitment: c})
	}
	for r := range 2 {
		l.send(protocol.Role(r), protocol.KindTossReveal, protocol.OpenBody{Opening: opens[r]})
	}
	for r := range 2 {
		l.players[r] = newGomokuPlayer(id, l.m.Options, protocol.Role(r)).(*gomokuPlayer)
	}
	return l
}

// send applies a message of role r and fails the test if it is refused.
func (l *gomokuLocal) send(r protocol.Role, kind protocol.Kind, body any) []protocol.Event {
	l.t.Helper()
	events, err := l.apply(r, kind, body)
	if err != nil {
		l.t.Fatalf("%s %s refused: %v", r, kind, err)
	}
	return events
}

func (l *gomokuLocal) apply(r protocol.Role, kind protocol.Kind, body any) ([]protocol.Event, error) {
	raw, err := protocol.EncodeBody(body)
	if err != nil {
		return nil, err
	}
	msg := protocol.Message{Game: l.m.Game, From: r, Seq: l.seq[r], Kind: kind, Body: raw}
	events, err := l.m.Apply(&msg)
	if err == nil {
		l.seq[r]++
	}
	return events, err
}

// choose is the random player of bot.Random, on the local view.
func (l *gomokuLocal) choose(v gomoku.View) protocol.Action {
	switch v.Phase() {
	case gomoku.PhaseOpening:
		return gomokurules.Opening{Point: engine.Point(l.rnd.IntN(v.Size() * v.Size()))}
	case gomoku.PhaseChooseSide:
		return gomokurules.ChooseSide{Side: engine.Color(1 + l.rnd.IntN(2))}
	case gomoku.PhaseCommit:
		legal := v.LegalPoints()
		if l.rnd.IntN(40) == 0 {
			return protocol.Play{Point: engine.Pass}
		}
		return protocol.Play{Point: legal[l.rnd.IntN(len(legal))]}
	case gomoku.PhaseAnnounce:
		return gomokurules.Announce{Column: l.rnd.IntN(2) == 0}
	case gomoku.PhaseRespond:
		var reveal []engine.Point
		for _, p := range v.HiddenInLine(v.Announced()) {
			if l.rnd.IntN(3) == 0 {
				reveal = append(reveal, p)
			}
		}
		return gomokurules.Respond{Reveal: reveal}
	}
	l.t.Fatalf("the player must act in phase %s", v.Phase())
	return nil
}

// play plays the game to its confirmation and returns the outcome.
func (l *gomokuLocal) play() protocol.Outcome {
	l.t.Helper()
	for steps := 0; l.m.Phase == protocol.PhasePlay; steps++ {
		if steps > 20000 {
			l.t.Fatal("the game does not end")
		}
		from, _ := l.m.Expected()
		p := l.players[from]
		kind, body, ok, err := p.auto(l.m, from)
		if err != nil {
			l.t.Fatalf("auto: %v", err)
		}
		if !ok {
			p.mu.Lock()
			p.sync(l.m)
			v := p.view
			p.mu.Unlock()
			if !v.MyTurn() {
				l.t.Fatalf("the machine expects the %s, whose view in phase %s says it is not its turn", from, v.Phase())
			}
			kind, body, err = p.message(l.m, from, l.choose(v))
			if err != nil {
				l.t.Fatalf("message: %v", err)
			}
		}
		l.send(from, kind, body)
		if l.rnd.IntN(60) == 0 {
			l.checkRestore(from)
		}
	}
	for _, p := range l.players {
		p.sync(l.m)
		if p.broken != nil {
			l.t.Fatalf("a view broke: %v", p.broken)
		}
	}
	return *l.m.Outcome
}

// checkRestore checks that a player rebuilt from its saved secrets has the
// same view (T-3: a resumed game loses nothing).
func (l *gomokuLocal) checkRestore(r protocol.Role) {
	l.t.Helper()
	p := l.players[r]
	raw, err := p.secrets()
	if err != nil {
		l.t.Fatal(err)
	}
	if !json.Valid(raw) {
		l.t.Fatalf("secrets %s are not JSON", raw)
	}
	q := newGomokuPlayer(l.m.Game, l.m.Options, r).(*gomokuPlayer)
	if err := q.restore(raw); err != nil {
		l.t.Fatal(err)
	}
	p.sync(l.m)
	q.sync(l.m)
	if q.broken != nil || !reflect.DeepEqual(p.view, q.view) {
		l.t.Fatalf("restored view differs (broken: %v)", q.broken)
	}
}

// TestGM8LocalRandomGames plays many random games through the machine and
// the two players' own views: the machine accepts every honest message,
// no view refuses a step the machine accepted, the audit passes, each
// player's view with the opponent's final openings gives the machine's
// record, and the result is the engine's replay of that record.
func TestGM8LocalRandomGames(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 8
	}
	results := map[engine.ResultReason]int{}
	for seed := range uint64(n) {
		size := []int{7, 9, 9, 11}[seed%4]
		l := newGomokuLocal(t, size, seed)
		var opened [2][]gomoku.Opening
		out := l.play()
		if out.Violation != nil {
			t.Fatalf("seed %d: honest game has a violation: %v", seed, out.Violation)
		}
		g := gomokuRulesOf(l.m)
		if g.Record == nil {
			t.Fatalf("seed %d: no audited record", seed)
		}
		for r := range 2 {
			for _, k := range closedAtEnd(g, protocol.Role(r)) {
				opened[r] = append(opened[r], gomoku.Opening{Move: k, Point: g.Record.Turns[k-1].Point})
			}
		}
		for r, p := range l.players {
			rec, err := p.view.Record(opened[1-r])
			if err != nil {
				t.Fatalf("seed %d: %s's record: %v", seed, protocol.Role(r), err)
			}
			if !reflect.DeepEqual(rec, *g.Record) {
				t.Fatalf("seed %d: %s's record differs from the machine's", seed, protocol.Role(r))
			}
			if p.view.Result() != out.Result {
				t.Fatalf("seed %d: %s's view says %v, the machine %v", seed, protocol.Role(r), p.view.Result(), out.Result)
			}
		}
		final, err := gomoku.Replay(*g.Record)
		if err != nil || final.Result() != out.Result {
			t.Fatalf("seed %d: replay gives %v (%v), the machine %v", seed, final.Result(), err, out.Result)
		}
		results[out.Result.By]++
	}
	t.Logf("results: %v", results)
	if results[engine.ByWin] == 0 {
		t.Errorf("no random game was won: %v", results)
	}
}

// closedAtEnd returns the turns of role r that the final openings opened:
// hidden placements never revealed during play.
func closedAtEnd(g *gomokurules.Rules, r protocol.Role) []int {
	var ks []int
	opened := map[int]bool{}
	for _, e := range g.Log {
		for _, o := range e.Event.Openings {
			opened[o.Move] = true
		}
	}
	for i, t := range g.Turns {
		if t.Mover == r && t.Outcome == gomoku.PlacedHidden && !opened[i+1] {
			ks = append(ks, i+1)
		}
	}
	return ks
}

// TestCLKD15GomokuPassCarriesItsStamp (CLK-D15, CLK-D8): the gomoku
// player gives a pass its variant's own body (gomokurules.PassBody), so
// that under a clock the pass carries its think time and settlement; an
// empty body would carry neither.
func TestCLKD15GomokuPassCarriesItsStamp(t *testing.T) {
	l := newGomokuLocal(t, 7, 3)
	for steps := 0; ; steps++ {
		if steps > 200 || l.m.Phase != protocol.PhasePlay {
			t.Fatal("no turn to commit a piece came")
		}
		from, _ := l.m.Expected()
		p := l.players[from]
		kind, body, ok, err := p.auto(l.m, from)
		if err != nil {
			t.Fatalf("auto: %v", err)
		}
		if !ok {
			p.mu.Lock()
			p.sync(l.m)
			v := p.view
			p.mu.Unlock()
			if v.Phase() == gomoku.PhaseCommit {
				kind, body, err = p.message(l.m, from, protocol.Play{Point: engine.Pass})
				if err != nil {
					t.Fatalf("a pass: %v", err)
				}
				raw, err := json.Marshal(protocol.WithStamp(kind, body, 7, 9))
				if err != nil {
					t.Fatal(err)
				}
				if kind != gomokurules.KindPass || string(raw) != `{"think_ms":7,"charge_ms":9}` {
					t.Fatalf("a pass is %s %s stamped, want %s with its think time and settlement", kind, raw, gomokurules.KindPass)
				}
				return
			}
			kind, body, err = p.message(l.m, from, l.choose(v))
			if err != nil {
				t.Fatalf("message: %v", err)
			}
		}
		l.send(from, kind, body)
	}
}
