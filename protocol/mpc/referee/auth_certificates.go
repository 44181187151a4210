package referee

// The certificates of the authenticated state (MPC-D29) and their
// judges: of a garbler's share inputs that were not its share, of an
// evaluator's, and of the garbler's MAC choices of an opened garbling.
// auth.go has the overview.

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// GarblerShareCertificate proves that the garbler's share inputs of a
// try of a game of the authenticated state (MPC-D29) were not its share:
// their colours do not match the MAC opening its MACs give. It holds
// the evaluator's MAC seed ([Evaluator.MACSeed]) and the messages the
// judge recomputes the MAC keys from, all of them the record's by their
// digests; nothing of the evaluator's inputs.
type GarblerShareCertificate struct {
	// Try is the try number.
	Try uint64
	// MACSeed is the seed of the evaluator's MAC machine.
	MACSeed prg.Seed
	// ReverseStart and ReverseAnswer are the reverse setup messages
	// (the MAC extension's base OTs are in them).
	ReverseStart, ReverseAnswer []byte
	// PrevCommitment and Commitment are the commitments parts of the
	// garbler's commitments of the try before (nil at try 0) and of the
	// try, which hold the digests of the MAC sub-batches; PrevMAC and MAC
	// the MAC sub-batches of garbling ĵ of both tries; PrevChoice and
	// Choice the evaluator's choices of both tries (they name ĵ).
	PrevCommitment, Commitment []byte
	PrevMAC, MAC               []byte
	PrevChoice, Choice         []byte
	// Labels is the garbler's labels message of the try: its input
	// labels of garbling ĵ, the hashes of the others, its MAC opening.
	Labels []byte
}

// ShareCertificate returns the certificate that convicts the garbler
// when the machine failed on its MAC opening (MPC-D29), or nil. After a
// resume the session fills in what the machine no longer holds of the
// try before (PrevCommitment, PrevMAC, PrevChoice) and ReverseStart.
func (e *Evaluator) ShareCertificate() *GarblerShareCertificate {
	if e.shareCert == nil {
		return nil
	}
	c := *e.shareCert
	return &c
}

// JudgeGarblerShare judges a certificate against the garbler of try t of
// a game's record: it returns nil when the certificate convicts the
// garbler, else an error wrapping ErrNotProven. The judge rebuilds the
// evaluator's MAC machine from the revealed seed (which must give
// exactly its signed setup answer), recomputes the MAC keys of the
// sub-batches of the garblings ĵ of tries t − 1 and t (their KOS checks
// must pass) and the opening an honest garbler sends with the colours of
// the labels it sent; an honest garbler's opening is always that one,
// whatever seed the evaluator reveals.
func JudgeGarblerShare(rec Record, t int, c GarblerShareCertificate) error {
	cfg := rec.Config
	if err := checkAuthenticatedTry(rec, t); err != nil {
		return err
	}
	tr := rec.Tries[t]
	switch {
	case rec.ReverseSent < 2 || Sum(c.ReverseStart) != rec.Reverse[0] || Sum(c.ReverseAnswer) != rec.Reverse[1]:
		return fmt.Errorf("%w: the reverse setup messages are not the record's", ErrNotProven)
	case tr.Sent < 4 || Sum(c.Commitment) != tr.Commitment || Sum(c.Choice) != tr.Choice || Sum(c.Labels) != tr.Labels:
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t)
	case t > 0 && (Sum(c.PrevCommitment) != rec.Tries[t-1].Commitment || Sum(c.PrevChoice) != rec.Tries[t-1].Choice):
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t-1)
	}
	pub, movers, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if pub.Try != c.Try {
		return fmt.Errorf("%w: the certificate is of try %d, the record's try %d is try %d", ErrNotProven, c.Try, t, pub.Try)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	// The evaluator's MAC machine, from its seed.
	starts, err := unbundle(c.ReverseStart, setupParts)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	answers, err := unbundle(c.ReverseAnswer, setupParts)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	macStart, macAnswer := starts[1], answers[1]
	send := cfg.newMACSender(c.MACSeed)
	again, err := send.BaseRespond(macStart)
	if err != nil || !bytes.Equal(again, macAnswer) {
		return fmt.Errorf("%w: the seed does not give the evaluator's MAC setup answer", ErrNotProven)
	}
	n := cfg.stateBits()
	rowsOf := func(try uint64, commitment, sub, choice []byte) ([]ot.Block, error) {
		j, _, _, err := parseChoiceOf(cfg, try, choice)
		if err != nil {
			return nil, err
		}
		cm, err := parseCommitment(cfg, commitment)
		if err != nil {
			return nil, err
		}
		if cm.try != try || Sum(sub) != cm.macHashes[j] {
			return nil, fmt.Errorf("the MAC sub-batch is not the one the commitment of try %d names for garbling %d", try, j)
		}
		b, m, err := ot.RequestHeader(sub)
		if err != nil {
			return nil, err
		}
		if m != 2*n {
			return nil, fmt.Errorf("a MAC sub-batch of %d OTs", m)
		}
		for send.Batch() < b {
			if err := send.Skip(); err != nil {
				return nil, err
			}
		}
		if send.Batch() != b {
			return nil, fmt.Errorf("MAC sub-batch of batch %d after batch %d", b, send.Batch())
		}
		return send.Correlated(sub)
	}
	var prev *evaluatorAuth
	if t > 0 {
		q, err := rowsOf(pub.Try-1, c.PrevCommitment, c.PrevMAC, c.PrevChoice)
		if err != nil {
			return fmt.Errorf("%w: try %d: %v", ErrNotProven, t-1, err)
		}
		lp := rc.layout[movers[t-1]]
		mpos := canonicalPositions(lp.StateMask, cfg.ColorOf(movers[t-1]))
		prev = &evaluatorAuth{keys: make([]ot.Block, n)}
		for k, x := range mpos {
			prev.keys[k] = q[n+x]
		}
	}
	q, err := rowsOf(pub.Try, c.Commitment, c.MAC, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: try %d: %v", ErrNotProven, t, err)
	}
	mover := cfg.PartyOf(pub.ToMove)
	l := rc.layout[mover]
	labels, opening, err := splitAuthLabels(cfg, c.Labels)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	own, _, err := parseCheckedLabels(labels, l.NumInputs[circuit.Garbler])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	sums, err := expectedOpening(l, pub.ToMove, q, prev, own, send.Secret())
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	want := macOpening(cfg, pub.Try, sums)
	if bytes.Equal(want[:], opening) {
		return fmt.Errorf("%w: the garbler's MAC opening of try %d is the one its MACs give", ErrNotProven, t)
	}
	return nil
}

// EvaluatorShareCertificate proves that the evaluator's share inputs of
// a try of a game of the authenticated state (MPC-D29) were not its
// share: a sum Z_j of its choice is neither value its labels give. It
// holds what the garbler reveals of the two garblings ĵ whose labels the
// sums are made of — their seeds and reverse keys, which their signed
// commitments pin — and the messages of the record the judge replays
// them with, to check that everything the garbler sent of them was
// honest (so that the evaluator's labels were the ones those seeds give
// and only its own choices can make a sum wrong).
type EvaluatorShareCertificate struct {
	// Try is the try number.
	Try uint64
	// PrevSeed and Seed are the seeds of garbling ĵ of the try before
	// (zero at try 0) and of the try, PrevKeys and Keys their reverse
	// keys K.
	PrevSeed, Seed prg.Seed
	PrevKeys, Keys []ot.Key
	// The messages of the try before (nil at try 0) and of the try: the
	// commitments part of the garbler's commitment (it names each
	// garbling's corrections by their digest) and the evaluator's choice
	// (it names its request of garbling ĵ by its digest), with the parts
	// of garbling ĵ they name: the evaluator's request of ĵ (an ot
	// request) and the garbler's corrections of ĵ (16 bytes each);
	// PrevLabels the garbler's labels message of the try before.
	PrevCommitment, Commitment   []byte
	PrevRequestPart, RequestPart []byte
	PrevCorrections, Corrections []byte
	PrevChoice, Choice           []byte
	PrevLabels                   []byte
	// PrevFlips is the evaluator's flips message of the try before when
	// that try came by flips (MPC-D52; its digest is the record's
	// TryRecord.Flips), nil otherwise: the flips place the flip wires'
	// labels in PrevLabels.
	PrevFlips []byte
}

// ShareCertificate returns the certificate that convicts the evaluator
// when the garbler's machine failed on its choice's sums (MPC-D29), or
// nil. The session fills in the messages it holds by their digests (the
// ones of the try before).
func (g *Garbler) ShareCertificate() *EvaluatorShareCertificate {
	if g.shareCert == nil {
		return nil
	}
	c := *g.shareCert
	return &c
}

// JudgeEvaluatorShare judges a certificate against the evaluator of try
// t of a game's record: nil when it convicts the evaluator, else an
// error wrapping ErrNotProven. The judge opens the two garblings ĵ with
// the revealed seeds and keys (the commitments pin both) and checks
// everything the garbler sent of them: garbling ĵ of the try before
// made again from its seed is the one committed to and sent, the
// garbler's labels of it open their commitments, and the corrections of
// both are the ones the seeds, the keys and the evaluator's requests
// give (the requests passing their checks under those keys). Then the
// evaluator's labels were the ones the seeds give, and a sum that is
// neither of its two values was made of other choices than its share:
// a garbler that deviated in any of it proves nothing, and an honest
// evaluator's sums are always right.
func JudgeEvaluatorShare(rec Record, t int, c EvaluatorShareCertificate) error {
	cfg := rec.Config
	if err := checkAuthenticatedTry(rec, t); err != nil {
		return err
	}
	same := func(tr TryRecord, cm, choice []byte) bool {
		return tr.Sent >= 3 && Sum(cm) == tr.Commitment && Sum(choice) == tr.Choice
	}
	if !same(rec.Tries[t], c.Commitment, c.Choice) {
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t)
	}
	if t > 0 && (!same(rec.Tries[t-1], c.PrevCommitment, c.PrevChoice) || Sum(c.PrevLabels) != rec.Tries[t-1].Labels) {
		return fmt.Errorf("%w: the messages of try %d are not the record's", ErrNotProven, t-1)
	}
	pub, movers, _, err := replayPublic(cfg, Record{Config: cfg, Tries: rec.Tries[:t]})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if pub.Try != c.Try {
		return fmt.Errorf("%w: the certificate is of try %d, the record's try %d is try %d", ErrNotProven, c.Try, t, pub.Try)
	}
	rc, err := circuitsFor(cfg)
	if err != nil {
		return err
	}
	// open checks one try's garbling ĵ: the seed and keys against the
	// commitment, the corrections of ĵ; it returns ĵ's garbling (made
	// again) and the sums of the choice.
	open := func(try uint64, mover circuit.Party, seed prg.Seed, keys []ot.Key, cmb, reqPart, corrPart, choice []byte) (*copyGarbling, []gc.Label, error) {
		cm, err := parseCommitment(cfg, cmb)
		if err != nil {
			return nil, nil, err
		}
		if cm.try != try || cm.mover != mover {
			return nil, nil, fmt.Errorf("the commitment names try %d for the %v", cm.try, cm.mover)
		}
		ch, err := parseAuthChoice(cfg, try, choice)
		if err != nil {
			return nil, nil, err
		}
		j, z := ch.j, ch.z
		if Sum(reqPart) != ch.request || Sum(corrPart) != cm.corrHashes[j] {
			return nil, nil, fmt.Errorf("the request or the corrections of garbling %d are not the ones the choice and the commitment name", j)
		}
		if seedHash(cfg, try, j, seed) != cm.entries[j][0] || len(keys) != ot.Kappa || keysHash(cfg, try, j, keys) != cm.keyHashes[j] {
			return nil, nil, fmt.Errorf("the seed or the keys of garbling %d are not the ones committed to", j)
		}
		cp, err := garbleCopy(cfg, rc, mover, try, j, seed, copyHooks{})
		if err != nil {
			return nil, nil, err
		}
		m := rc.layout[mover].NumInputs[circuit.Evaluator]
		corr, err := parseCorrectionBytes(corrPart, cfg.garblingOTs(m))
		if err != nil {
			return nil, nil, err
		}
		bad, err := wrongCorrection(cfg, rc, mover, try, j, seed, cp.keys.Delta, keys, reqPart, corr)
		if err != nil {
			return nil, nil, err
		}
		if bad >= 0 {
			return nil, nil, fmt.Errorf("the garbler's correction of input %d of garbling %d is not the one its seed gives", bad, j)
		}
		return cp, z, nil
	}
	var prev *garblerAuth
	if t > 0 {
		mp := movers[t-1]
		cp, _, err := open(pub.Try-1, mp, c.PrevSeed, c.PrevKeys, c.PrevCommitment, c.PrevRequestPart, c.PrevCorrections, c.PrevChoice)
		if err != nil {
			return fmt.Errorf("%w: try %d: %v", ErrNotProven, t-1, err)
		}
		// Garbling ĵ of the try before, as committed to and as sent.
		cm, _ := parseCommitment(cfg, c.PrevCommitment)
		j, _, _, _ := parseChoiceOf(cfg, pub.Try-1, c.PrevChoice)
		if cp.commit != cm.entries[j] || rec.Tries[t-1].Tables != cm.entries[j][1] {
			return fmt.Errorf("%w: try %d: garbling %d is not the one its seed gives, or not the one sent", ErrNotProven, t-1, j)
		}
		labels, _, err := splitAuthLabels(cfg, c.PrevLabels)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
		var d []bool
		flips := cfg.flipWires(rc, mp)
		if flips != nil {
			// The flips of the try before, the record's (MPC-D52).
			if Sum(c.PrevFlips) != rec.Tries[t-1].Flips {
				return fmt.Errorf("%w: the flips of try %d are not the record's", ErrNotProven, t-1)
			}
			if d, err = parseFlips(c.PrevFlips, pub.Try-1, len(flips)); err != nil {
				return fmt.Errorf("%w: try %d: %v", ErrNotProven, t-1, err)
			}
		}
		own, other, err := parseCheckedLabels(labels, rc.layout[mp].NumInputs[circuit.Garbler])
		if err != nil || openedLabelsDigest(cfg, pub.Try-1, j, own, other, flips, d) != cm.entries[j][2] {
			return fmt.Errorf("%w: try %d: the garbler's labels do not open their commitment", ErrNotProven, t-1)
		}
		// The MACs play no part in this judgement.
		prev = garblerAuthOf(rc.layout[mp], cfg.ColorOf(mp), cp, make([]ot.Block, 2*cfg.stateBits()))
	}
	mover := cfg.PartyOf(pub.ToMove)
	cp, z, err := open(pub.Try, mover, c.Seed, c.Keys, c.Commitment, c.RequestPart, c.Corrections, c.Choice)
	if err != nil {
		return fmt.Errorf("%w: try %d: %v", ErrNotProven, t, err)
	}
	rows := authRowsOf(cfg, pub.Try, rec.Tries[t].Request, c.Commitment)
	if k := checkParity(rc.layout[mover], pub.ToMove, rows, cp, prev, z); k >= 0 {
		return nil
	}
	return fmt.Errorf("%w: the evaluator's sums of try %d are the ones its labels give", ErrNotProven, t)
}

// verifyMACChoices judges a certificate about the garbler's MAC choices
// of an opened garbling (MPC-D29): nil when the check value of the
// garbling's MAC sub-batch of the reverse request c.Reverse is not the
// one of P_i, A_i and the pad bits seed_i gives. An honest garbler's is
// always that one; the sub-batch passed the evaluator's KOS check, which
// makes its check value the one of the choices its columns carry.
func verifyMACChoices(cfg Config, cm *commitment, c Certificate) error {
	if !cfg.authenticated() {
		return fmt.Errorf("%w: the game has no authenticated state", ErrNotProven)
	}
	i := c.Opened
	if i < 0 || i >= cfg.lambda() {
		return fmt.Errorf("%w: garbling %d of %d", ErrNotProven, i, cfg.lambda())
	}
	if seedHash(cfg, cm.try, i, c.Seed) != cm.entries[i][0] {
		return fmt.Errorf("%w: the seed is not the one committed to", ErrNotProven)
	}
	subs, err := splitMAC(cfg, cm.try, c.Reverse)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	err = ot.VerifyChoices(cfg.macSession(), subs[i], append(macBits(c.Seed, cfg.stateBits()), macPad(c.Seed)...))
	switch {
	case errors.Is(err, ot.ErrChoices):
		return nil
	case err != nil:
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	return fmt.Errorf("%w: the MAC choices of garbling %d are its colours and mask bits", ErrNotProven, i)
}

// partsOf returns the evaluator's request of garbling j of the checked
// try st and the garbler's corrections of it (MPC-D29's certificates
// carry these parts, which the choice and the commitment name).
func (g *Garbler) partsOf(st *garblerCommitted, j int) ([]byte, []byte, error) {
	m := g.rc.layout[st.mover].NumInputs[circuit.Evaluator]
	reqs, _, err := splitCOTRequest(g.cfg, st.try, m, st.request)
	if err != nil {
		return nil, nil, err
	}
	if err := parseCOTHeader(st.reply, kindCOTReply, g.cfg.cotReplySize(m), st.try, "OT corrections"); err != nil {
		return nil, nil, err
	}
	// The corrections of garbling j as the reply holds them (what
	// correctionBytes writes of splitCOTReply's).
	size := 16 * g.cfg.garblingOTs(m)
	return bytes.Clone(reqs[j]), bytes.Clone(st.reply[cotHeader+j*size : cotHeader+(j+1)*size]), nil
}

// checkAuthenticatedTry is what both share judges (MPC-D29) ask of the
// record first: a valid configuration of the authenticated state, and a
// try t it holds.
func checkAuthenticatedTry(rec Record, t int) error {
	if err := rec.Config.Validate(); err != nil {
		return err
	}
	if !rec.Config.authenticated() {
		return fmt.Errorf("%w: the game has no authenticated state", ErrNotProven)
	}
	if t < 0 || t >= len(rec.Tries) {
		return fmt.Errorf("%w: the record has no try %d", ErrNotProven, t)
	}
	return nil
}
