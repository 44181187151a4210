package referee

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// ErrRecord reports a record the audit cannot read as a game: tries after
// the end of play, a try cut short before the last, a try begun before
// the setup was done. A signed record like that is a bug of the session
// layer, not a party's deviation.
var ErrRecord = errors.New("referee: inconsistent record")

// ErrT9 reports that the secure computation, honestly replayed, told a
// player something else than the plaintext referee: a bug of the
// circuit, never a party's fault.
var ErrT9 = errors.New("referee: the secure referee differs from the plaintext referee (T-9)")

// Record is what a signed game record keeps of the secure computation:
// the seed commitments, the digests of every message, in order, and the
// event bits in the clear.
type Record struct {
	Config Config
	// SeedCommitments[P] is party P's commitment to its seed.
	SeedCommitments [2]commit.Commitment
	// BaseSent counts the setup messages sent (0, 1 or 2); Base[0] is the
	// digest of the evaluator's BaseStart, Base[1] of the garbler's
	// answer.
	BaseSent int
	Base     [2]Digest
	// ReverseSent counts the setup messages of the reverse extension of
	// a game of the correlated input OTs (MPC-D28, 0 otherwise), sent
	// before, with or after the base OTs: Reverse[0] is the digest of the
	// garbler's [Garbler.ReverseStart], Reverse[1] of the evaluator's
	// answer.
	ReverseSent int
	Reverse     [2]Digest
	// Tries are the tries in order; only the last may be incomplete.
	Tries []TryRecord
}

// Reveal is what a party reveals at the end of the game for the audit.
type Reveal struct {
	// Seed opens the party's seed commitment.
	Seed commit.Opening
	// Tries are its player's tries in order, each a point or engine.Pass:
	// every try whose input the party sent (the request of the evaluator,
	// the garbling of the garbler).
	Tries []engine.Point
}

// Fault is the audit's finding that a party deviated from the protocol
// (T-8): the first message that differs from what its seed, its revealed
// tries and the messages before it determine.
type Fault struct {
	// Party is the party at fault.
	Party circuit.Party
	// Try is the try of the message, -1 for the seed and the setup.
	Try int
	// Rule is the rule broken: "T-8".
	Rule string
	// Message names the message: "seed", "base OT", "reverse base OT",
	// "reverse OT request", "OT request",
	// "garbled tables", "garbler's input labels", "OT reply",
	// "output labels", "event bits" or "tries".
	Message string
	// Detail says what differed.
	Detail string
}

// Error writes the fault in one line.
func (f *Fault) Error() string {
	at := "before the first try"
	if f.Try >= 0 {
		at = fmt.Sprintf("try %d", f.Try)
	}
	return fmt.Sprintf("%s: the %v cheated, %s, %s: %s", f.Rule, f.Party, at, f.Message, f.Detail)
}

// Replay is an audited game: the plaintext referee after the last
// complete try, and what each try gave.
type Replay struct {
	// Referee is the plaintext referee after the last complete try: the
	// whole board, for scoring (PG-9).
	Referee phantom.Referee
	// Outcomes are the referee's outcomes of the complete tries, in order.
	Outcomes []phantom.TryOutcome
	// Announcements[t][P] is what party P's player was told of try t.
	Announcements [][2]phantom.Announcement
	// Public is the public state after the last complete try.
	Public Public
}

// Audit checks a finished (or interrupted) game (T-8): it verifies the
// revealed seeds against their commitments, replays both parties honestly
// from those seeds and the revealed tries, and compares, message by
// message in protocol order, the digest of what each party should have
// sent with the digest in the record. The first difference is a *Fault
// naming the party that sent it: before it, both parties' messages were
// the honest ones, so that party's message was determined by its own seed,
// its own tries and what it had received. Along the way it replays the
// plaintext referee (phantom.Referee) and checks that both players
// were told exactly what the referee says (T-9).
//
// It returns the replay and nil when both parties were honest, a *Fault
// when one was not, or an error wrapping ErrRecord or ErrT9.
func Audit(rec Record, rev [2]Reveal) (*Replay, error) {
	cfg := rec.Config
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var seeds [2]prg.Seed
	for _, p := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
		s, err := cfg.CheckSeed(p, rec.SeedCommitments[p], rev[p].Seed)
		if err != nil {
			return nil, &Fault{Party: p, Try: -1, Rule: "T-8", Message: "seed", Detail: err.Error()}
		}
		seeds[p] = s
	}
	g, err := NewGarbler(cfg, seeds[circuit.Garbler])
	if err != nil {
		return nil, err
	}
	e, err := NewEvaluator(cfg, seeds[circuit.Evaluator])
	if err != nil {
		return nil, err
	}
	// The replayed evaluator does not garble the opened garblings of a
	// checked try again (MPC-D22): the replayed garbler made every one of
	// the λ from its seed, and their commitment is compared with the
	// record's, which catches a garbler that changed any of them, opened
	// or not, whether or not its evaluator checked it during play.
	e.unchecked = true
	ref, err := phantom.NewReferee(engine.Options{Variant: engine.VariantPhantom, Size: cfg.Size, Rules: cfg.Rules, Komi: cfg.Komi, KomiSet: true})
	if err != nil {
		return nil, err
	}
	fault := func(p circuit.Party, try int, msg, format string, args ...any) error {
		return &Fault{Party: p, Try: try, Rule: "T-8", Message: msg, Detail: fmt.Sprintf(format, args...)}
	}

	// Setup. The reverse extension's setup (MPC-D28) may come before,
	// with or after the base OTs: a session sends the garbler's
	// ReverseStart with its seed commitment and the evaluator's answer
	// with its BaseStart, or both after the base OTs. Each setup message
	// is a function of its sender's seed and of the message it answers
	// alone, so the replay is the same in either order; it checks them
	// in the order of the first (R0, B0, R1, B1), each one's input being
	// checked before it.
	if rec.BaseSent < 0 || rec.BaseSent > 2 || (rec.BaseSent < 2 && len(rec.Tries) > 0) {
		return nil, fmt.Errorf("%w: %d setup messages and %d tries", ErrRecord, rec.BaseSent, len(rec.Tries))
	}
	if rec.ReverseSent < 0 || rec.ReverseSent > 2 || rec.ReverseSent > 0 && !cfg.correlated() ||
		cfg.correlated() && rec.ReverseSent < 2 && len(rec.Tries) > 0 {
		return nil, fmt.Errorf("%w: %d reverse setup messages, %d setup messages and %d tries", ErrRecord, rec.ReverseSent, rec.BaseSent, len(rec.Tries))
	}
	var r1, m1 []byte
	if rec.ReverseSent >= 1 {
		if r1, err = g.ReverseStart(); err != nil {
			return nil, err
		}
		if Sum(r1) != rec.Reverse[0] {
			return nil, fault(circuit.Garbler, -1, "reverse base OT", "its reverse base OT message is not the one its seed gives")
		}
	}
	if rec.BaseSent >= 1 {
		if m1, err = e.BaseStart(); err != nil {
			return nil, err
		}
		if Sum(m1) != rec.Base[0] {
			return nil, fault(circuit.Evaluator, -1, "base OT", "its base OT message is not the one its seed gives")
		}
	}
	if rec.ReverseSent == 2 {
		r2, err := e.ReverseRespond(r1)
		if err != nil {
			return nil, err
		}
		if Sum(r2) != rec.Reverse[1] {
			return nil, fault(circuit.Evaluator, -1, "reverse base OT", "its reverse base OT answer is not the one its seed gives")
		}
		if err := g.ReverseFinish(r2); err != nil {
			return nil, err
		}
	}
	if rec.BaseSent == 2 {
		m2, err := g.BaseRespond(m1)
		if err != nil {
			return nil, err
		}
		if Sum(m2) != rec.Base[1] {
			return nil, fault(circuit.Garbler, -1, "base OT", "its base OT answer is not the one its seed gives")
		}
		if err := e.BaseFinish(m2); err != nil {
			return nil, err
		}
	}

	// Tries.
	rp := &Replay{Public: NewPublic()}
	var next [2]int // next revealed try of each party
	tryOf := func(p circuit.Party, t int) (engine.Point, error) {
		if next[p] >= len(rev[p].Tries) {
			return 0, fault(p, t, "tries", "revealed %d tries, the record has more", len(rev[p].Tries))
		}
		pt := rev[p].Tries[next[p]]
		if pt != engine.Pass && (pt < 0 || int(pt) >= cfg.Size*cfg.Size) {
			return 0, fault(p, t, "tries", "revealed try %d is not a point of the board", pt)
		}
		next[p]++
		return pt, nil
	}
	for t, tr := range rec.Tries {
		full, least := cfg.Messages(), 1
		if cfg.correlated() {
			// The reverse request comes first (MPC-D28).
			least = 0
			if !tr.reversed() {
				return nil, fmt.Errorf("%w: try %d has no reverse request", ErrRecord, t)
			}
		}
		if tr.Sent < least || tr.Sent > full || (tr.Sent < full && t != len(rec.Tries)-1) {
			return nil, fmt.Errorf("%w: try %d has %d of its %d messages", ErrRecord, t, tr.Sent, full)
		}
		// step is the number of the garbling message in the try, the
		// outputs follow it.
		step := 2
		if rp.Public.Ended() {
			return nil, fmt.Errorf("%w: try %d after two passes", ErrRecord, t)
		}
		if cfg.correlated() {
			rev, err := g.ReverseRequest()
			if err != nil {
				return nil, err
			}
			if Sum(rev) != tr.Reverse {
				return nil, fault(circuit.Garbler, t, "reverse OT request", "not what its seed gives (its reverse choices are the bits of the try's Δ_i)")
			}
			if err := e.TakeReverse(rev); err != nil {
				return nil, fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
			}
			if tr.Sent < 1 {
				break
			}
		}
		mover := rp.Public.ToMove
		moverParty := cfg.PartyOf(mover)
		var tryE, tryG engine.Point = engine.NoPoint, engine.NoPoint
		var try engine.Point
		if moverParty == circuit.Evaluator {
			if tryE, err = tryOf(circuit.Evaluator, t); err != nil {
				return nil, err
			}
			try = tryE
		}
		req, err := e.Request(tryE)
		if err != nil {
			return nil, err
		}
		if Sum(req) != tr.Request {
			return nil, fault(circuit.Evaluator, t, "OT request", "not what its seed, its share and its try give")
		}
		if tr.Sent < 2 {
			break
		}
		var choice []byte
		if cfg.Checked() {
			step = 4
			cm, err := g.Commit(req)
			if err != nil {
				return nil, err
			}
			if d := cm.Digests(); d != [2]Digest{tr.Commitment, tr.CommitReply} {
				return nil, fault(circuit.Garbler, t, "commitment", "not what its seed gives")
			}
			if tr.Sent < 3 {
				break
			}
			if choice, err = e.Open(cm); err != nil {
				return nil, fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
			}
			if Sum(choice) != tr.Choice {
				return nil, fault(circuit.Evaluator, t, "choice", "not what its seed gives")
			}
			if tr.Sent < 4 {
				break
			}
		}
		if moverParty == circuit.Garbler {
			if tryG, err = tryOf(circuit.Garbler, t); err != nil {
				return nil, err
			}
			try = tryG
		}
		var gb Garbling
		if cfg.Checked() {
			gb, err = g.GarbleChosen(choice, tryG)
		} else {
			gb, err = g.Garble(req, tryG)
		}
		if err != nil {
			return nil, err
		}
		d := gb.Digests()
		for i, what := range []string{"garbled tables", "garbler's input labels", "OT reply"} {
			if d[i] != [3]Digest{tr.Tables, tr.Labels, tr.Reply}[i] {
				return nil, fault(circuit.Garbler, t, what, "not what its seed, its share and its try give")
			}
		}
		if tr.Sent <= step {
			break
		}
		o, annE, err := e.Evaluate(gb)
		if err != nil {
			return nil, fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
		}
		if Sum(o.Labels) != tr.Outputs {
			return nil, fault(circuit.Evaluator, t, "output labels", "not the labels of the outputs of the garbled referee")
		}
		if o.Pass != tr.Pass || o.Legal != tr.Legal {
			return nil, fault(circuit.Evaluator, t, "event bits", "pass=%v legal=%v, the referee says pass=%v legal=%v", tr.Pass, tr.Legal, o.Pass, o.Legal)
		}
		annG, err := g.Finish(o)
		if err != nil {
			return nil, fmt.Errorf("%w: try %d: the honest garbler fails: %v", ErrT9, t, err)
		}
		nextRef, out, err := ref.Try(mover, try)
		if err != nil {
			return nil, fmt.Errorf("%w: try %d: the plaintext referee refuses %s: %v", ErrT9, t, try.Vertex(cfg.Size), err)
		}
		var ann [2]phantom.Announcement
		ann[circuit.Garbler], ann[circuit.Evaluator] = annG, annE
		for _, p := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
			want := phantom.Announce(cfg.Rules, cfg.Size, out, cfg.ColorOf(p))
			if !reflect.DeepEqual(ann[p], want) {
				return nil, fmt.Errorf("%w: try %d: the %v's player was told %q, the referee says %q", ErrT9, t, p, ann[p].KeyValues(), want.KeyValues())
			}
		}
		ref = nextRef
		rp.Outcomes = append(rp.Outcomes, out)
		rp.Announcements = append(rp.Announcements, ann)
		rp.Public = g.Public()
	}
	for _, p := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
		if next[p] != len(rev[p].Tries) {
			return nil, fault(p, len(rec.Tries), "tries", "revealed %d tries, it played %d", len(rev[p].Tries), next[p])
		}
	}
	rp.Referee = ref
	return rp, nil
}
