package session

// Phantom Go's secrets: what the player keeps on disk (its seed, the
// try in flight), how it saves and restores them, and how it rebuilds its
// secure computation from them and the record after a restart. Moved from
// player_phantom.go.
import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"

	"encoding/json"
	"errors"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/prg"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// rebuild restores the machine from saved secrets in the state the
// record leaves it in (PN-D9): what the secrets hold beyond the record (a
// message made and not recorded, a message received and not recorded)
// is dropped, to be made or received again.
func (p *phantomPlayer) rebuild(m *protocol.Machine, h *phantomrules.Rules, s *phantomSecrets) error {
	p.caught = s.Caught
	if s.Seed == nil {
		return nil
	}
	p.opening, p.base = s.Seed, s.Base
	size := p.opts.Size
	tries := make([]engine.Point, len(s.Tries))
	for i, v := range s.Tries {
		pt, err := engine.ParseVertex(size, v)
		if err != nil {
			return fmt.Errorf("protocol: phantom secrets: try %q", v)
		}
		tries[i] = pt
	}
	at := rebuildPoint{cfg: h.Config(), rec: h.Record, tries: tries}
	at.messages = at.cfg.MessagesOf(at.cfg.PartyOf(h.Public.ToMove))
	for _, f := range s.Flips {
		at.flips = append(at.flips, f)
	}
	at.complete = uint64(len(at.rec.Tries))
	at.cur, at.sent = h.Current()
	if at.sent > 0 || at.cur.Reverse != (referee.Digest{}) {
		// Incomplete: under way, or (MPC-D28) only its reverse request.
		at.complete--
	}
	p.reverseBase, p.prevChoice, p.olderChoice = s.ReverseBase, s.PrevChoice, s.OlderChoice
	p.evidence = evidenceInOrder(h.Record, s.Evidence)
	// The evaluator's reverse requests, looked up by digest.
	for _, r := range s.Reverses {
		p.prevReverse, p.reverse = p.reverse, r
	}
	// The garbler's requests (Request: as an older version kept it).
	at.requests = [][]byte{s.Request}
	for _, r := range s.Requests {
		at.requests = append(at.requests, r)
	}
	told := at.complete // tries whose announcement the player has
	if p.me == phantomrules.Garbler {
		// The evaluator's flips the record holds, in its order
		// (MPC-D52).
		for i, tr := range at.rec.Tries {
			if f := withDigest(tr.Flips, at.flips...); tr.Flips != (referee.Digest{}) && f != nil {
				p.keepFlips(f, uint64(i))
			}
		}
		if err := p.rebuildGarbler(h, s, at); err != nil {
			return err
		}
	} else {
		var err error
		if told, err = p.rebuildEvaluator(h, s, at); err != nil {
			return err
		}
	}
	if err := p.ensure(m, h); err != nil {
		return err
	}
	return p.replayLog(m, s, told)
}

// rebuildPoint is where the record leaves the secure computation that
// rebuild restores: its configuration, the record, the tries the
// secrets list, how many tries are complete, the one under way and how
// many of its messages are sent, and the garbler's requests kept.
type rebuildPoint struct {
	cfg      referee.Config
	rec      referee.Record
	tries    []engine.Point
	complete uint64
	cur      referee.TryRecord
	sent     int
	requests [][]byte
	// messages is the number of messages of the try under way
	// (referee.Config.MessagesOf its mover); flips the evaluator's
	// flips kept (MPC-D52), looked up by digest.
	messages int
	flips    [][]byte
}

// rebuildGarbler resumes the garbler's machine at pt: the request and
// choice under way kept, the evaluator's answer if recorded, and the
// evidence of the last complete try a certificate of the next carries.
func (p *phantomPlayer) rebuildGarbler(h *phantomrules.Rules, s *phantomSecrets, pt rebuildPoint) error {
	cfg, rec, tries, complete, cur, sent, requests := pt.cfg, pt.rec, pt.tries, pt.complete, pt.cur, pt.sent, pt.requests
	var err error
	var request, choice []byte
	// The secrets may be one try ahead of the record (written
	// first): the try before's request and choice are kept too.
	if sent >= 3 && referee.Sum(s.Choice) == cur.Choice {
		choice = s.Choice
	} else if sent >= 3 && referee.Sum(s.PrevChoice) == cur.Choice {
		choice = s.PrevChoice
	}
	if sent >= 1 && sent < pt.messages {
		// With the garbling recorded, the request lets the garbler
		// make it again whole for an evaluator that lacks it
		// (PN-D14); secrets of an earlier version dropped it then.
		request = withDigest(cur.Request, requests...)
		if request == nil && sent == 1 {
			return errors.New("protocol: phantom secrets: the request under way is lost")
		}
	}
	k := referee.GarblerKept{BaseStart: s.Base, Tries: tries, Request: request, Choice: choice}
	if h.Correlated() {
		if rec.ReverseSent == 2 {
			k.ReverseAnswer = s.ReverseBase
		}
		if cfg.TryFlips && cur.Flips != (referee.Digest{}) {
			// The evaluator's flips of the try under way (MPC-D52).
			if k.Flips = withDigest(cur.Flips, pt.flips...); k.Flips == nil {
				return errors.New("protocol: phantom secrets: the flips under way are lost")
			}
		}
		if cfg.AuthState && complete > 0 {
			// The evaluator's choice of the last complete try carries
			// its seed transfer response of the next (MPC-D30); its
			// flips, if it came by flips, go in a certificate of the
			// next (MPC-D52).
			k.PrevChoice = withDigest(rec.Tries[complete-1].Choice, s.Choice, s.PrevChoice, s.OlderChoice)
			if d := rec.Tries[complete-1].Flips; cfg.TryFlips && d != (referee.Digest{}) {
				k.PrevFlips = withDigest(d, pt.flips...)
			}
		}
		// The resumed machine took the evaluator's answer if the
		// record holds it.
		p.reverseFinished = rec.ReverseSent == 2
	}
	p.g, err = referee.ResumeGarblerKept(cfg, p.seed(), rec, k)
	if err != nil {
		return err
	}
	p.request, p.choice = request, choice
	if cfg.AuthState && complete > 0 {
		// The messages of the last complete try that a certificate
		// of the next carries (MPC-D29): the request kept as the
		// try before's, the commitments and labels from the secrets.
		tr := rec.Tries[complete-1]
		prev := withDigest(tr.Request, requests...)
		p.prevRequest = prev
		cm, lb := withDigest(tr.Commitment, p.evidence...), withDigest(tr.Labels, p.evidence...)
		if prev != nil && cm != nil && lb != nil {
			// An error leaves the certificate out (the garbler then
			// accuses, as without the secrets): the game goes on.
			_ = p.g.ResumeAuthEvidence(tr, prev, cm, lb)
		}
	}
	return nil
}

// rebuildEvaluator resumes the evaluator's machine at pt from its share
// of the referee's state: the outputs under way or last sent, the kept
// opening, the reverse request and the evidence of the last complete try
// a certificate of the next carries. told is the number of tries whose
// announcement the player has.
func (p *phantomPlayer) rebuildEvaluator(h *phantomrules.Rules, s *phantomSecrets, pt rebuildPoint) (told uint64, err error) {
	cfg, rec, tries, complete, cur, sent := pt.cfg, pt.rec, pt.tries, pt.complete, pt.cur, pt.sent
	size := p.opts.Size
	told = complete
	shares := s.Shares
	if sent == pt.messages-1 {
		// The garbling is recorded: the evaluation was done and its
		// outputs kept before (the secrets are saved first).
		if s.Outputs == nil || s.OutputsTry != complete {
			return 0, errors.New("protocol: phantom secrets: the outputs under way are lost")
		}
		o := referee.Outputs{Pass: s.Outputs.Pass, Legal: s.Outputs.Legal, Labels: s.Outputs.Labels}
		rec.Tries = append([]referee.TryRecord(nil), rec.Tries...)
		rec.Tries[len(rec.Tries)-1] = cur.WithOutputs(o)
		p.outputs, p.outputsTry = &o, complete
		told++
	} else if s.Outputs != nil && complete > 0 && s.OutputsTry == complete-1 {
		// The outputs of the last complete try, sent: kept to be sent
		// again if the garbler lacks them (PN-D14).
		p.outputs = &referee.Outputs{Pass: s.Outputs.Pass, Legal: s.Outputs.Legal, Labels: s.Outputs.Labels}
		p.outputsTry = s.OutputsTry
	}
	share := shares[told]
	if share == nil && told == 0 {
		share = referee.EncodeShare(circuit.EmptyRefereeState(size))
	}
	st, err := referee.DecodeShare(size, share)
	if err != nil {
		return 0, fmt.Errorf("protocol: phantom secrets: share after %d tries: %w", told, err)
	}
	var kept *referee.KeptOpening
	if c := s.Commitment; c != nil && sent >= 2 && sent < pt.messages-1 {
		kept = &referee.KeptOpening{Commitments: c.Commitments, Labels: c.Labels, Seeds: c.Seeds, Reply: c.Reply}
	}
	if h.Correlated() {
		var start, reverse []byte
		if rec.ReverseSent >= 1 {
			start = s.ReverseBase
		}
		// The last reverse request received, or the one before when
		// the record is one try behind the secrets.
		if last := len(rec.Tries) - 1; last >= 0 {
			reverse = withDigest(rec.Tries[last].Reverse, p.reverse, p.prevReverse)
		}
		if cfg.AuthState {
			p.e, err = referee.ResumeAuthenticatedEvaluator(cfg, p.seed(), s.Base, start, reverse, rec, tries, st, s.Auths[told], kept)
		} else {
			p.e, err = referee.ResumeCorrelatedEvaluator(cfg, p.seed(), s.Base, start, reverse, rec, tries, st, kept)
		}
		if err == nil {
			p.reverseAnswer = p.e.AgainReverse()
		}
	} else {
		p.e, err = referee.ResumeCheckedEvaluator(cfg, p.seed(), s.Base, rec, tries, st, kept)
	}
	if err != nil {
		return 0, err
	}
	p.opened = p.e.Kept()
	p.flips, p.prevFlips, p.olderFlips = nil, nil, nil
	if f := p.e.AgainFlips(); f != nil {
		// The flips of its player's try are recorded (MPC-D52): made
		// again, to be sent again. Flips the secrets hold beyond the
		// record are dropped: the player tries again.
		p.keepFlips(f, complete)
	}
	if sent == 2 && cfg.Checked() {
		// The commitment is recorded, the choice not: send it.
		p.choice = p.e.AgainChoice()
	}
	p.shares = map[uint64][]byte{told: share}
	if a := s.Auths[told]; a != nil {
		p.auths = map[uint64][]byte{told: a}
	}
	if cfg.AuthState && told > 0 {
		// The messages of the last complete try that a certificate
		// of the next carries (MPC-D29): its reverse request, kept
		// by digest, the commitments and the choice from the secrets.
		tr := rec.Tries[told-1]
		rev := withDigest(tr.Reverse, p.reverse, p.prevReverse)
		cm, ch := withDigest(tr.Commitment, p.evidence...), withDigest(tr.Choice, p.evidence...)
		if rev != nil && cm != nil && ch != nil {
			// An error leaves the certificate out (the evaluator then
			// accuses, as without the secrets): the game goes on.
			_ = p.e.ResumeAuthEvidence(tr, told-1, cm, rev, ch)
		}
	}
	return told, nil
}

// replayLog replays the announcements of the log before try told onto
// the player's view.
func (p *phantomPlayer) replayLog(m *protocol.Machine, s *phantomSecrets, told uint64) error {
	size := p.opts.Size
	for _, l := range s.Log {
		if l.Try >= told {
			break
		}
		a, err := phantom.ParseAnnouncement(p.opts.Rules, size, m.Colors[p.me], l.Announcement)
		if err != nil {
			return fmt.Errorf("protocol: phantom secrets: %w", err)
		}
		if p.view, err = p.view.Apply(a); err != nil {
			return fmt.Errorf("protocol: phantom secrets: %w", err)
		}
		p.log = append(p.log, l)
	}
	return nil
}

// evidenceInOrder returns the messages of the secrets' evidence (a map)
// oldest first, as keepEvidence keeps them: those of the record's tries
// in the record's order, then those the record does not hold yet.
func evidenceInOrder(rec referee.Record, kept map[string][]byte) [][]byte {
	var out [][]byte
	taken := map[string]bool{}
	for _, tr := range rec.Tries {
		for _, d := range []referee.Digest{tr.Commitment, tr.Choice, tr.Labels} {
			k := keyOfDigest(d)
			if b, ok := kept[k]; ok && !taken[k] && referee.Sum(b) == d {
				out, taken[k] = append(out, b), true
			}
		}
	}
	for k, b := range kept {
		if !taken[k] {
			out = append(out, b)
		}
	}
	return out
}

func (p *phantomPlayer) secrets() (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.restored != nil {
		return json.Marshal(p.restored)
	}
	d, err := p.secretsDocLocked()
	if err != nil {
		return nil, err
	}
	return d.json(), nil
}

// secretsDoc is secrets as a docObject (PN-D24); nil before the machine
// is rebuilt after a resume (secrets then encodes what was restored).
func (p *phantomPlayer) secretsDoc() (*docObject, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.restored != nil {
		return nil, nil
	}
	return p.secretsDocLocked()
}

func (p *phantomPlayer) secretsDocLocked() (*docObject, error) {
	s := phantomSecrets{Seed: p.opening, Base: p.base, Shares: p.shares, Log: p.log, Caught: p.caught, Choice: p.choice,
		ReverseBase: p.reverseBase, Requests: p.memo.keyed(p.request, p.prevRequest), PrevChoice: p.prevChoice,
		OlderChoice: p.olderChoice,
		Reverses:    p.memo.keyed(p.reverse, p.prevReverse), Auths: p.auths, Evidence: p.memo.keyed(p.evidence...)}
	if k := p.opened; k != nil {
		s.Commitment = &PhantomCommitment{Commitments: k.Commitments, Labels: k.Labels, Seeds: k.Seeds, Reply: k.Reply}
	}
	for _, t := range p.tries() {
		s.Tries = append(s.Tries, t.Vertex(p.opts.Size))
	}
	if p.flips != nil {
		s.Flips, s.FlipsTry = keyedByDigest(p.flips, p.prevFlips, p.olderFlips), p.flipsTry
	}
	if p.outputs != nil {
		s.Outputs = &PhantomOutputs{Pass: p.outputs.Pass, Legal: p.outputs.Legal, Labels: p.outputs.Labels}
		s.OutputsTry = p.outputsTry
	}
	return phantomSecretsDoc(s, &p.memo)
}

func (p *phantomPlayer) restore(raw json.RawMessage) error {
	var s phantomSecrets
	if err := protocol.UnmarshalStrict(raw, &s); err != nil {
		return fmt.Errorf("protocol: phantom secrets: %w", err)
	}
	if s.Seed != nil && len(s.Seed.Value) != prg.SeedSize {
		return errors.New("protocol: phantom secrets: the seed is not 32 bytes")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.restored = &s
	return nil
}

// resumed rebuilds the machine from the restored secrets against the
// record as loaded, before any message of the other program is applied
// (PN-D9): a message taken first, such as the outputs of a try whose
// garbling the record holds, must find the machine of the record, not
// one rebuilt from a record that already holds that message.
func (p *phantomPlayer) resumed(m *protocol.Machine) error {
	h := p.rules(m)
	if h == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ensure(m, h)
}
