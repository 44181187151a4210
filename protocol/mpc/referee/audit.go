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
	// "reverse OT request", "OT request", "flips",
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
	a, err := newAudit(rec, rev)
	if err != nil {
		return nil, err
	}
	if err := a.checkSetupCounts(); err != nil {
		return nil, err
	}
	if err := a.replaySetup(); err != nil {
		return nil, err
	}
	a.rp = &Replay{Public: NewPublic()}
	for t, tr := range rec.Tries {
		complete, err := a.replayTry(t, tr)
		if err != nil {
			return nil, err
		}
		if !complete {
			break
		}
	}
	if err := a.checkEveryTryPlayed(); err != nil {
		return nil, err
	}
	a.rp.Referee = a.ref
	return a.rp, nil
}

// audit is Audit under way: the record and the reveals it checks, the
// honest parties and the plaintext referee it replays, and the replay so
// far.
type audit struct {
	cfg Config
	rec Record
	rev [2]Reveal
	g   *Garbler
	e   *Evaluator
	ref phantom.Referee
	rp  *Replay
	// next is the next revealed try of each party.
	next [2]int
}

// auditFault returns the *Fault of party p at try (-1 for the seed and
// the setup) in message msg.
func auditFault(p circuit.Party, try int, msg, format string, args ...any) error {
	return &Fault{Party: p, Try: try, Rule: "T-8", Message: msg, Detail: fmt.Sprintf(format, args...)}
}

// newAudit checks the configuration and each party's revealed seed
// against its commitment (a wrong one is that party's fault), and makes
// the honest garbler and evaluator of those seeds and the plaintext
// referee of the game.
func newAudit(rec Record, rev [2]Reveal) (*audit, error) {
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
	return &audit{cfg: cfg, rec: rec, rev: rev, g: g, e: e, ref: ref}, nil
}

// checkSetupCounts checks the record's counts of setup messages: at most
// two of the base OTs and two of the reverse extension (none unless the
// game has the correlated input OTs), all of both before a try.
func (a *audit) checkSetupCounts() error {
	cfg, rec := a.cfg, a.rec
	if rec.BaseSent < 0 || rec.BaseSent > 2 || (rec.BaseSent < 2 && len(rec.Tries) > 0) {
		return fmt.Errorf("%w: %d setup messages and %d tries", ErrRecord, rec.BaseSent, len(rec.Tries))
	}
	if rec.ReverseSent < 0 || rec.ReverseSent > 2 || rec.ReverseSent > 0 && !cfg.correlated() ||
		cfg.correlated() && rec.ReverseSent < 2 && len(rec.Tries) > 0 {
		return fmt.Errorf("%w: %d reverse setup messages, %d setup messages and %d tries", ErrRecord, rec.ReverseSent, rec.BaseSent, len(rec.Tries))
	}
	return nil
}

// replaySetup replays the setup messages the record holds and compares
// each with the record's digest.
//
// The reverse extension's setup (MPC-D28) may come before, with or after
// the base OTs: a session sends the garbler's ReverseStart with its seed
// commitment and the evaluator's answer with its BaseStart, or both
// after the base OTs. Each setup message is a function of its sender's
// seed and of the message it answers alone, so the replay is the same in
// either order; it checks them in the order of the first (R0, B0, R1,
// B1), each one's input being checked before it.
func (a *audit) replaySetup() error {
	rec, g, e := a.rec, a.g, a.e
	var r1, m1 []byte
	var err error
	if rec.ReverseSent >= 1 {
		if r1, err = g.ReverseStart(); err != nil {
			return err
		}
		if Sum(r1) != rec.Reverse[0] {
			return auditFault(circuit.Garbler, -1, "reverse base OT", "its reverse base OT message is not the one its seed gives")
		}
	}
	if rec.BaseSent >= 1 {
		if m1, err = e.BaseStart(); err != nil {
			return err
		}
		if Sum(m1) != rec.Base[0] {
			return auditFault(circuit.Evaluator, -1, "base OT", "its base OT message is not the one its seed gives")
		}
	}
	if rec.ReverseSent == 2 {
		r2, err := e.ReverseRespond(r1)
		if err != nil {
			return err
		}
		if Sum(r2) != rec.Reverse[1] {
			return auditFault(circuit.Evaluator, -1, "reverse base OT", "its reverse base OT answer is not the one its seed gives")
		}
		if err := g.ReverseFinish(r2); err != nil {
			return err
		}
	}
	if rec.BaseSent == 2 {
		m2, err := g.BaseRespond(m1)
		if err != nil {
			return err
		}
		if Sum(m2) != rec.Base[1] {
			return auditFault(circuit.Garbler, -1, "base OT", "its base OT answer is not the one its seed gives")
		}
		if err := e.BaseFinish(m2); err != nil {
			return err
		}
	}
	return nil
}

// replayTry replays try t, message by message in protocol order, as far
// as the record holds it: the reverse request (correlated input OTs),
// the evaluator's request, the commitment and the choice (checked
// tries), the garbling, and the outputs with the announcements. It
// reports whether the try is complete (only the last may not be).
func (a *audit) replayTry(t int, tr TryRecord) (complete bool, err error) {
	cfg := a.cfg
	if err := a.checkTryCounts(t, tr); err != nil {
		return false, err
	}
	if cfg.correlated() {
		if err := a.replayReverseRequest(t, tr); err != nil {
			return false, err
		}
		if tr.Sent < 1 {
			return false, nil
		}
	}
	mover := a.rp.Public.ToMove
	moverParty := cfg.PartyOf(mover)
	var tryE, tryG engine.Point = engine.NoPoint, engine.NoPoint
	var try engine.Point
	flipped := cfg.flipped(moverParty)
	if moverParty == circuit.Evaluator && !flipped {
		// (A try by flips is its player's from its flips on, MPC-D52:
		// its request goes before the player plays.)
		if tryE, err = a.revealedTry(circuit.Evaluator, t); err != nil {
			return false, err
		}
		try = tryE
	}
	req, err := a.replayRequest(t, tr, tryE)
	if err != nil {
		return false, err
	}
	if tr.Sent < 2 {
		return false, nil
	}
	// step is the number of the garbling message in the try, the
	// outputs follow it.
	step := 2
	var choice []byte
	if cfg.Checked() {
		step = 4
		cm, err := a.replayCommitment(t, tr, req)
		if err != nil {
			return false, err
		}
		if tr.Sent < 3 {
			return false, nil
		}
		if choice, err = a.replayChoice(t, tr, cm); err != nil {
			return false, err
		}
		if tr.Sent < 4 {
			return false, nil
		}
		if flipped {
			step = 5
			if tryE, err = a.revealedTry(circuit.Evaluator, t); err != nil {
				return false, err
			}
			try = tryE
			if err := a.replayFlips(t, tr, tryE); err != nil {
				return false, err
			}
			if tr.Sent < 5 {
				return false, nil
			}
		}
	}
	if moverParty == circuit.Garbler {
		if tryG, err = a.revealedTry(circuit.Garbler, t); err != nil {
			return false, err
		}
		try = tryG
	}
	gb, err := a.replayGarbling(t, tr, req, choice, tryG)
	if err != nil {
		return false, err
	}
	if tr.Sent <= step {
		return false, nil
	}
	if err := a.replayOutputs(t, tr, mover, try, gb); err != nil {
		return false, err
	}
	return true, nil
}

// checkTryCounts checks that the record can hold try t as it is: a
// reverse request first in a game of the correlated input OTs, at least
// one message and at most all of them (all of them unless it is the
// last try), and play not over.
func (a *audit) checkTryCounts(t int, tr TryRecord) error {
	cfg, rec := a.cfg, a.rec
	full, least := cfg.MessagesOf(cfg.PartyOf(a.rp.Public.ToMove)), 1
	if cfg.correlated() {
		// The reverse request comes first (MPC-D28).
		least = 0
		if !tr.reversed() {
			return fmt.Errorf("%w: try %d has no reverse request", ErrRecord, t)
		}
	}
	if tr.Sent < least || tr.Sent > full || (tr.Sent < full && t != len(rec.Tries)-1) {
		return fmt.Errorf("%w: try %d has %d of its %d messages", ErrRecord, t, tr.Sent, full)
	}
	if a.rp.Public.Ended() {
		return fmt.Errorf("%w: try %d after two passes", ErrRecord, t)
	}
	return nil
}

// revealedTry returns party p's next revealed try, for try t: a point
// of the board or a pass; a party that revealed fewer tries than the
// record has, or a try off the board, is at fault.
func (a *audit) revealedTry(p circuit.Party, t int) (engine.Point, error) {
	cfg, rev := a.cfg, a.rev
	if a.next[p] >= len(rev[p].Tries) {
		return 0, auditFault(p, t, "tries", "revealed %d tries, the record has more", len(rev[p].Tries))
	}
	pt := rev[p].Tries[a.next[p]]
	if pt != engine.Pass && (pt < 0 || int(pt) >= cfg.Size*cfg.Size) {
		return 0, auditFault(p, t, "tries", "revealed try %d is not a point of the board", pt)
	}
	a.next[p]++
	return pt, nil
}

// replayReverseRequest checks the garbler's reverse request of try t
// (MPC-D28) against the one its seed gives, and gives it to the
// evaluator.
func (a *audit) replayReverseRequest(t int, tr TryRecord) error {
	rev, err := a.g.ReverseRequest()
	if err != nil {
		return err
	}
	if Sum(rev) != tr.Reverse {
		return auditFault(circuit.Garbler, t, "reverse OT request", "not what its seed gives (its reverse choices are the bits of the try's Δ_i)")
	}
	if err := a.e.TakeReverse(rev); err != nil {
		return fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
	}
	return nil
}

// replayRequest checks the evaluator's OT request of try t against the
// one its seed, its share and its try tryE (NoPoint unless its player
// moves) give, and returns it.
func (a *audit) replayRequest(t int, tr TryRecord, tryE engine.Point) ([]byte, error) {
	req, err := a.e.Request(tryE)
	if err != nil {
		return nil, err
	}
	if Sum(req) != tr.Request {
		return nil, auditFault(circuit.Evaluator, t, "OT request", "not what its seed, its share and its try give")
	}
	return req, nil
}

// replayCommitment checks the garbler's commitment of checked try t,
// both parts, against the one its seed gives for request req, and
// returns it.
func (a *audit) replayCommitment(t int, tr TryRecord, req []byte) (Commitment, error) {
	cm, err := a.g.Commit(req)
	if err != nil {
		return Commitment{}, err
	}
	if d := cm.Digests(); d != [2]Digest{tr.Commitment, tr.CommitReply} {
		return Commitment{}, auditFault(circuit.Garbler, t, "commitment", "not what its seed gives")
	}
	return cm, nil
}

// replayChoice opens the commitment cm of checked try t as the honest
// evaluator and checks the evaluator's choice against the one its seed
// gives, and returns it.
func (a *audit) replayChoice(t int, tr TryRecord, cm Commitment) ([]byte, error) {
	choice, err := a.e.Open(cm)
	if err != nil {
		return nil, fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
	}
	if Sum(choice) != tr.Choice {
		return nil, auditFault(circuit.Evaluator, t, "choice", "not what its seed gives")
	}
	return choice, nil
}

// replayFlips checks the evaluator's flips of try t (MPC-D52) against
// those its seed and its revealed try tryE give, and gives them to the
// garbler.
func (a *audit) replayFlips(t int, tr TryRecord, tryE engine.Point) error {
	flips, err := a.e.Flips(tryE)
	if err != nil {
		return fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
	}
	if Sum(flips) != tr.Flips {
		return auditFault(circuit.Evaluator, t, "flips", "not its revealed try XOR the random bits its seed gives")
	}
	if err := a.g.TakeFlips(flips); err != nil {
		return fmt.Errorf("%w: try %d: the honest garbler fails: %v", ErrT9, t, err)
	}
	return nil
}

// replayGarbling checks the garbler's garbling of try t — its tables,
// its input labels and the OT reply — against the one its seed, its
// share and its try tryG (NoPoint unless its player moves) give for the
// request req, or the choice of a checked try, and returns it.
func (a *audit) replayGarbling(t int, tr TryRecord, req, choice []byte, tryG engine.Point) (Garbling, error) {
	var gb Garbling
	var err error
	if a.cfg.Checked() {
		gb, err = a.g.GarbleChosen(choice, tryG)
	} else {
		gb, err = a.g.Garble(req, tryG)
	}
	if err != nil {
		return Garbling{}, err
	}
	d := gb.Digests()
	for i, what := range []string{"garbled tables", "garbler's input labels", "OT reply"} {
		if d[i] != [3]Digest{tr.Tables, tr.Labels, tr.Reply}[i] {
			return Garbling{}, auditFault(circuit.Garbler, t, what, "not what its seed, its share and its try give")
		}
	}
	return gb, nil
}

// replayOutputs evaluates the garbling gb of try t as the honest
// evaluator and checks the evaluator's output labels and event bits;
// then it plays the try of mover on the plaintext referee and checks
// that each player was told what the referee says (T-9), and keeps the
// outcome.
func (a *audit) replayOutputs(t int, tr TryRecord, mover engine.Color, try engine.Point, gb Garbling) error {
	cfg, g, e, rp := a.cfg, a.g, a.e, a.rp
	o, annE, err := e.Evaluate(gb)
	if err != nil {
		return fmt.Errorf("%w: try %d: the honest evaluator fails: %v", ErrT9, t, err)
	}
	if Sum(o.Labels) != tr.Outputs {
		return auditFault(circuit.Evaluator, t, "output labels", "not the labels of the outputs of the garbled referee")
	}
	if o.Pass != tr.Pass || o.Legal != tr.Legal {
		return auditFault(circuit.Evaluator, t, "event bits", "pass=%v legal=%v, the referee says pass=%v legal=%v", tr.Pass, tr.Legal, o.Pass, o.Legal)
	}
	annG, err := g.Finish(o)
	if err != nil {
		return fmt.Errorf("%w: try %d: the honest garbler fails: %v", ErrT9, t, err)
	}
	nextRef, out, err := a.ref.Try(mover, try)
	if err != nil {
		return fmt.Errorf("%w: try %d: the plaintext referee refuses %s: %v", ErrT9, t, try.Vertex(cfg.Size), err)
	}
	var ann [2]phantom.Announcement
	ann[circuit.Garbler], ann[circuit.Evaluator] = annG, annE
	for _, p := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
		want := phantom.Announce(cfg.Rules, cfg.Size, out, cfg.ColorOf(p))
		if !reflect.DeepEqual(ann[p], want) {
			return fmt.Errorf("%w: try %d: the %v's player was told %q, the referee says %q", ErrT9, t, p, ann[p].KeyValues(), want.KeyValues())
		}
	}
	a.ref = nextRef
	rp.Outcomes = append(rp.Outcomes, out)
	rp.Announcements = append(rp.Announcements, ann)
	rp.Public = g.Public()
	return nil
}

// checkEveryTryPlayed checks that each party revealed no more tries than
// its player played.
func (a *audit) checkEveryTryPlayed() error {
	for _, p := range []circuit.Party{circuit.Garbler, circuit.Evaluator} {
		if a.next[p] != len(a.rev[p].Tries) {
			return auditFault(p, len(a.rec.Tries), "tries", "revealed %d tries, it played %d", len(a.rev[p].Tries), a.next[p])
		}
	}
	return nil
}
