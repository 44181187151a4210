package referee

import (
	"bytes"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/gc"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Resuming a machine after a restart (PN-D9). The machines are
// deterministic, so a party rebuilds its machine from its seed and the
// signed record: the OT machines skip the batches of the record (every
// batch reads streams of its own, ot.Sender.Skip), the garbler's share is its mask of the last try, and
// a message of the try under way that the record holds is made again,
// byte for byte, and checked against its digest. What the record cannot
// give is kept by the session: the other party's setup message, the
// party's own tries, the evaluator's share, the garbler's pending request.

// replayPublic walks the complete tries of rec and returns the public
// state after them, the mover party of each, and how many tries each
// party's player made.
func replayPublic(cfg Config, rec Record) (Public, []circuit.Party, [2]int, error) {
	pub := NewPublic()
	var movers []circuit.Party
	var made [2]int
	for t, tr := range rec.Tries {
		if full := cfg.MessagesOf(cfg.PartyOf(pub.ToMove)); tr.Sent != full {
			if t != len(rec.Tries)-1 {
				return pub, nil, made, fmt.Errorf("%w: try %d has %d of its %d messages", ErrRecord, t, tr.Sent, full)
			}
			break
		}
		if pub.Ended() {
			return pub, nil, made, fmt.Errorf("%w: try %d after two passes", ErrRecord, t)
		}
		p := cfg.PartyOf(pub.ToMove)
		movers = append(movers, p)
		made[p]++
		pub = pub.After(tr.Pass, tr.Legal)
	}
	return pub, movers, made, nil
}

// GarblerKept is what a session keeps for the garbler's resume that its
// record holds only by digest: the evaluator's messages the garbler
// received, and its player's tries. Which of them a game has depends on
// its configuration; a message of a form the game does not have must be
// nil.
type GarblerKept struct {
	// BaseStart is the evaluator's base OT message (nil if the record
	// has none yet).
	BaseStart []byte
	// ReverseAnswer is the evaluator's answer to the reverse setup
	// ([Evaluator.ReverseRespond], MPC-D28) if the record holds it.
	ReverseAnswer []byte
	// Tries are the garbler's player's tries as revealed at the end (at
	// least those the record holds).
	Tries []engine.Point
	// Request, Choice and Flips are the evaluator's request, choice
	// (MPC-D16) and flips (MPC-D52) of the try under way, each if the
	// record holds it (the request if the session kept it: without it a
	// garbling the record holds is made again without its OT reply).
	Request, Choice, Flips []byte
	// PrevChoice and PrevFlips are the evaluator's choice and flips of
	// the last complete try of the record, in a game of the
	// authenticated state (MPC-D29, MPC-D30): the choice carries its
	// seed transfer response of the next try, and both go in a
	// certificate of the next try. PrevFlips only when that try came by
	// flips (MPC-D52).
	PrevChoice, PrevFlips []byte
}

// ResumeGarblerKept rebuilds the garbler of a game in the state its
// record rec leaves it in, from its seed and what the session kept (k).
// A try whose garbling the record holds is garbled again and checked
// against the record, and with the request its OT reply is made again
// too; one whose request only the record holds leaves the garbler ready
// to garble it. A checked try whose commitment the record holds is
// committed to again from the request (MPC-D16), its choice checked
// again, its flips taken again (MPC-D52), and its garbling made again if
// the record holds it. In a game of the correlated input OTs (MPC-D28)
// the reverse setup message and the reverse request of the try under
// way, when the record holds them, are made again and checked against
// it ([Garbler.AgainReverse]). What was made again is kept for
// [Garbler.Again] and [Garbler.AgainCommitment].
func ResumeGarblerKept(cfg Config, seed prg.Seed, rec Record, k GarblerKept) (*Garbler, error) {
	switch {
	case !cfg.correlated() && k.ReverseAnswer != nil:
		return nil, fmt.Errorf("%w: a reverse setup answer kept for a game of the %v input OTs", ErrConfig, cfg.InputOT)
	case !cfg.authenticated() && (k.PrevChoice != nil || k.PrevFlips != nil):
		return nil, fmt.Errorf("%w: messages of the last complete try kept for a game without the authenticated state", ErrConfig)
	case !cfg.TryFlips && (k.Flips != nil || k.PrevFlips != nil):
		return nil, fmt.Errorf("%w: flips kept for a game whose tries do not come by flips", ErrConfig)
	}
	return resumeGarbler(cfg, seed, rec, k)
}

func resumeGarbler(cfg Config, seed prg.Seed, rec Record, k GarblerKept) (*Garbler, error) {
	g, err := NewGarbler(cfg, seed)
	if err != nil {
		return nil, err
	}
	// The reverse setup (MPC-D28) may have come before the base OTs.
	if err := g.resumeReverseSetup(cfg, rec, k.ReverseAnswer); err != nil {
		return nil, err
	}
	if rec.BaseSent < 2 {
		// The base OTs are not answered: the garbler answers the
		// evaluator's message when it comes (again).
		return g, nil
	}
	if err := g.resumeBase(rec, k.BaseStart); err != nil {
		return nil, err
	}
	pub, movers, made, err := replayPublic(cfg, rec)
	if err != nil {
		return nil, err
	}
	tries := k.Tries
	if len(tries) < made[circuit.Garbler] {
		return nil, fmt.Errorf("%w: %d tries kept, the record has %d", ErrRecord, len(tries), made[circuit.Garbler])
	}
	if err := g.skipCompleteTries(cfg, rec, movers); err != nil {
		return nil, err
	}
	if err := g.resumeShare(cfg, rec, movers); err != nil {
		return nil, err
	}
	g.pub, g.movers = pub, movers
	g.tries = append([]engine.Point(nil), tries[:made[circuit.Garbler]]...)
	if err := g.resumeSeedResponse(cfg, rec, movers, k.PrevChoice); err != nil {
		return nil, err
	}
	if err := g.resumePrevFlips(cfg, rec, movers, k.PrevFlips); err != nil {
		return nil, err
	}
	if err := g.resumeReverseRequest(cfg, rec, pub, movers); err != nil {
		return nil, err
	}
	if cfg.Checked() && len(rec.Tries) > len(movers) && rec.Tries[len(movers)].Sent >= 2 {
		if err := g.resumeChecked(rec.Tries[len(movers)], tries, k.Request, k.Choice, k.Flips); err != nil {
			return nil, err
		}
		return g, nil
	}
	if len(rec.Tries) > len(movers) && rec.Tries[len(movers)].Sent >= 2 {
		// The garbling of the try under way was sent: make it again.
		if err := g.garbleAgain(cfg, rec.Tries[len(movers)], pub, tries, k.Request); err != nil {
			return nil, err
		}
		return g, nil
	}
	g.phase = phaseReady
	return g, nil
}

// resumeReverseSetup makes the reverse setup (MPC-D28) again if the record
// has it, checked against the record, and takes the evaluator's answer
// kept if recorded.
func (g *Garbler) resumeReverseSetup(cfg Config, rec Record, reverseAnswer []byte) error {
	if cfg.correlated() && rec.ReverseSent >= 1 {
		r1, err := g.ReverseStart()
		if err != nil {
			return err
		}
		if Sum(r1) != rec.Reverse[0] {
			return fmt.Errorf("%w: the reverse setup message made again differs from the record", ErrRecord)
		}
		g.again.reverseStart = r1
		if rec.ReverseSent == 2 {
			if Sum(reverseAnswer) != rec.Reverse[1] {
				return fmt.Errorf("%w: the evaluator's reverse setup answer kept is not the one recorded", ErrRecord)
			}
			if err := g.ReverseFinish(reverseAnswer); err != nil {
				return err
			}
		}
	}
	return nil
}

// resumeBase answers the evaluator's base OT message kept again,
// checked against the record.
func (g *Garbler) resumeBase(rec Record, baseStart []byte) error {
	if Sum(baseStart) != rec.Base[0] {
		return fmt.Errorf("%w: the evaluator's base OT message kept is not the one recorded", ErrRecord)
	}
	m2, err := g.BaseRespond(baseStart)
	if err != nil {
		return err
	}
	if Sum(m2) != rec.Base[1] {
		return fmt.Errorf("%w: the base OT answer made again differs from the record", ErrRecord)
	}
	g.again.baseAnswer = m2
	return nil
}

// skipCompleteTries moves the garbler's OT extensions past the complete
// tries of movers; of the last complete try, authenticated, it makes the
// reverse and MAC batches again (MPC-D29).
func (g *Garbler) skipCompleteTries(cfg Config, rec Record, movers []circuit.Party) error {
	for t := range movers {
		if err := g.sender.Skip(); err != nil {
			return err
		}
		if cfg.authenticated() && t == len(movers)-1 {
			// The last complete try's reverse and MAC batches made again:
			// the garbler keeps of it its keys and MACs (MPC-D29).
			if err := g.resumeAuth(uint64(t), movers[t], rec.Tries[t]); err != nil {
				return err
			}
			continue
		}
		if cfg.correlated() {
			// λ reverse batches per try (MPC-D28), and as many MAC
			// batches (MPC-D29).
			for range cfg.lambda() {
				if err := g.revRecv.Skip(); err != nil {
					return err
				}
				if cfg.authenticated() {
					if err := g.macRecv.Skip(); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// resumeShare makes again the garbler's share of the referee's state
// after the last complete try.
func (g *Garbler) resumeShare(cfg Config, rec Record, movers []circuit.Party) error {
	if n := len(movers); n > 0 {
		last := movers[n-1]
		l := g.rc.layout[last]
		col := cfg.ColorOf(last)
		mask, err := g.resumeMask(l, uint64(n-1), last, rec.Tries[n-1])
		if err != nil {
			return err
		}
		if g.share, err = l.NextShare(circuit.Garbler, col, nil, mask); err != nil {
			return err
		}
	}
	return nil
}

// resumeSeedResponse takes, authenticated, the evaluator's seed transfer
// response of the try under way from its choice of the last complete try
// kept (MPC-D30), which a certificate of the next try carries (MPC-D29).
func (g *Garbler) resumeSeedResponse(cfg Config, rec Record, movers []circuit.Party, prevChoice []byte) error {
	if cfg.authenticated() && len(movers) > 0 {
		// The evaluator's seed transfer response of the try under way,
		// carried by its choice of the last complete try (MPC-D30).
		last := rec.Tries[len(movers)-1]
		if prevChoice == nil || Sum(prevChoice) != last.Choice {
			return fmt.Errorf("%w: the evaluator's choice of try %d is not kept", ErrRecord, len(movers)-1)
		}
		c, err := parseAuthChoice(cfg, uint64(len(movers)-1), prevChoice)
		if err != nil {
			return fmt.Errorf("%w: the evaluator's choice of try %d: %v", ErrRecord, len(movers)-1, err)
		}
		g.seedResp = append([]byte(nil), c.next...)
		// The choice goes in a certificate of the next try (MPC-D29).
		g.authPrev.choice = bytes.Clone(prevChoice)
	}
	return nil
}

// resumePrevFlips takes, authenticated, the evaluator's flips of the
// last complete try kept when that try came by flips (MPC-D52): a
// certificate of the next try carries them with the garbler's labels of
// that try, which they place.
func (g *Garbler) resumePrevFlips(cfg Config, rec Record, movers []circuit.Party, prevFlips []byte) error {
	n := len(movers)
	if !cfg.authenticated() || n == 0 || !cfg.flipped(movers[n-1]) {
		// (Flips kept of an older try are not this one's.)
		return nil
	}
	last := rec.Tries[n-1]
	if prevFlips == nil || Sum(prevFlips) != last.Flips {
		return fmt.Errorf("%w: the evaluator's flips of try %d are not kept", ErrRecord, n-1)
	}
	if _, err := parseFlips(prevFlips, uint64(n-1), len(cfg.flipWires(g.rc, movers[n-1]))); err != nil {
		return fmt.Errorf("%w: the evaluator's flips of try %d: %v", ErrRecord, n-1, err)
	}
	g.authPrev.flips = bytes.Clone(prevFlips)
	return nil
}

// resumeReverseRequest makes again the reverse request of the try under
// way if the record has it, checked against the record.
func (g *Garbler) resumeReverseRequest(cfg Config, rec Record, pub Public, movers []circuit.Party) error {
	if cfg.correlated() && len(rec.Tries) > len(movers) && rec.Tries[len(movers)].reversed() {
		// The reverse request of the try under way, made again.
		rev, err := g.ReverseRequest()
		if err != nil {
			return err
		}
		if Sum(rev) != rec.Tries[len(movers)].Reverse {
			return fmt.Errorf("%w: the reverse request of try %d made again differs from the record", ErrRecord, pub.Try)
		}
		g.again.reverse = rev
	}
	return nil
}

// garbleAgain makes again the garbling of the try under way tr, which
// was sent, checked against the record, and the OT reply to the request
// kept; the garbler then waits for the evaluator.
func (g *Garbler) garbleAgain(cfg Config, tr TryRecord, pub Public, tries []engine.Point, request []byte) error {
	mover := cfg.PartyOf(pub.ToMove)
	try := engine.NoPoint
	if mover == circuit.Garbler {
		if len(tries) <= len(g.tries) {
			return fmt.Errorf("%w: the garbler's try under way is not kept", ErrRecord)
		}
		try = tries[len(g.tries)]
	}
	l := g.rc.layout[mover]
	p, err := g.garble(pub.Try, mover)
	if err != nil {
		return err
	}
	mask := g.tryMask(l, pub.Try, p.mask)
	in, err := l.Inputs(circuit.Garbler, pub.ToMove, g.share, try, mask)
	if err != nil {
		return err
	}
	own, err := p.keys.Encode(int(circuit.Garbler), in)
	if err != nil {
		return err
	}
	labels := gc.MarshalLabels(own)
	if Sum(p.bytes) != tr.Tables || Sum(labels) != tr.Labels {
		return fmt.Errorf("%w: the garbling of try %d made again differs from the record", ErrRecord, pub.Try)
	}
	if request != nil && Sum(request) == tr.Request {
		// The OT reply too: the evaluator may lack the garbling.
		reply, err := g.sendInputs(request, p.keys)
		if err != nil {
			return fmt.Errorf("%w: the OT reply of try %d made again: %v", ErrRecord, pub.Try, err)
		}
		if Sum(reply) != tr.Reply {
			return fmt.Errorf("%w: the OT reply of try %d made again differs from the record", ErrRecord, pub.Try)
		}
		g.again.garbling = &Garbling{Tables: p.bytes, Labels: labels, Reply: reply}
	} else if err := g.sender.Skip(); err != nil {
		return err
	}
	g.cur = &garblerTry{keys: p.keys, mask: mask, try: try, mover: mover}
	if mover == circuit.Garbler {
		g.tries = append(g.tries, try)
	}
	g.movers = append(g.movers, mover)
	g.phase = phaseWaiting
	return nil
}

// resumeMask returns the garbler's mask bits of the complete try number
// try, whose record is tr and whose mover party is mover: from maskFor
// when they are circuit inputs; when they are in the decoding bits
// (MPC-D27), from the garbling the evaluator evaluated, garbled again:
// the try's own in a game without checking, else garbling ĵ, whose
// number the garbler's signed header of the garbling message (its digest
// tr.Reply) gives.
func (g *Garbler) resumeMask(l *circuit.RefereeLayout, try uint64, mover circuit.Party, tr TryRecord) ([]bool, error) {
	if !l.MasksInDecoding {
		return g.maskFor(try, l.MaskBits()), nil
	}
	if !g.cfg.Checked() {
		p, err := g.garble(try, mover)
		if err != nil {
			return nil, err
		}
		return p.mask, nil
	}
	_, cp, err := g.resumeChosen(try, mover, tr)
	if err != nil {
		return nil, err
	}
	return cp.mask, nil
}

// resumeChosen returns garbling ĵ of the complete checked try number try
// (mover party mover, record tr), garbled again: its number is the one
// the garbler's signed header of the garbling message (its digest
// tr.Reply) names.
func (g *Garbler) resumeChosen(try uint64, mover circuit.Party, tr TryRecord) (int, *copyGarbling, error) {
	for j := range g.cfg.lambda() {
		if Sum(marshalCorrections(try, j)) != tr.Reply {
			continue
		}
		seeds := ggmLevels(g.seed.Derive(labelPVCRoot, try), g.cfg.depth())[g.cfg.depth()]
		cp, err := garbleCopy(g.cfg, g.rc, mover, try, j, seeds[j], copyHooks{})
		if err != nil {
			return 0, nil, err
		}
		return j, cp, nil
	}
	return 0, nil, fmt.Errorf("%w: the garbling of checked try %d names no garbling of the %d", ErrRecord, try, g.cfg.lambda())
}

// resumeAuth makes the reverse and MAC batches of the complete try
// number try again (MPC-D29): it checks the reverse request against the
// record and keeps what the garbler keeps of the try for the next (its
// keys of the evaluator's share and blind labels, its MACs of garbling
// ĵ's mask bits, ĵ's seed and reverse keys; the messages of the try, for
// a certificate, are the session's to fill in).
func (g *Garbler) resumeAuth(try uint64, mover circuit.Party, tr TryRecord) error {
	r, err := g.makeReverse(try)
	if err != nil {
		return err
	}
	if Sum(r.msg) != tr.Reverse {
		return fmt.Errorf("%w: the reverse request of try %d made again differs from the record", ErrRecord, try)
	}
	j, cp, err := g.resumeChosen(try, mover, tr)
	if err != nil {
		return err
	}
	a := garblerAuthOf(g.rc.layout[mover], g.cfg.ColorOf(mover), cp, r.macs[j])
	a.seed, a.rkeys = cp.seed, r.keys[j]
	a.resumed = &resumedTry{try: try, mover: mover, j: j}
	g.authPrev = a
	return nil
}

// ResumeAuthEvidence gives a garbler rebuilt by
// [ResumeGarblerKept] the messages of the last complete try of
// its record that a certificate of the next try against the evaluator
// carries (MPC-D29) and that the machine does not make again: the
// evaluator's request of that try (the session keeps it by its digest),
// the commitments part of the garbler's commitment and its labels
// message (both in its secrets, written before the messages were sent).
// tr is the record of that try. The evaluator's request of garbling ĵ
// is cut from the request, and the corrections of ĵ made again from
// ĵ's seed, its reverse keys and that part, then checked against the
// digest the commitment names; the request, the commitments and the
// labels must be the ones whose digests tr holds. Without them (an older
// program's secrets) a certificate of the first try after the restart
// does not go, and the garbler accuses as before.
func (g *Garbler) ResumeAuthEvidence(tr TryRecord, request, commitments, labels []byte) error {
	a := g.authPrev
	if a == nil || a.resumed == nil {
		return fmt.Errorf("%w: no resumed try to complete", ErrState)
	}
	rt := a.resumed
	switch {
	case Sum(request) != tr.Request:
		return fmt.Errorf("%w: the request of try %d kept is not the one recorded", ErrRecord, rt.try)
	case Sum(commitments) != tr.Commitment:
		return fmt.Errorf("%w: the commitments of try %d kept are not the ones recorded", ErrRecord, rt.try)
	case Sum(labels) != tr.Labels:
		return fmt.Errorf("%w: the labels message of try %d kept is not the one recorded", ErrRecord, rt.try)
	case a.choice == nil:
		// (The resume took it, checked against the record.)
		return fmt.Errorf("%w: the choice of try %d is not kept", ErrRecord, rt.try)
	}
	cm, err := parseCommitment(g.cfg, commitments)
	if err != nil {
		return fmt.Errorf("%w: the commitments of try %d: %v", ErrRecord, rt.try, err)
	}
	if cm.try != rt.try || rt.j >= len(cm.corrHashes) {
		return fmt.Errorf("%w: the commitments kept are of try %d, not %d", ErrRecord, cm.try, rt.try)
	}
	m := g.rc.layout[rt.mover].NumInputs[circuit.Evaluator]
	reqs, _, err := splitCOTRequest(g.cfg, rt.try, m, request)
	if err != nil {
		return fmt.Errorf("%w: the request of try %d: %v", ErrRecord, rt.try, err)
	}
	corr, err := madeCorrections(g.cfg, g.rc, rt.mover, rt.try, rt.j, a.seed, a.rkeys, reqs[rt.j])
	if err != nil {
		return fmt.Errorf("%w: the corrections of try %d made again: %v", ErrRecord, rt.try, err)
	}
	corrPart := correctionBytes(corr)
	if Sum(corrPart) != cm.corrHashes[rt.j] {
		return fmt.Errorf("%w: the corrections of garbling %d of try %d made again differ from the commitment", ErrRecord, rt.j, rt.try)
	}
	a.commitment, a.requestPart, a.corrections, a.labels = bytes.Clone(commitments), bytes.Clone(reqs[rt.j]), corrPart, bytes.Clone(labels)
	return nil
}

// resumeChecked makes the checked try under way again, as far as tr
// holds it (MPC-D16).
func (g *Garbler) resumeChecked(tr TryRecord, tries []engine.Point, request, choice, flips []byte) error {
	try := g.pub.Try
	if request == nil || Sum(request) != tr.Request {
		return fmt.Errorf("%w: the request of checked try %d is not kept", ErrRecord, try)
	}
	g.phase = phaseReady
	c, err := g.Commit(request)
	if err != nil {
		return fmt.Errorf("%w: the commitment of try %d made again: %v", ErrRecord, try, err)
	}
	if c.Digests() != [2]Digest{tr.Commitment, tr.CommitReply} {
		return fmt.Errorf("%w: the commitment of try %d made again differs from the record", ErrRecord, try)
	}
	g.again.commitment = &c
	if tr.Sent < 3 {
		return nil
	}
	if choice == nil || Sum(choice) != tr.Choice {
		return fmt.Errorf("%w: the choice of checked try %d is not kept", ErrRecord, try)
	}
	if err := g.CheckChoice(choice); err != nil {
		return err
	}
	garbled := 4
	if g.cfg.flipped(g.cfg.PartyOf(g.pub.ToMove)) {
		// The evaluator's flips come before the garbling (MPC-D52).
		garbled = 5
		if tr.Sent < 4 {
			return nil
		}
		if flips == nil || Sum(flips) != tr.Flips {
			return fmt.Errorf("%w: the flips of try %d are not kept", ErrRecord, try)
		}
		if err := g.TakeFlips(flips); err != nil {
			return fmt.Errorf("%w: the flips of try %d: %v", ErrRecord, try, err)
		}
	}
	if tr.Sent < garbled {
		return nil
	}
	pt := engine.NoPoint
	if g.cfg.PartyOf(g.pub.ToMove) == circuit.Garbler {
		if len(tries) <= len(g.tries) {
			return fmt.Errorf("%w: the garbler's try under way is not kept", ErrRecord)
		}
		pt = tries[len(g.tries)]
	}
	gb, err := g.GarbleChosen(choice, pt)
	if err != nil {
		return err
	}
	if gb.Digests() != [3]Digest{tr.Tables, tr.Labels, tr.Reply} {
		return fmt.Errorf("%w: the garbling of try %d made again differs from the record", ErrRecord, try)
	}
	g.again.garbling = &gb
	return nil
}

// garblerAgain is what ResumeGarblerKept made again of the garbler's own
// messages that the record holds.
type garblerAgain struct {
	baseAnswer []byte
	garbling   *Garbling
	commitment *Commitment
	// reverseStart and reverse are the reverse setup message and the
	// reverse request of the try under way (MPC-D28).
	reverseStart, reverse []byte
}

// AgainReverse returns the reverse setup message and the reverse request
// of the try under way that [ResumeGarblerKept] made again (nil
// for what the record does not hold): the session sends them again to
// an evaluator that lacks them (MPC-D28).
func (g *Garbler) AgainReverse() (start, request []byte) {
	return g.again.reverseStart, g.again.reverse
}

// AgainReverse returns the evaluator's reverse setup answer that
// [ResumeCorrelatedEvaluator] made again (nil if none, MPC-D28).
func (e *Evaluator) AgainReverse() []byte { return e.again.reverseAnswer }

// AgainCommitment returns the commitment of the checked try under way
// that [ResumeGarblerKept] made again (nil if none), as Again does for
// the garbling.
func (g *Garbler) AgainCommitment() *Commitment { return g.again.commitment }

// AgainFlips returns the flips of the evaluator's try under way (MPC-D52)
// that a resume made again from the try kept, checked against the
// record (nil if the record does not hold them): the session sends them
// again to a garbler that lacks them; [Evaluator.Flips] of the try then
// refuses, the flips having gone.
func (e *Evaluator) AgainFlips() []byte { return e.again.flips }

// AgainChoice returns the choice of the checked try under way that
// [ResumeCheckedEvaluator] made again (nil if none): the session sends it
// if it was not sent, or again to a garbler that lacks it.
func (e *Evaluator) AgainChoice() []byte { return e.again.choice }

// Again returns the garbler's own messages that [ResumeGarblerKept] made
// again, byte for byte, from the seed and what the session kept, and
// checked against the digests of the record: its base OT answer (nil
// unless the record holds it) and the garbling of the try under way (nil
// unless the record holds it and the request was given). A session sends
// them again to an evaluator that lacks them, instead of keeping them on
// disk (PN-D14). A garbler made by NewGarbler has none, and the next
// Garble forgets them (its request shows the evaluator had them).
func (g *Garbler) Again() (baseAnswer []byte, garbling *Garbling) {
	return g.again.baseAnswer, g.again.garbling
}

// evaluatorAgain is what ResumeEvaluator made again of the evaluator's
// own messages that the record holds.
type evaluatorAgain struct {
	baseStart     []byte
	request       []byte
	choice        []byte
	reverseAnswer []byte
	// flips are the flips of the try under way (MPC-D52).
	flips []byte
}

// Again returns the evaluator's own messages that [ResumeEvaluator] made
// again, byte for byte, from the seed and what the session kept, and
// checked against the digests of the record: its base OT message (nil
// unless the record holds it) and the request of the try under way (nil
// unless the record holds it and not the garbling). A session sends them
// again to a garbler that lacks them (PN-D14). An evaluator made by
// NewEvaluator has none, and the next Evaluate forgets them (the
// garbling shows the garbler had them).
func (e *Evaluator) Again() (baseStart, request []byte) {
	return e.again.baseStart, e.again.request
}

// refuseCorrelatedResume refuses ResumeChecked* for a game of the
// correlated input OTs (MPC-D28), which needs the reverse setup
// messages: ResumeCorrelatedEvaluator (the garbler: ResumeGarblerKept).
func refuseCorrelatedResume(cfg Config) error {
	if cfg.correlated() {
		return fmt.Errorf("%w: a game of the %v input OTs (MPC-D28) resumes with ResumeCorrelatedEvaluator", ErrConfig, cfg.InputOT)
	}
	return nil
}
