package session

// Phantom Go's bulk frames: the attachments of its messages (the
// secure computation's requests, garblings and openings), what the player
// checks of them on arrival and late, their digests in the record, and
// how they are made again for a peer that lacks them. Moved from
// player_phantom.go.
import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"

	"bytes"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/referee"
)

// phantomCheat is an action of a cheating program in tests
// (export_phantom_test.go): it changes the player's secrets.
type phantomCheat interface {
	cheat(p *phantomPlayer, h *phantomrules.Rules) error
}

// phantomAttachments is how many attachments each kind carries in a game
// of the game's one OT extension (MPC-D18).
var phantomAttachments = map[protocol.Kind]int{phantomrules.KindSetup: 1, phantomrules.KindBase: 1, phantomrules.KindTry: 1, phantomrules.KindRequest: 1,
	phantomrules.KindTryGarbling: 3, phantomrules.KindGarbling: 3, phantomrules.KindOutputs: 1, phantomrules.KindCommitment: 2, phantomrules.KindChoice: 1,
	phantomrules.KindFlips: 1}

// phantomReverseAttachments are the kinds that carry one more attachment
// in a game of the correlated input OTs (MPC-D28), the last one: the
// reverse extension's setup (commit, setup) or a reverse request (base:
// try 0's; a garbling: the next try's).
var phantomReverseAttachments = map[protocol.Kind]bool{phantomrules.KindCommit: true, phantomrules.KindSetup: true, phantomrules.KindBase: true,
	phantomrules.KindTryGarbling: true, phantomrules.KindGarbling: true}

// phantomAttachmentCount is how many attachments a message of kind
// carries in a game whose input OTs are correlated or not.
func phantomAttachmentCount(kind protocol.Kind, correlated bool) int {
	n := phantomAttachments[kind]
	if correlated && phantomReverseAttachments[kind] {
		n++
	}
	return n
}

// checkBulk checks, before a message of the other program is applied,
// that the attachments that came before it are the ones it signs: as
// many as its kind carries, each matching its digest (T-10). Attachments
// before a message of a kind that carries none are dropped here.
func (p *phantomPlayer) checkBulk(m *protocol.Machine, msg *protocol.Message, bulk [][]byte) error {
	h := p.rules(m)
	if h == nil {
		return nil
	}
	want := phantomAttachmentCount(msg.Kind, h.Correlated())
	if want == 0 {
		return nil
	}
	if len(bulk) != want {
		return fmt.Errorf("%s message with %d attachments, want %d", msg.Kind, len(bulk), want)
	}
	for i, d := range phantomDigests(msg, h.Correlated()) {
		if referee.Sum(bulk[i]) != d {
			return fmt.Errorf("attachment %d of the %s message does not match its digest", i, msg.Kind)
		}
	}
	if msg.Kind == phantomrules.KindCommit && h.Correlated() && p.me == phantomrules.Evaluator {
		// A start of the reverse base OTs the evaluator cannot answer
		// would leave it unable to send its setup: it is dropped, and
		// the garbler withholds its commitment (T-10, T-11).
		if err := referee.CheckReverseStart(h.Config(), bulk[0]); err != nil {
			return fmt.Errorf("the garbler's reverse base OT message: %v", err)
		}
	}
	return nil
}

// receiveBulk takes a message of the other program with its attachments
// (checked by checkBulk and applied to the machine), and feeds them to
// the player's machine. Content that no honest program sends is caught
// and accused at this program's next turn (the audit decides), or at once
// with a certificate (T-8(b)).
func (p *phantomPlayer) receiveBulk(m *protocol.Machine, me protocol.Role, msg *protocol.Message, bulk [][]byte) error {
	h := p.rules(m)
	if h == nil {
		return nil
	}
	if phantomAttachmentCount(msg.Kind, h.Correlated()) == 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ensure(m, h); err != nil {
		return err
	}
	if msg.Kind == phantomrules.KindCommit && p.correlated() && p.caught == "" && p.reverseAnswer == nil {
		return p.answerReverseStart(h, bulk)
	}
	if p.caught != "" || p.e == nil && p.g == nil {
		return nil // caught already, or the state is lost (auto says so)
	}
	switch msg.Kind {
	case phantomrules.KindSetup:
		p.base = bulk[0]
		if h.Correlated() {
			p.reverseBase = bulk[1]
		}
	case phantomrules.KindBase:
		p.base = bulk[0]
		if h.Correlated() {
			// Try 0's reverse request: taken at the evaluator's turn.
			p.reverse = bulk[1]
		}
		if err := p.e.BaseFinish(bulk[0]); err != nil {
			return p.catch(fmt.Errorf("the garbler's base OT answer: %w", err))
		}
	case phantomrules.KindTry, phantomrules.KindRequest:
		p.request = bulk[0]
		// The OT extension's consistency check, at once (T-8(a)); a
		// malformed request is left to Garble, as before.
		if err := p.g.CheckRequest(bulk[0]); errors.Is(err, referee.ErrDeviation) {
			return p.catch(err)
		}
		if msg.Kind == phantomrules.KindRequest || h.Machine.Options.Lambda > 1 {
			// The garbler's player is to try: garble ahead while it
			// thinks; a checked try's λ garblings are needed at once.
			p.g.Prepare()
		}
	case phantomrules.KindCommitment:
		return p.receiveCommitment(h, bulk)
	case phantomrules.KindChoice:
		return p.receiveChoice(h, bulk)
	case phantomrules.KindFlips:
		// The evaluator's player's try, as flips (MPC-D52): the
		// garbling of ĵ goes with their labels. Malformed flips are
		// accused; the audit decides (their digest is in the record).
		if err := p.g.TakeFlips(bulk[0]); err != nil {
			return p.catch(fmt.Errorf("the evaluator's flips of try %d: %w", h.Public.Try, err))
		}
		p.keepFlips(bulk[0], h.Public.Try)
	case phantomrules.KindTryGarbling, phantomrules.KindGarbling:
		// The digest of the tables the message signs, which checkBulk
		// compared with the attachment (MPC-D49).
		return p.receiveGarbling(h, bulk, phantomDigests(msg, h.Correlated())[0])
	case phantomrules.KindOutputs:
		return p.receiveOutputs(h, msg, bulk)
	}
	return nil
}

// catch notes err as the other program's deviation, accused at this
// program's next turn; the message is taken.
func (p *phantomPlayer) catch(err error) error {
	p.caught = err.Error()
	return nil
}

// answerReverseStart takes the garbler's start of the reverse base OTs
// (MPC-D28) and answers it.
func (p *phantomPlayer) answerReverseStart(h *phantomrules.Rules, bulk [][]byte) error {
	// The garbler's start of the reverse base OTs (MPC-D28): the
	// evaluator draws its seed (unless a restart kept one, with no
	// message of it sent) and answers it now, with its setup to
	// come. A start it cannot answer is the garbler's fault.
	p.reverseBase = bulk[0]
	if p.e == nil || p.opening == nil {
		if _, err := p.newEvaluator(h.Config()); err != nil {
			return err
		}
	}
	answer, err := p.e.ReverseRespond(bulk[0])
	if err != nil {
		// Signed by its digest: the audit proves it (accused at this
		// program's next turn).
		p.caught = fmt.Sprintf("the garbler's reverse base OT message: %v", err)
		return nil
	}
	p.reverseAnswer = answer
	return nil
}

// receiveCommitment opens the garbler's commitment (a checked try):
// the evaluator's choice, and the evidence kept.
func (p *phantomPlayer) receiveCommitment(h *phantomrules.Rules, bulk [][]byte) error {
	cm := referee.Commitment{Commitments: bulk[0], Reply: bulk[1]}
	choice, err := p.e.Open(cm)
	if err != nil {
		if c := p.e.Certificate(); c != nil {
			if v := phantomrules.CertificateViolation(h.Public.Try, c, err); v != nil {
				p.caught = err.Error()
				return v
			}
		}
		return p.catch(err)
	}
	p.choice, p.opened = choice, p.e.Kept()
	p.keepEvidence(h, bulk[0])
	p.keepEvidence(h, choice)
	return nil
}

// receiveChoice checks the evaluator's choice (a checked try); its
// share inputs not its share (MPC-D29) or a request not sent (MPC-D31)
// are proven at once when the certificate fits.
func (p *phantomPlayer) receiveChoice(h *phantomrules.Rules, bulk [][]byte) error {
	if err := p.g.CheckChoice(bulk[0]); err != nil {
		if c := p.g.ShareCertificate(); c != nil {
			// The evaluator's share inputs are not its share
			// (MPC-D29): proven at once when the certificate fits.
			p.fillGarblerEvidence(h, c)
			if v := phantomrules.EvaluatorShareViolation(c, err); v != nil {
				p.caught = err.Error()
				return v
			}
		}
		if c := p.g.RequestDigestCertificate(); c != nil {
			// Its choice names another request of ĵ than the one it
			// sent (MPC-D31): proven by the two signed messages.
			if v := phantomrules.RequestDigestViolation(c, err); v != nil {
				p.caught = err.Error()
				return v
			}
		}
		return p.catch(err)
	}
	p.choice = bulk[0]
	if h.Flipped() && p.correlated() {
		// The next try's reverse request, while the evaluator's player
		// thinks (MPC-D55): the garbling after its flips takes it made.
		// An error here is the garbling's to report.
		_, _ = p.g.ReverseRequestAhead()
	}
	return nil
}

// receiveGarbling evaluates the garbler's garbling of the try: the
// announcement told, the outputs, the share and its MACs kept; the next
// try's reverse request kept. tables is the digest of the tables the
// message signs, compared with bulk[0] on arrival (checkBulk): the
// evaluator takes it instead of hashing them again (MPC-D49).
func (p *phantomPlayer) receiveGarbling(h *phantomrules.Rules, bulk [][]byte, tables referee.Digest) error {
	try := h.Public.Try
	if h.Correlated() && !bytes.Equal(p.reverse, bulk[3]) {
		// The next try's reverse request: kept, never taken now
		// (takeReverse, after this try's outputs); this try's is kept
		// too (secrets one try ahead of the record, PN-D15).
		tr, _ := h.Current()
		p.prevReverse, p.reverse = p.memo.sums.with(tr.Reverse, p.reverse, p.prevReverse), bulk[3]
	}
	o, a, err := p.e.Evaluate(referee.Garbling{Tables: bulk[0], Labels: bulk[1], Reply: bulk[2], TablesSum: &tables})
	if err != nil {
		if c := p.e.Certificate(); c != nil {
			if v := phantomrules.CertificateViolation(try, c, err); v != nil {
				p.caught = err.Error()
				return v
			}
		}
		if c := p.e.ShareCertificate(); c != nil {
			// The garbler's share inputs are not its share (MPC-D29).
			p.fillEvaluatorEvidence(h, c)
			if v := phantomrules.GarblerShareViolation(c, err); v != nil {
				p.caught = err.Error()
				return v
			}
		}
		return p.catch(err)
	}
	if err := p.tell(try, a); err != nil {
		return p.catch(err)
	}
	p.outputs, p.outputsTry = &o, try
	p.shares = map[uint64][]byte{try: p.shares[try], try + 1: referee.EncodeShare(p.e.Share())}
	if h.Config().AuthState {
		// Kept with the share (MPC-D29).
		p.auths = map[uint64][]byte{try: p.auths[try], try + 1: p.e.EncodeAuth()}
	}
	return nil
}

// receiveOutputs finishes the try with the evaluator's outputs: the
// announcement told, and the next try prepared.
func (p *phantomPlayer) receiveOutputs(h *phantomrules.Rules, msg *protocol.Message, bulk [][]byte) error {
	var b phantomrules.OutputsBody
	protocol.DecodeBody(msg.Body, &b)
	a, err := p.g.Finish(referee.Outputs{Pass: b.Pass, Legal: b.Legal, Labels: bulk[0]})
	if err != nil {
		return p.catch(err)
	}
	if err := p.tell(b.Try, a); err != nil {
		return p.catch(err)
	}
	if p.correlated() && p.g.Ready() {
		// The reverse request sent ahead with the garbling is now
		// the try's (MPC-D28): the garbler's checks of the coming
		// request use its keys.
		// (An error here is this machine's, not the other's: it
		// shows again at the commitment.)
		_, _ = p.g.ReverseRequest()
	}
	if h.Machine.Options.Lambda > 1 && p.g.Ready() {
		// The λ garblings of the next try, before its request comes,
		// on their own goroutines: the announcement goes to the
		// player meanwhile (MPC-D24).
		p.g.PrepareAhead()
	}
	return nil
}

// checkLate takes the result of the check of the opened garblings of
// the checked try under way (MPC-D21) when it ended while this program
// waits for garbling ĵ: a garbling that differs from its commitment is
// reported at once with its certificate, so that a garbler that learned
// from the choice that it will be caught cannot escape the proof by
// withholding garbling ĵ. The loop calls it every second.
func (p *phantomPlayer) checkLate(m *protocol.Machine) error {
	h := p.rules(m)
	if h == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.e == nil || p.caught != "" || p.restored != nil {
		return nil
	}
	err := p.e.Poll()
	if err == nil {
		return nil
	}
	p.caught = err.Error()
	if c := p.e.Certificate(); c != nil {
		if v := phantomrules.CertificateViolation(h.Public.Try, c, err); v != nil {
			return v
		}
	}
	return nil
}

// phantomDigests returns the digests of the attachments a message of
// Phantom Go signs, in the order they travel (none for the kinds without
// attachments).
func phantomDigests(msg *protocol.Message, correlated bool) []referee.Digest {
	switch msg.Kind {
	case phantomrules.KindCommit:
		var b phantomrules.CommitBody
		protocol.DecodeBody(msg.Body, &b)
		if correlated {
			return []referee.Digest{b.ReverseBase}
		}
		return nil
	case phantomrules.KindSetup:
		var b phantomrules.SetupBody
		protocol.DecodeBody(msg.Body, &b)
		if correlated {
			return []referee.Digest{b.Base, b.ReverseBase}
		}
		return []referee.Digest{b.Base}
	case phantomrules.KindBase:
		var b phantomrules.BaseBody
		protocol.DecodeBody(msg.Body, &b)
		if correlated {
			return []referee.Digest{b.Base, b.Reverse}
		}
		return []referee.Digest{b.Base}
	case phantomrules.KindTry, phantomrules.KindRequest:
		var b phantomrules.RequestBody
		protocol.DecodeBody(msg.Body, &b)
		return []referee.Digest{b.Request}
	case phantomrules.KindTryGarbling, phantomrules.KindGarbling:
		var b phantomrules.GarblingBody
		protocol.DecodeBody(msg.Body, &b)
		if correlated {
			return []referee.Digest{b.Tables, b.Labels, b.Reply, b.Reverse}
		}
		return []referee.Digest{b.Tables, b.Labels, b.Reply}
	case phantomrules.KindOutputs:
		var b phantomrules.OutputsBody
		protocol.DecodeBody(msg.Body, &b)
		return []referee.Digest{b.Labels}
	case phantomrules.KindCommitment:
		var b phantomrules.CommitmentBody
		protocol.DecodeBody(msg.Body, &b)
		return []referee.Digest{b.Commitments, b.Reply}
	case phantomrules.KindChoice:
		var b phantomrules.ChoiceBody
		protocol.DecodeBody(msg.Body, &b)
		return []referee.Digest{b.Choice}
	case phantomrules.KindFlips:
		var b phantomrules.FlipsBody
		protocol.DecodeBody(msg.Body, &b)
		return []referee.Digest{b.Flips}
	}
	return nil
}

// remakeBulk returns the attachments of the player's own message msg,
// made again from its seed and secrets (PN-D14): after a restart the
// attachments of a message the other program may lack are not on disk.
// They are checked against the digests msg signs; an error means they
// cannot be made again (the state is lost, or msg is no longer the one
// under way).
func (p *phantomPlayer) remakeBulk(m *protocol.Machine, me protocol.Role, msg *protocol.Message) ([][]byte, error) {
	h := p.rules(m)
	if h == nil || msg.From != me || phantomAttachmentCount(msg.Kind, h.Correlated()) == 0 {
		return nil, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ensure(m, h); err != nil {
		return nil, err
	}
	var bulk [][]byte
	// reverse is the last attachment of a game of the correlated input
	// OTs (MPC-D28), made again: nil when it cannot be.
	var reverse []byte
	switch msg.Kind {
	case phantomrules.KindCommit:
		if p.g != nil {
			if start, _ := p.g.AgainReverse(); start != nil {
				bulk = [][]byte{start}
			} else if start, err := p.g.ReverseStart(); err == nil {
				bulk = [][]byte{start}
			}
		}
	case phantomrules.KindSetup, phantomrules.KindTry, phantomrules.KindRequest:
		if p.e != nil {
			base, req := p.e.Again()
			if msg.Kind == phantomrules.KindSetup {
				req = base
				reverse = p.reverseAnswer
				if reverse == nil {
					reverse = p.e.AgainReverse()
				}
			}
			if req != nil {
				bulk = [][]byte{req}
			}
		}
	case phantomrules.KindBase, phantomrules.KindTryGarbling, phantomrules.KindGarbling:
		if p.g != nil {
			base, gb := p.g.Again()
			switch {
			case msg.Kind == phantomrules.KindBase && base != nil:
				bulk = [][]byte{base}
				if _, rev := p.g.AgainReverse(); rev != nil {
					reverse = rev
				} else if rev, err := p.g.ReverseRequest(); err == nil {
					reverse = rev
				}
			case msg.Kind != phantomrules.KindBase && gb != nil:
				bulk = [][]byte{gb.Tables, gb.Labels, gb.Reply}
				if rev, err := p.g.ReverseRequestAhead(); err == nil {
					reverse = rev
				}
			}
		}
	case phantomrules.KindOutputs:
		if p.outputs != nil {
			bulk = [][]byte{p.outputs.Labels}
		}
	case phantomrules.KindCommitment:
		if p.g != nil {
			if c := p.g.AgainCommitment(); c != nil {
				bulk = [][]byte{c.Commitments, c.Reply}
			}
		}
	case phantomrules.KindChoice:
		if p.e != nil && p.e.AgainChoice() != nil {
			bulk = [][]byte{p.e.AgainChoice()}
		}
	case phantomrules.KindFlips:
		if p.e != nil && p.e.AgainFlips() != nil {
			bulk = [][]byte{p.e.AgainFlips()}
		} else if p.flips != nil {
			bulk = [][]byte{p.flips}
		}
	}
	if h.Correlated() && phantomReverseAttachments[msg.Kind] && msg.Kind != phantomrules.KindCommit && bulk != nil {
		if reverse == nil {
			bulk = nil
		} else {
			bulk = append(bulk, reverse)
		}
	}
	digests := phantomDigests(msg, h.Correlated())
	if len(bulk) != len(digests) {
		return nil, fmt.Errorf("protocol: the attachments of %s message %d cannot be made again", msg.Kind, msg.Seq)
	}
	for i, d := range digests {
		if referee.Sum(bulk[i]) != d {
			return nil, fmt.Errorf("protocol: the attachments of %s message %d made again differ from the record", msg.Kind, msg.Seq)
		}
	}
	return bulk, nil
}

// fillEvaluatorEvidence completes the evaluator's certificate against the
// garbler (MPC-D29) with what the session holds: the reverse setup start.
// A machine rebuilt after a restart has the messages of the try before
// from the secrets (rebuild, Evaluator.ResumeAuthEvidence); without them
// (an older program's secrets) the certificate does not go, and the
// evaluator accuses and the audit decides.
func (p *phantomPlayer) fillEvaluatorEvidence(h *phantomrules.Rules, c *referee.GarblerShareCertificate) {
	if c.ReverseStart == nil && referee.Sum(p.reverseBase) == h.Record.Reverse[0] {
		c.ReverseStart = p.reverseBase
	}
}

// fillGarblerEvidence completes the garbler's certificate against the
// evaluator (MPC-D29) with what the session holds by digest: the choice
// of the try before. A machine rebuilt after a restart has the other
// messages of the try before from the secrets (rebuild,
// Garbler.ResumeAuthEvidence); without them (an older program's secrets)
// the certificate does not go: the garbler accuses, and the audit
// decides.
func (p *phantomPlayer) fillGarblerEvidence(h *phantomrules.Rules, c *referee.EvaluatorShareCertificate) {
	t := int(c.Try)
	if t == 0 || t >= len(h.Record.Tries) {
		return
	}
	if c.PrevChoice == nil {
		c.PrevChoice = withDigest(h.Record.Tries[t-1].Choice, p.prevChoice, p.choice, p.olderChoice)
	}
}
