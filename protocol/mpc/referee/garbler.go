package referee

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// phase is where a machine is in the protocol.
type phase uint8

const (
	phaseBase      phase = iota // setup: base OTs not done
	phaseReady                  // between tries
	phaseWaiting                // a try is under way: the garbler waits for the outputs, the evaluator for the garbling
	phaseFailed                 // the other party deviated: go to the audit
	phaseCommitted              // a checked try: the garbler committed and waits for the evaluator's choice
)

// Garbler is the garbler's side of a game: it garbles the referee circuit
// of every try, sends the labels of its own inputs and transfers the
// evaluator's by OT. It is not safe for concurrent use.
//
// Every random choice comes from its seed (PN-D2): the Δ of try t from
// (labelDelta, t) — a fresh Δ for every try (T-8(a), MPC-D4), so that
// whatever a cheating evaluator learns of one try's Δ opens nothing in
// another —, the zero labels of try t from (labelLabels, t), the mask
// bits of try t (its next share and the masks of its player's outputs)
// from (labelMask, t) — in a three-halves game from the stream of the
// garbling itself, after its labels and coins (MPC-D27) —, and the OT
// machine from labelOT.
type Garbler struct {
	cfg    Config
	seed   prg.Seed
	rc     *refereeCircuits
	pub    Public
	sender *ot.Sender
	share  circuit.RefereeState
	phase  phase
	failed error
	// baseMsg is the evaluator's base OT message, kept to restore.
	baseMsg []byte
	// tries are the tries of the garbler's player, in order; movers the
	// mover party of every try begun.
	tries  []engine.Point
	movers []circuit.Party
	cur    *garblerTry
	pre    *prepared
	// ahead is a checked try's garblings being made on their own
	// goroutines (PrepareAhead), taken by Prepare and Commit.
	ahead *preparing
	// maskFor draws the mask bits of a try when they are circuit inputs;
	// tests replace it to couple two games (privacy test).
	maskFor func(try uint64, n int) []bool
	// coupleMask (tests only) changes the mask bits of garbling i of a
	// try when they are in the decoding bits (MPC-D27), before they are
	// XORed in: the privacy test's coupling.
	coupleMask func(try uint64, i int, mask []bool)
	// again is what ResumeGarblerKept made again (Again).
	again garblerAgain
	// committed is the checked try between Commit and GarbleChosen.
	committed *garblerCommitted
	// cheatCopy and cheatSend are test hooks of a cheating garbler: the
	// first changes garbling i of a checked try before it is committed
	// to, the second the labels it sends of garbling ĵ.
	cheatCopy func(try uint64, i int, g *gc.Garbled, k *gc.Keys)
	cheatSend func(try uint64, j int, own *[]gc.Label, other *[]Digest, cp *copyGarbling)
	// cheatOT changes the OT pairs of a checked try (garbling i's pair
	// for evaluator input k at i·m+k) before they are sent.
	cheatOT func(try uint64, m int, pairs [][2]ot.Block)

	// The reverse extension of a game of the correlated input OTs
	// (MPC-D28): the garbler is its receiver; revStart is its setup
	// message, revDone set once the evaluator answered it, rev the
	// reverse OTs of the next or current try, revAhead those of the try
	// after the one under way (ReverseRequestAhead).
	revRecv  *ot.Receiver
	revStart []byte
	revDone  bool
	rev      *garblerReverse
	revAhead *garblerReverse
	// cheatReverse (tests only) changes the garbler's reverse choices of
	// a try (garbling i's bits at i·128), cheatIgnoreCheck makes it go on
	// when its own check then refuses the evaluator's request, and
	// cheatCorrections changes the corrections of a try (garbling i's of
	// input w at [i][w]) before they are sent.
	cheatReverse     func(try uint64, choices []bool)
	cheatIgnoreCheck bool
	cheatCorrections func(try uint64, m int, d [][]ot.Block)
	// cheatForgeX (tests only) puts in each reverse sub-batch the check
	// value x of the honest choices, whatever cheatReverse made of them;
	// cheatKeyHashes changes the hashes H(K_i) of a try's commitment.
	cheatForgeX    bool
	cheatKeyHashes func(try uint64, hashes []Digest)

	// The authenticated state (MPC-D29): the garbler is the receiver of
	// the MAC extension; authPrev is what it keeps of the last complete
	// try, shareCert its certificate against an evaluator whose sums
	// were wrong. cheatMAC (tests only) changes the MAC choices of
	// garbling i of a try (P then A) before they are requested;
	// cheatOpening (tests only) changes the sums of its MAC opening of a
	// try (one per share bit, canonical order) before they are hashed.
	macRecv   *ot.Receiver
	authPrev  *garblerAuth
	shareCert *EvaluatorShareCertificate
	// requestCert is its certificate against an evaluator whose choice
	// names another request of garbling ĵ than the one it sent (MPC-D31).
	requestCert  *RequestDigestCertificate
	cheatMAC     func(try uint64, i int, bits []bool)
	cheatOpening func(try uint64, sums []ot.Block)
	// seedResp is the evaluator's seed transfer response of the next or
	// current try (MPC-D30), from its reverse setup answer or its choice
	// of the try before; cheatSeedSums (tests only) changes the level
	// sums of a try before they are encrypted.
	seedResp      []byte
	cheatSeedSums func(try uint64, sums [][2]prg.Seed)
	// choiceChecked is the digest of the last choice whose seed transfer
	// response was checked.
	choiceChecked Digest
}

// garblerTry is the garbler's secret side of the try under way.
type garblerTry struct {
	keys *gc.Keys
	// mask is the garbler's mask bits of the try: its next share and the
	// masks of its player's outputs.
	mask  []bool
	try   engine.Point // the garbler's player's try, or engine.NoPoint
	mover circuit.Party
	// auth is what the garbler keeps of the try once it is complete
	// (MPC-D29), or nil.
	auth *garblerAuth
}

// prepared is a garbling made before the try (Prepare).
type prepared struct {
	try   uint64
	mover circuit.Party
	keys  *gc.Keys
	bytes []byte
	// mask is the mask bits the garbling read from its stream (MPC-D27),
	// nil when they are circuit inputs.
	mask []bool
	// copies and seeds are the λ garblings of a checked try.
	copies []*copyGarbling
	seeds  []prg.Seed
}

// preparing is the λ garblings of a checked try being made in the
// background; its results are written before done is closed and read
// after.
type preparing struct {
	try    uint64
	mover  circuit.Party
	done   chan struct{}
	copies []*copyGarbling
	seeds  []prg.Seed
	err    error
}

// NewGarbler returns the garbler of a game of cfg with the given seed,
// which must be secret, fresh (crypto/rand) and committed to
// ([Config.CommitSeed]).
func NewGarbler(cfg Config, seed prg.Seed) (*Garbler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Game = append([]byte(nil), cfg.Game...)
	rc, err := circuitsFor(cfg)
	if err != nil {
		return nil, err
	}
	g := &Garbler{
		cfg:    cfg,
		seed:   seed,
		rc:     rc,
		pub:    NewPublic(),
		sender: ot.NewSender(seed.Derive(labelOT), cfg.session()),
		share:  circuit.EmptyRefereeState(cfg.Size),
	}
	g.maskFor = func(try uint64, n int) []bool { return seed.Stream(labelMask, try).Bools(n) }
	if cfg.correlated() {
		g.revRecv = ot.NewReceiver(seed.Derive(labelReverseOT), cfg.reverseSession())
	}
	if cfg.authenticated() {
		g.macRecv = cfg.newMACReceiver(seed.Derive(labelMACOT))
	}
	return g, nil
}

// Config returns the game's configuration.
func (g *Garbler) Config() Config { return g.cfg }

// Public returns the public state after the last complete try.
func (g *Garbler) Public() Public { return g.pub }

// Tries returns the tries of the garbler's player so far (revealed at the
// end of the game for the audit).
func (g *Garbler) Tries() []engine.Point { return append([]engine.Point(nil), g.tries...) }

// Share returns the garbler's share of the referee state after the last
// complete try.
func (g *Garbler) Share() circuit.RefereeState { return g.share.Clone() }

// Err returns the error that failed the machine (wrapping ErrDeviation),
// or nil.
func (g *Garbler) Err() error { return g.failed }

// Waiting reports whether a try is under way: the garbling was sent and
// the outputs have not come.
func (g *Garbler) Waiting() bool { return g.phase == phaseWaiting }

// Ready reports whether the garbler can garble the next try: the base
// OTs are done, no try is under way, play has not ended and the machine
// has not failed.
func (g *Garbler) Ready() bool { return g.phase == phaseReady && !g.pub.Ended() }

func (g *Garbler) check(want phase) error {
	switch {
	case g.phase == phaseFailed:
		return g.failed
	case g.phase != want:
		return fmt.Errorf("%w: garbler in phase %d, call for phase %d", ErrState, g.phase, want)
	case want == phaseReady && g.pub.Ended():
		return fmt.Errorf("%w: play has ended", ErrState)
	}
	return nil
}

// BaseRespond takes the evaluator's first message ([Evaluator.BaseStart])
// and returns the garbler's answer, which completes the setup.
func (g *Garbler) BaseRespond(msg []byte) ([]byte, error) {
	if err := g.check(phaseBase); err != nil {
		return nil, err
	}
	reply, err := g.sender.BaseRespond(msg)
	if err != nil {
		return nil, fmt.Errorf("%w: base OT: %v", ErrMessage, err)
	}
	g.baseMsg = append([]byte(nil), msg...)
	g.phase = phaseReady
	return reply, nil
}

// CheckRequest checks the evaluator's OT request of the next try as soon
// as it comes, before the garbler's player chooses its try: its size,
// and the consistency check of the OT extension (T-8(a)). A malformed
// request (ErrMessage) leaves the machine as it was; one that fails the
// check (ErrDeviation, blaming the evaluator) fails it, and
// [VerifyOTRefusal] with [Garbler.OTSeed] proves it to anyone holding
// the record. Garble checks again.
func (g *Garbler) CheckRequest(request []byte) error {
	if err := g.check(phaseReady); err != nil {
		return err
	}
	l := g.rc.layout[g.cfg.PartyOf(g.pub.ToMove)]
	if g.cfg.correlated() {
		_, _, err := g.cotRows(request, l.NumInputs[circuit.Evaluator])
		return err
	}
	if err := checkRequestSize(request, g.cfg.evaluatorOTs(l.NumInputs[circuit.Evaluator])); err != nil {
		return err
	}
	return g.requestError(g.sender.Check(request))
}

// sendInputs answers the evaluator's OT request with the labels of its
// inputs under keys: the OT reply of the garbling.
func (g *Garbler) sendInputs(request []byte, keys *gc.Keys) ([]byte, error) {
	zero := make([]ot.Block, len(keys.Inputs[circuit.Evaluator]))
	for i, pair := range keys.Inputs[circuit.Evaluator] {
		zero[i] = pair[0]
	}
	return g.sender.SendCorrelated(request, zero, keys.Delta)
}

// requestError is the error of the OT machine's err on the evaluator's
// request of the try under way: a failed consistency check fails the
// garbler, blaming the evaluator (ErrDeviation); any other error is a
// malformed message (ErrMessage). It returns nil for nil.
func (g *Garbler) requestError(err error) error {
	if errors.Is(err, ot.ErrConsistency) {
		return g.fail("try %d: its OT request fails the consistency check (%v)", g.pub.Try, err)
	}
	if err != nil {
		return fmt.Errorf("%w: OT request of try %d: %v", ErrMessage, g.pub.Try, err)
	}
	return nil
}

// OTSeed returns the seed of the garbler's OT machine, derived from its
// seed: what the garbler reveals to prove that a request failed the
// consistency check ([VerifyOTRefusal]). It opens the garbler's OT
// secret, hence the Δ of every try so far, and nothing else of its seed;
// it is for a game that ends on that refusal.
func (g *Garbler) OTSeed() prg.Seed { return g.seed.Derive(labelOT) }

// VerifyOTRefusal judges the garbler's claim that the evaluator's OT
// request of try try failed the consistency check of the OT extension
// (T-8(a)), from the messages a record signs — the evaluator's setup
// message baseStart, the garbler's answer baseReply, the request — and
// the garbler's revealed otSeed ([Garbler.OTSeed]). It returns nil when
// the claim is proven, which convicts the evaluator; otherwise an error
// saying why not. A request an honest evaluator made never fails the
// check, whatever seed the garbler reveals.
func VerifyOTRefusal(cfg Config, try uint64, otSeed prg.Seed, baseStart, baseReply, request []byte) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if len(request) < 7 || binary.BigEndian.Uint32(request[3:7]) != uint32(try) {
		return fmt.Errorf("referee: refusal not proven: the request is not that of try %d", try)
	}
	return ot.VerifyRefusal(cfg.session(), otSeed, baseStart, baseReply, request)
}

// Prepare garbles the next try ahead of time (the tables do not depend on
// anybody's inputs), for a session to call while a player thinks. Garble
// then only encodes the inputs and answers the OT request.
func (g *Garbler) Prepare() error {
	if err := g.check(phaseReady); err != nil {
		return err
	}
	mover := g.cfg.PartyOf(g.pub.ToMove)
	g.takeAhead(g.pub.Try, mover)
	if g.pre != nil && g.pre.try == g.pub.Try && g.pre.mover == mover {
		return nil
	}
	if g.cfg.Checked() {
		copies, seeds, err := g.prepareCopies(g.pub.Try, mover)
		if err != nil {
			return err
		}
		g.pre = &prepared{try: g.pub.Try, mover: mover, copies: copies, seeds: seeds}
		return nil
	}
	p, err := g.garble(g.pub.Try, mover)
	if err != nil {
		return err
	}
	g.pre = p
	return nil
}

// PrepareAhead starts the work of Prepare for a checked game on its own
// goroutines and returns at once (MPC-D24): a session calls it when a try
// ends, so that the λ garblings of the next try are made while the
// messages travel and the players think, and its own program goes on
// meanwhile (its player sees the announcement at once). Prepare and
// Commit take the result, waiting for it if needed. The garblings are a
// function of the garbler's seed and the try alone, so the messages are
// the same whether they were made ahead or not. It does nothing in a
// game without checking, or when the machine is not between tries.
func (g *Garbler) PrepareAhead() {
	if g.check(phaseReady) != nil || !g.cfg.Checked() {
		return
	}
	try, mover := g.pub.Try, g.cfg.PartyOf(g.pub.ToMove)
	if p := g.pre; p != nil && p.try == try && p.mover == mover {
		return
	}
	if a := g.ahead; a != nil && a.try == try && a.mover == mover {
		return
	}
	a := &preparing{try: try, mover: mover, done: make(chan struct{})}
	g.ahead = a
	cfg, rc, seed, hooks := g.cfg, g.rc, g.seed, copyHooks{cheat: g.cheatCopy, couple: g.coupleMask}
	go func() {
		defer close(a.done)
		a.copies, a.seeds, a.err = prepareCopiesOf(cfg, rc, seed, try, mover, hooks)
	}()
}

// takeAhead waits for the garblings PrepareAhead makes, if any, and keeps
// them as prepared when they are those of try and mover.
func (g *Garbler) takeAhead(try uint64, mover circuit.Party) {
	a := g.ahead
	if a == nil {
		return
	}
	g.ahead = nil
	if a.try != try || a.mover != mover {
		return
	}
	<-a.done
	if a.err == nil {
		g.pre = &prepared{try: try, mover: mover, copies: a.copies, seeds: a.seeds}
	}
}

func (g *Garbler) garble(try uint64, mover circuit.Party) (*prepared, error) {
	delta, err := tryDelta(g.seed, try)
	if err != nil {
		return nil, err
	}
	var couple func([]bool)
	if g.coupleMask != nil {
		couple = func(m []bool) { g.coupleMask(try, 0, m) }
	}
	gb, keys, mask, err := garbleMasked(g.cfg, g.rc, mover, delta, g.seed.Stream(labelLabels, try), nil, try, couple)
	if err != nil {
		return nil, err
	}
	// A message of its own, and the tables' buffer back to the pool at
	// once (issue 38): the one garbling of a try without checking is
	// always sent. (A checked try's λ garblings stay in their buffers,
	// the λ − 1 not sent given back after ĵ's, MPC-D59.)
	b, err := gb.MarshalBinary()
	gb.Release()
	if err != nil {
		return nil, err
	}
	return &prepared{try: try, mover: mover, keys: keys, bytes: b, mask: mask}, nil
}

// garbleMasked garbles the circuit of mover with the scheme of cfg,
// reading its labels (and three-halves' coins) from st. When the masks
// are in the decoding bits (MPC-D27), it then reads the garbler's mask
// bits from st, after all that, lets couple (tests only; may be nil)
// change them, and XORs mask bit OutputMask[i] into decoding bit i; it
// returns the mask bits, nil when they are circuit inputs.
func garbleMasked(cfg Config, rc *refereeCircuits, mover circuit.Party, delta gc.Label, st, masks *prg.Stream, instance uint64, couple func([]bool)) (*gc.Garbled, *gc.Keys, []bool, error) {
	l := rc.layout[mover]
	gb, keys, err := cfg.Scheme.GarblePrepared(rc.prepared[mover], delta, st, instance)
	if err != nil {
		return nil, nil, nil, err
	}
	if !l.MasksInDecoding {
		return gb, keys, nil, nil
	}
	if masks == nil {
		masks = st
	}
	mask := masks.Bools(l.MaskBits())
	if couple != nil {
		couple(mask)
	}
	for i, m := range l.OutputMask {
		if m >= 0 && mask[m] {
			gb.Decoding[i] = !gb.Decoding[i]
		}
	}
	return gb, keys, mask, nil
}

// tryMask returns the garbler's mask bits of try with layout l: those the
// garbling read (fromGarbling) when they are in the decoding bits
// (MPC-D27), else those of maskFor.
func (g *Garbler) tryMask(l *circuit.RefereeLayout, try uint64, fromGarbling []bool) []bool {
	if l.MasksInDecoding {
		return fromGarbling
	}
	return g.maskFor(try, l.MaskBits())
}

// Garble answers the evaluator's OT request of the next try and returns
// the garbling for the evaluator. try is the garbler's player's try (a
// point or engine.Pass) when that player is to move, and is not read
// otherwise. An error leaves the machine as it was.
func (g *Garbler) Garble(request []byte, try engine.Point) (Garbling, error) {
	if err := g.check(phaseReady); err != nil {
		return Garbling{}, err
	}
	if g.cfg.Checked() {
		return Garbling{}, fmt.Errorf("%w: a checked game garbles with Commit and GarbleChosen", ErrState)
	}
	mover := g.cfg.PartyOf(g.pub.ToMove)
	l := g.rc.layout[mover]
	if mover != circuit.Garbler {
		try = engine.NoPoint
	}
	if err := checkRequestSize(request, l.NumInputs[circuit.Evaluator]); err != nil {
		return Garbling{}, err
	}
	p := g.pre
	if p == nil || p.try != g.pub.Try || p.mover != mover {
		var err error
		if p, err = g.garble(g.pub.Try, mover); err != nil {
			return Garbling{}, err
		}
	}
	mask := g.tryMask(l, g.pub.Try, p.mask)
	in, err := l.Inputs(circuit.Garbler, g.pub.ToMove, g.share, try, mask)
	if err != nil {
		return Garbling{}, fmt.Errorf("referee: the garbler's try: %w", err)
	}
	own, err := p.keys.Encode(int(circuit.Garbler), in)
	if err != nil {
		return Garbling{}, err
	}
	reply, err := g.sendInputs(request, p.keys)
	if err := g.requestError(err); err != nil {
		return Garbling{}, err
	}
	g.pre = nil
	// The request shows that the evaluator had the messages made again.
	g.again = garblerAgain{}
	g.cur = &garblerTry{keys: p.keys, mask: mask, try: try, mover: mover}
	if mover == circuit.Garbler {
		g.tries = append(g.tries, try)
	}
	g.movers = append(g.movers, mover)
	g.phase = phaseWaiting
	return Garbling{Tables: p.bytes, Labels: gc.MarshalLabels(own), Reply: reply}, nil
}

// Finish takes the evaluator's outputs of the try under way and returns
// what the garbler's player is told. A malformed message (ErrMessage)
// leaves the machine as it was; outputs that no honest evaluator sends
// (ErrDeviation) fail it.
func (g *Garbler) Finish(o Outputs) (phantom.Announcement, error) {
	if err := g.check(phaseWaiting); err != nil {
		return phantom.Announcement{}, err
	}
	cur := g.cur
	l := g.rc.layout[cur.mover]
	vis := l.VisibleOutputs(circuit.Garbler)
	labels, err := gc.ParseLabels(o.Labels, len(vis))
	if err != nil {
		return phantom.Announcement{}, fmt.Errorf("%w: output labels of try %d: %v", ErrMessage, g.pub.Try, err)
	}
	outputs := make([]bool, len(l.Recipient))
	for i, at := range vis {
		switch labels[i] {
		case cur.keys.Outputs[at][0]:
		case cur.keys.Outputs[at][1]:
			outputs[at] = true
		default:
			return phantom.Announcement{}, g.fail("try %d: output label %d (output %d) is neither of its two labels", g.pub.Try, i, at)
		}
	}
	if outputs[l.Pass] != o.Pass || outputs[l.Legal] != o.Legal {
		return phantom.Announcement{}, g.fail("try %d: event bits pass=%v legal=%v, the labels say pass=%v legal=%v",
			g.pub.Try, o.Pass, o.Legal, outputs[l.Pass], outputs[l.Legal])
	}
	mover := g.pub.ToMove
	a, err := l.Announcement(circuit.Garbler, mover, cur.try, outputs, cur.mask)
	if err != nil {
		return phantom.Announcement{}, g.fail("try %d: %v", g.pub.Try, err)
	}
	next, err := l.NextShare(circuit.Garbler, mover, nil, cur.mask)
	if err != nil {
		return phantom.Announcement{}, g.fail("try %d: %v", g.pub.Try, err)
	}
	g.share = next
	if g.cfg.authenticated() {
		g.authPrev = cur.auth
	}
	g.pub = g.pub.After(o.Pass, o.Legal)
	g.cur = nil
	g.phase = phaseReady
	return a, nil
}

func (g *Garbler) fail(format string, args ...any) error {
	g.failed = fmt.Errorf("%w: the evaluator: %s", ErrDeviation, fmt.Sprintf(format, args...))
	g.phase = phaseFailed
	return g.failed
}

// checkRequestSize checks that an OT request is for m OTs, before the
// garbler spends time garbling: 'O' 2 3 batch:u32 m:u32, 128 columns of
// ⌈(m+ot.KOSPad)/8⌉ bytes and 32 bytes of check values (MPC-D11). The OT
// machine checks the rest.
func checkRequestSize(request []byte, m int) error {
	if len(request) != ot.RequestSize(m) {
		return fmt.Errorf("%w: OT request of %d bytes, want %d OTs", ErrMessage, len(request), m)
	}
	return nil
}

// tryDelta returns the free-XOR offset Δ of try number try of the garbler
// of seed: a fresh one for every try (T-8(a), MPC-D4).
func tryDelta(seed prg.Seed, try uint64) (gc.Label, error) {
	return gc.NewDelta(seed.Stream(labelDelta, try))
}
