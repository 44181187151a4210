package referee

import (
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Evaluator is the evaluator's side of a game: it obtains the labels of
// its inputs by OT, evaluates the garbled referee, decodes every output,
// keeps what is for its player and its next share, and forwards to the
// garbler the labels of the outputs the garbler may read. Its only random
// choices are those of the OT machine, derived from its seed under
// labelOT (PN-D2). It is not safe for concurrent use.
type Evaluator struct {
	cfg      Config
	seed     prg.Seed
	rc       *refereeCircuits
	pub      Public
	receiver *ot.Receiver
	share    circuit.RefereeState
	started  bool
	phase    phase
	failed   error
	// baseMsg is the garbler's base OT message, kept to restore.
	baseMsg []byte
	tries   []engine.Point
	movers  []circuit.Party
	cur     *evaluatorTry
	// again is what ResumeEvaluator made again (Again).
	again evaluatorAgain
	// cert convicts the garbler when a checked garbling differed.
	cert *Certificate
	// unchecked skips the checks of the opened garblings of checked
	// tries: set by the audit, whose garbler, replayed from its seed,
	// made those garblings and whose commitment the audit compares with
	// the record (MPC-D22); tests set it for an evaluator that fails to
	// check.
	unchecked bool

	// The reverse extension of a game of the correlated input OTs
	// (MPC-D28): the evaluator is its sender; revDone is set once it
	// answered the garbler's setup message, rev holds the reverse OTs of
	// the next or current try.
	revSend *ot.Sender
	revDone bool
	// revFrom is the digest of the garbler's reverse setup message,
	// revAnswer the answer to it.
	revFrom   Digest
	revAnswer []byte
	// revStartMsg is the garbler's reverse setup message (for a
	// certificate of MPC-D29), seedStartMsg its seed transfer start
	// (MPC-D30).
	revStartMsg, seedStartMsg []byte
	// seedKeys are its keys of the seed transfer of try seedKeysTry,
	// made with the response it sent ahead (MPC-D30).
	seedKeys    []ot.Key
	seedKeysTry uint64
	rev         *evaluatorReverse
	// reqAhead is the request of the next try prepared (MPC-D51), or
	// nil: a cache, never saved.
	reqAhead *requestAhead
	// aheadUsed counts the requests made with a preparation (tests).
	aheadUsed int

	// The authenticated state (MPC-D29): the evaluator is the sender of
	// the MAC extension; auth is what it keeps of the last complete try,
	// shareCert its certificate against a garbler whose MAC opening was
	// wrong.
	macSend   *ot.Sender
	auth      *evaluatorAuth
	shareCert *GarblerShareCertificate
}

// evaluatorTry is the try under way.
type evaluatorTry struct {
	try   engine.Point // the evaluator's player's try, or engine.NoPoint
	mover circuit.Party
	// checked is the state of a checked try (λ > 1), else nil.
	checked *evaluatorChecked
	// flips are the flips of the evaluator's try sent (MPC-D52), or nil,
	// and flipsMsg their message.
	flips    []bool
	flipsMsg []byte
}

// NewEvaluator returns the evaluator of a game of cfg with the given
// seed, which must be secret, fresh (crypto/rand) and committed to
// ([Config.CommitSeed]).
func NewEvaluator(cfg Config, seed prg.Seed) (*Evaluator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Game = append([]byte(nil), cfg.Game...)
	rc, err := circuitsFor(cfg)
	if err != nil {
		return nil, err
	}
	e := &Evaluator{
		cfg:      cfg,
		seed:     seed,
		rc:       rc,
		pub:      NewPublic(),
		receiver: ot.NewReceiver(seed.Derive(labelOT), cfg.session()),
		share:    circuit.EmptyRefereeState(cfg.Size),
	}
	if cfg.correlated() {
		e.revSend = ot.NewSender(seed.Derive(labelReverseOT), cfg.reverseSession())
	}
	if cfg.authenticated() {
		e.macSend = cfg.newMACSender(e.MACSeed())
	}
	return e, nil
}

// Config returns the game's configuration.
func (e *Evaluator) Config() Config { return e.cfg }

// Public returns the public state after the last complete try.
func (e *Evaluator) Public() Public { return e.pub }

// Tries returns the tries of the evaluator's player so far.
func (e *Evaluator) Tries() []engine.Point { return append([]engine.Point(nil), e.tries...) }

// Share returns the evaluator's share of the referee state after the last
// complete try.
func (e *Evaluator) Share() circuit.RefereeState { return e.share.Clone() }

// Err returns the error that failed the machine (wrapping ErrDeviation),
// or nil.
func (e *Evaluator) Err() error { return e.failed }

// Waiting reports whether a try is under way: the request was sent and
// the garbling has not come.
func (e *Evaluator) Waiting() bool { return e.phase == phaseWaiting }

// Ready reports whether the evaluator can send the request of the next
// try (with its player's try when it is that player's turn).
func (e *Evaluator) Ready() bool { return e.phase == phaseReady && !e.pub.Ended() }

// MyTurn reports whether the next try is the evaluator's player's: its
// request then waits for that player's choice. Otherwise a session sends
// the request as soon as the previous try is over.
func (e *Evaluator) MyTurn() bool { return e.cfg.PartyOf(e.pub.ToMove) == circuit.Evaluator }

func (e *Evaluator) check(want phase) error {
	switch {
	case e.phase == phaseFailed:
		return e.failed
	case e.phase != want || (want == phaseBase && e.started):
		return fmt.Errorf("%w: evaluator in phase %d, call for phase %d", ErrState, e.phase, want)
	case want == phaseReady && e.pub.Ended():
		return fmt.Errorf("%w: play has ended", ErrState)
	}
	return nil
}

// BaseStart returns the first message of the game, the start of the base
// OTs.
func (e *Evaluator) BaseStart() ([]byte, error) {
	if err := e.check(phaseBase); err != nil {
		return nil, err
	}
	msg, err := e.receiver.BaseStart()
	if err != nil {
		return nil, err
	}
	e.started = true
	return msg, nil
}

// BaseFinish takes the garbler's answer ([Garbler.BaseRespond]); the
// evaluator is then ready for the first try.
func (e *Evaluator) BaseFinish(msg []byte) error {
	if !e.started || e.phase != phaseBase {
		return fmt.Errorf("%w: base OTs not started or already done", ErrState)
	}
	if err := e.receiver.BaseFinish(msg); err != nil {
		return fmt.Errorf("%w: base OT: %v", ErrMessage, err)
	}
	e.baseMsg = append([]byte(nil), msg...)
	e.phase = phaseReady
	return nil
}

// Request returns the OT request of the next try: the evaluator's share,
// and try (a point or engine.Pass) when the evaluator's player is to move
// (try is not read otherwise). An error leaves the machine as it was.
func (e *Evaluator) Request(try engine.Point) ([]byte, error) {
	if err := e.check(phaseReady); err != nil {
		return nil, err
	}
	mover := e.cfg.PartyOf(e.pub.ToMove)
	flipped := e.cfg.flipped(mover)
	switch {
	case mover != circuit.Evaluator:
		try = engine.NoPoint
	case flipped:
		// The try comes later, as flips of random bits (MPC-D52): a
		// pass holds its place until the random bits replace it.
		try = engine.Pass
	}
	in, err := e.rc.layout[mover].Inputs(circuit.Evaluator, e.pub.ToMove, e.share, try, nil)
	if err != nil {
		return nil, fmt.Errorf("referee: the evaluator's try: %w", err)
	}
	if flipped {
		if err := e.rc.layout[mover].PlaceTry(in, e.flipRandom(e.pub.Try)); err != nil {
			return nil, err
		}
		try = engine.NoPoint
	}
	var ck *evaluatorChecked
	j := 0
	if e.cfg.Checked() {
		j = e.choose(e.pub.Try)
	}
	// The work made ahead (MPC-D51), once the try is known to be good.
	pre := e.takeRequestAhead(e.pub.Try, mover, j)
	if e.cfg.Checked() {
		// Per garbling its m input bits: the real ones in garbling ĵ,
		// random ones (from its seed) in the others, which it checks
		// once their seeds are opened (MPC-D18); then the seed transfer.
		ck = &evaluatorChecked{j: j}
		if e.cfg.authenticated() && e.seedStartMsg != nil {
			// The seed transfer's response of the next try, which the
			// choice carries (MPC-D30): a function of the evaluator's
			// seed and the garbler's setup alone, made while the
			// garbler commits (MPC-D43), or made ahead.
			if pre != nil && pre.next != nil {
				ck.next = pre.next
			} else {
				ck.next = startSeedResponse(e.cfg, e.seed, e.pub.Try+1, e.choose(e.pub.Try+1), e.seedStartMsg)
			}
		}
		m := len(in)
		mo := e.cfg.garblingOTs(m)
		if e.cfg.authenticated() {
			// The blind bits of the try before (none at try 0), then the
			// try's own (MPC-D29).
			old := make([]bool, authRows)
			if e.auth != nil {
				old = e.auth.bits
			}
			in = append(append(in, old...), e.seed.Stream(labelBlind, e.pub.Try).Bools(authRows)...)
		}
		all := make([]bool, 0, e.cfg.lambda()*mo+e.cfg.seedOTs())
		for i := range e.cfg.lambda() {
			if i == ck.j {
				all = append(all, in...)
			} else {
				all = append(all, e.seed.Stream(labelPVCRandom, e.pub.Try, uint64(i)).Bools(mo)...)
			}
		}
		in = all
		if !e.cfg.authenticated() {
			in = append(in, seedChoices(ck.j, e.cfg.depth())...)
		}
		ck.choices = in
		if e.cfg.correlated() {
			req, used, err := e.cotRequest(ck, m, pre)
			if err != nil {
				return nil, err
			}
			if used {
				e.aheadUsed++
			}
			return e.begin(req, try, mover, ck), nil
		}
	}
	var req []byte
	if pre != nil && pre.fwd.Fits(e.receiver, len(in)) {
		req, err = e.receiver.RequestPrepared(pre.fwd, in)
		e.aheadUsed++
	} else {
		req, err = e.receiver.Request(in)
	}
	if err != nil {
		return nil, err
	}
	return e.begin(req, try, mover, ck), nil
}

// begin records the request of the try under way.
func (e *Evaluator) begin(req []byte, try engine.Point, mover circuit.Party, ck *evaluatorChecked) []byte {
	e.cur = &evaluatorTry{try: try, mover: mover, checked: ck}
	if mover == circuit.Evaluator && !e.cfg.flipped(mover) {
		// A flipped try is its player's once its flips go (Flips).
		e.tries = append(e.tries, try)
	}
	e.movers = append(e.movers, mover)
	e.phase = phaseWaiting
	return req
}

// Evaluate takes the garbler's garbling of the try under way, evaluates
// it and returns the message for the garbler and what the evaluator's
// player is told. A malformed garbling (ErrMessage) leaves the machine as
// it was; one that decodes to no honest announcement (ErrDeviation) fails
// it.
func (e *Evaluator) Evaluate(g Garbling) (Outputs, phantom.Announcement, error) {
	if err := e.check(phaseWaiting); err != nil {
		return Outputs{}, phantom.Announcement{}, err
	}
	cur := e.cur
	l, c := e.rc.layout[cur.mover], e.rc.circuit[cur.mover]
	// While the check of the opened garblings may still run, the work on
	// garbling ĵ that decides nothing (MPC-D42): its parse and the
	// digests checkChosen compares with its commitment. Their errors
	// and mismatches are taken only after the check's result.
	garbled, err := gc.ParseGarbled(g.Tables)
	var pre *chosenDigests
	if ck := cur.checked; ck != nil && ck.check != nil && ck.commitment != nil {
		pre = chosenDigestsOf(e.cfg, e.pub.Try, ck.j, g, len(c.Inputs[circuit.Garbler]), e.cfg.flipWires(e.rc, cur.mover), cur.flips)
	}
	// The opened garblings of a checked try are checked before garbling
	// ĵ is evaluated (MPC-D21).
	if err := e.settle(true); err != nil {
		return Outputs{}, phantom.Announcement{}, err
	}
	// The garbling shows that the garbler had the messages made again.
	e.again = evaluatorAgain{}
	bad := func(what string, err error) (Outputs, phantom.Announcement, error) {
		return Outputs{}, phantom.Announcement{}, fmt.Errorf("%w: %s of try %d: %v", ErrMessage, what, e.pub.Try, err)
	}
	if err != nil {
		return bad("garbled tables", err)
	}
	switch {
	case garbled.Scheme != e.cfg.Scheme:
		return bad("garbled tables", fmt.Errorf("%v garbling in a %v game", garbled.Scheme, e.cfg.Scheme))
	case garbled.Instance != e.pub.Try:
		return bad("garbled tables", fmt.Errorf("instance %d", garbled.Instance))
	case len(garbled.Tables) != e.cfg.Scheme.TablesSize(e.rc.and) || len(garbled.Decoding) != len(c.Outputs):
		return bad("garbled tables", fmt.Errorf("%d bytes and %d outputs", len(garbled.Tables), len(garbled.Decoding)))
	}
	var theirs, mine []gc.Label
	if cur.checked != nil {
		if cur.checked.commitment == nil {
			return Outputs{}, phantom.Announcement{}, fmt.Errorf("%w: the garbling of a checked try before its commitment", ErrState)
		}
		if theirs, mine, err = e.checkChosen(g, c, pre); err != nil {
			if e.phase == phaseFailed {
				return Outputs{}, phantom.Announcement{}, err
			}
			return bad("garbling", err)
		}
	} else {
		if theirs, err = gc.ParseLabels(g.Labels, len(c.Inputs[circuit.Garbler])); err != nil {
			return bad("garbler's input labels", err)
		}
		if mine, err = e.receiver.Receive(g.Reply); err != nil {
			return bad("OT reply", err)
		}
	}
	// The OT machine has moved on: from here an error fails the machine.
	out, err := gc.EvaluatePrepared(e.rc.prepared[cur.mover], garbled, [2][]gc.Label{theirs, mine})
	if err != nil {
		return Outputs{}, phantom.Announcement{}, e.fail("try %d: %v", e.pub.Try, err)
	}
	bits, err := gc.Decode(out, garbled.Decoding)
	if err != nil {
		return Outputs{}, phantom.Announcement{}, e.fail("try %d: %v", e.pub.Try, err)
	}
	mover := e.pub.ToMove
	a, err := l.Announcement(circuit.Evaluator, mover, cur.try, bits, nil)
	if err != nil {
		return Outputs{}, phantom.Announcement{}, e.fail("try %d: the garbled referee gives %v", e.pub.Try, err)
	}
	next, err := l.NextShare(circuit.Evaluator, mover, bits, nil)
	if err != nil {
		return Outputs{}, phantom.Announcement{}, e.fail("try %d: %v", e.pub.Try, err)
	}
	var auth *evaluatorAuth
	if e.cfg.authenticated() {
		auth = e.authAfter(l, mover, out)
	}
	vis := l.VisibleOutputs(circuit.Garbler)
	fwd := make([]gc.Label, len(vis))
	for i, at := range vis {
		fwd[i] = out[at]
	}
	o := Outputs{Pass: bits[l.Pass], Legal: bits[l.Legal], Labels: gc.MarshalLabels(fwd)}
	e.share = next
	if auth != nil {
		e.auth = auth
	}
	e.pub = e.pub.After(o.Pass, o.Legal)
	e.cur = nil
	e.phase = phaseReady
	return o, a, nil
}

func (e *Evaluator) fail(format string, args ...any) error {
	e.failed = fmt.Errorf("%w: the garbler: %s", ErrDeviation, fmt.Sprintf(format, args...))
	e.phase = phaseFailed
	return e.failed
}
