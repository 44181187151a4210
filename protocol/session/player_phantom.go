package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"

	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol/mpc/prg"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// phantomPlayer is the local side of Phantom Go: its party of the secure
// referee (the garbler for the inviter, the evaluator for the invitee),
// its seed, its player's view and announcements. Its lock guards all of
// it: the caller's View reads it from another goroutine.
type phantomPlayer struct {
	game protocol.GameID
	opts engine.Options
	me   protocol.Role
	// announced, when set, is told every announcement (SPEC-2).
	announced func(try uint64, a phantom.Announcement)

	mu      sync.Mutex
	opening *commit.Opening // the seed and the salt of its commitment
	g       *referee.Garbler
	e       *referee.Evaluator
	// base is the other party's setup message, kept to rebuild the
	// machine after a restart.
	base []byte
	// reverseBase is, in a game of the correlated input OTs (MPC-D28),
	// the other party's setup message of the reverse extension (the
	// garbler's start for the evaluator, the evaluator's answer for the
	// garbler), kept as base is; reverseAnswer the evaluator's own
	// answer, made when the start came and sent with its setup;
	// reverseFinished that the garbler took the answer.
	reverseBase, reverseAnswer []byte
	reverseFinished            bool
	// reverse is the evaluator's reverse request of the next try (or of
	// the try under way), received with the garbler's base or garbling:
	// taken (Evaluator.TakeReverse) only once the record holds it, that
	// is once the try before is complete and the game goes on, never on
	// arrival (MPC-D28: a bad one found earlier would be accused with no
	// digest of it in the record, and the audit would blame the accuser).
	reverse []byte
	// prevRequest and prevChoice (garbler) and prevReverse (evaluator)
	// are the values of the try before the one under way: the secrets
	// are written before the record of the same message (PN-D15), so a
	// crash between the two leaves a record one try behind the secrets,
	// whose rebuild needs them.
	prevRequest, prevChoice, prevReverse []byte
	// olderChoice (garbler) is the choice of the try before prevChoice's:
	// with the record one try behind the secrets, that try is the
	// record's last complete one, and the authenticated garbler resumes
	// from its choice (MPC-D30, PN-D18).
	olderChoice []byte
	// request is the evaluator's request of the try under way, received
	// (garbler); it is kept until the try's outputs come, which show
	// that the evaluator has the garbling: until then the garbling may
	// have to be made again for it after a restart (PN-D14).
	request []byte
	// choice is, in a checked game (T-8(b)), the evaluator's choice of the
	// try under way: made by the evaluator and not yet sent, or received
	// by the garbler (kept, as the request, until the try is complete:
	// the garbling may have to be made again after a restart, MPC-D16).
	choice []byte
	// opened is, in a checked game, what the evaluator kept of the
	// garbler's commitment of the try under way once it opened it (the
	// commitments, its labels of garbling ĵ, the opened seeds; not the
	// 104 KiB OT reply), kept until the try is complete to open it again
	// after a restart (MPC-D16, MPC-D20).
	opened *referee.KeptOpening
	// outputs are the evaluator's outputs of try outputsTry: computed and
	// not yet sent while outputsTry is the try under way, and kept after
	// they are sent, to be sent again after a restart (PN-D14).
	outputs    *referee.Outputs
	outputsTry uint64
	// shares are the evaluator's last shares, by the number of tries
	// after which they hold (the current one and the one before, for a
	// restart that must go back one step).
	shares map[uint64][]byte
	// auths are, in a game of the authenticated state (MPC-D29), the
	// evaluator's authentication states by the number of tries after
	// which they hold, as shares.
	auths map[uint64][]byte
	// evidence holds, in a game of the authenticated state (MPC-D29),
	// the messages of the last tries that a certificate of the next try
	// carries, that the record keeps by digest only and that a resumed
	// machine cannot make again: the garbler's commitments parts and
	// labels messages, the evaluator's commitments parts received and
	// choices made (keepEvidence). Kept in the secrets, written before
	// the messages are sent or recorded (PN-D15), so that the first try
	// after a restart still gets its certificate.
	evidence [][]byte
	// view is the player's own view, log its announcements with the try
	// of each.
	view phantom.View
	log  []phantomLogged
	// caught is set when the other program deviated (ErrDeviation, an
	// announcement that contradicts the view): this program accuses at
	// its next turn.
	caught string
	// flips is, in a game whose evaluator's tries come by flips
	// (MPC-D52), the evaluator's flips message of try flipsTry: made by
	// the evaluator when its player played, received by the garbler;
	// prevFlips and olderFlips are the two before. Saved (PN-D15: the
	// secrets may be a try ahead of the record), the garbler's resume
	// takes the flips of the try under way and of the last complete
	// one (referee.GarblerKept) from them.
	flips, prevFlips, olderFlips []byte
	flipsTry                     uint64
	// pendingTry is the player's try made before the steps it goes
	// after are in the record (CLK-D33): the evaluator's by flips before
	// its choice went (MPC-D52), sent as the flips once it has; the
	// garbler's before the evaluator's request (and, in a checked try,
	// the choice) came, sent as its garbling once they have. It is not
	// saved: after a restart the player tries again.
	pendingTry *engine.Point
	// restored holds secrets read back after a restart; the machine is
	// rebuilt from them and the record at the next call.
	restored *phantomSecrets
	// memo keeps the encodings of the large byte strings of the last
	// secrets made (PN-D19).
	memo secretsMemo
	// announcements are the strings of p.view's log up to annMark, for
	// PrivateView to add only what was announced since (PN-D25).
	announcements []string
	annMark       phantom.LogMark
}

// phantomLogged is one announcement of the player's log.
type phantomLogged struct {
	Try          uint64 `json:"try"`
	Announcement string `json:"announcement"`
}

// phantomSecrets is the saved form of a phantomPlayer (mode 0600).
type phantomSecrets struct {
	Seed       *commit.Opening   `json:"seed,omitempty"`
	Base       []byte            `json:"base,omitempty"`
	Tries      []string          `json:"tries,omitempty"`
	Shares     map[uint64][]byte `json:"shares,omitempty"`
	Request    []byte            `json:"request,omitempty"`
	Outputs    *PhantomOutputs   `json:"outputs,omitempty"`
	OutputsTry uint64            `json:"outputs_try,omitempty"`
	Log        []phantomLogged   `json:"log,omitempty"`
	Caught     string            `json:"caught,omitempty"`
	// Choice and Commitment: the checked try under way (MPC-D16).
	Choice     []byte             `json:"choice,omitempty"`
	Commitment *PhantomCommitment `json:"commitment,omitempty"`
	// ReverseBase is, in a game of the correlated input OTs (MPC-D28),
	// the other party's setup message of the reverse extension, as Base
	// (the garbler's start for the evaluator, the evaluator's answer for
	// the garbler).
	ReverseBase []byte `json:"reverse_base,omitempty"`
	// Requests are the garbler's request of the try under way and of the
	// try before, Reverses the evaluator's last two reverse requests
	// received (MPC-D28: the record holds only their digests, and they
	// are not sent again once acknowledged), each by the first 16 hex
	// digits of its digest, so that a change of the secrets writes only
	// the new one (a merge patch, secretsLog). The try before's are for
	// a record one try behind the secrets after a crash between their
	// writes (PN-D15); PrevChoice is the try before's choice (garbler),
	// OlderChoice the choice of the try before that: a record one try
	// behind has that try as its last complete one, whose choice the
	// authenticated garbler's resume needs (PN-D18).
	// Request is the garbler's request as older versions kept it, read
	// only.
	Requests    map[string][]byte `json:"requests,omitempty"`
	Reverses    map[string][]byte `json:"reverses,omitempty"`
	PrevChoice  []byte            `json:"prev_choice,omitempty"`
	OlderChoice []byte            `json:"older_choice,omitempty"`
	// Auths are the evaluator's authentication states (MPC-D29), as
	// Shares.
	Auths map[uint64][]byte `json:"auths,omitempty"`
	// Evidence is phantomPlayer.evidence, keyed as Requests.
	Evidence map[string][]byte `json:"evidence,omitempty"`
	// Flips are, in a game whose evaluator's tries come by flips
	// (MPC-D52), the evaluator's last three flips messages (made by the
	// evaluator, received by the garbler), keyed as Requests; FlipsTry
	// is the try of the last (phantomPlayer.flips).
	Flips    map[string][]byte `json:"flips,omitempty"`
	FlipsTry uint64            `json:"flips_try,omitempty"`
}

// evidenceKept is how many messages phantomPlayer.evidence holds: two
// per try, of the try under way and the two before.
const evidenceKept = 6

// keepEvidence adds b to the messages kept for a certificate of MPC-D29
// (phantomPlayer.evidence), once, dropping the oldest beyond
// evidenceKept; nothing in a game without the authenticated state.
func (p *phantomPlayer) keepEvidence(h *phantomrules.Rules, b []byte) {
	if b == nil || !h.Config().AuthState || p.memo.sums.with(p.memo.sums.sum(b), p.evidence...) != nil {
		return
	}
	p.evidence = append(p.evidence, b)
	if n := len(p.evidence); n > evidenceKept {
		p.evidence = append([][]byte(nil), p.evidence[n-evidenceKept:]...)
	}
}

// keyedByDigest returns the non-nil byte strings of bs by the first 16
// hex digits of their digests (nil if none).
func keyedByDigest(bs ...[]byte) map[string][]byte { return keyedBy(digestKey, bs...) }

// digestKey is the key of b in the secrets' maps: the first 16 hex digits
// of its digest (keyOfDigest).
func digestKey(b []byte) string { return keyOfDigest(referee.Sum(b)) }

// keyOfDigest is the key in the secrets' maps of a byte string of
// digest d: its first 16 hex digits.
func keyOfDigest(d referee.Digest) string { return d.String()[:16] }

// keyedBy returns the non-nil byte strings of bs by key (nil if none).
func keyedBy(key func([]byte) string, bs ...[]byte) map[string][]byte {
	var m map[string][]byte
	for _, b := range bs {
		if b == nil {
			continue
		}
		if m == nil {
			m = map[string][]byte{}
		}
		m[key(b)] = b
	}
	return m
}

// withDigest returns the one of bs whose digest is d, or nil.
func withDigest(d referee.Digest, bs ...[]byte) []byte {
	for _, b := range bs {
		if b != nil && referee.Sum(b) == d {
			return b
		}
	}
	return nil
}

// PhantomCommitment is the saved form of what the evaluator kept of a
// checked try's commitment (referee.KeptOpening, MPC-D20). Reply is the
// whole OT reply, which an older version kept instead of Labels and
// Seeds.
type PhantomCommitment struct {
	Commitments []byte `json:"commitments"`
	Labels      []byte `json:"labels,omitempty"`
	Seeds       []byte `json:"seeds,omitempty"`
	Reply       []byte `json:"reply,omitempty"`
}

// PhantomOutputs is the saved form of outputs not yet sent.
type PhantomOutputs struct {
	Pass   bool   `json:"pass"`
	Legal  bool   `json:"legal"`
	Labels []byte `json:"labels"`
}

func (p *phantomPlayer) rules(m *protocol.Machine) *phantomrules.Rules {
	h, _ := m.Rules.(*phantomrules.Rules)
	return h
}

func (p *phantomPlayer) seed() prg.Seed {
	var s prg.Seed
	copy(s[:], p.opening.Value)
	return s
}

// tries returns the player's tries so far.
func (p *phantomPlayer) tries() []engine.Point {
	switch {
	case p.g != nil:
		return p.g.Tries()
	case p.e != nil:
		return p.e.Tries()
	}
	return nil
}

// ensure makes the player ready to act on m: it starts its view once the
// colours are known and rebuilds its machine after a restart.
func (p *phantomPlayer) ensure(m *protocol.Machine, h *phantomrules.Rules) error {
	if p.view.Size() == 0 && m.Colors[p.me] != engine.Empty {
		v, err := phantom.NewView(p.opts, m.Colors[p.me])
		if err != nil {
			return err
		}
		p.view = v
	}
	// The request is kept until the try is complete: the garbling it
	// answers may have to be made again after a restart (PN-D14). The
	// outputs stay until the next try's replace them.
	if _, sent := h.Current(); sent == 0 {
		if p.me == phantomrules.Garbler && p.request != nil {
			p.olderChoice = p.prevChoice
			p.prevRequest, p.prevChoice = p.request, p.choice
		}
		p.request, p.opened = nil, nil
		if p.me == phantomrules.Garbler {
			p.choice = nil
		}
	}
	if p.restored == nil {
		return nil
	}
	s := p.restored
	p.restored = nil
	return p.rebuild(m, h, s)
}

// correlated reports whether the game's input OTs are the correlated ones
// (MPC-D28).
func (p *phantomPlayer) correlated() bool { return phantomrules.CorrelatedInputs(p.opts) }

// takeReverse has the evaluator take the reverse request of the try under
// way, which the record holds (MPC-D28): at its turn to start the try,
// after the outputs of the try before. A request that fails the check,
// or is malformed, is caught (the audit names the garbler, "reverse OT
// request"); taking it again is a no-op.
func (p *phantomPlayer) takeReverse(h *phantomrules.Rules) error {
	reverse, err := p.reverseToTake(h)
	if reverse == nil || err != nil {
		return err
	}
	return p.tookReverse(h, p.e.TakeReverse(reverse))
}

// reverseToTake returns the reverse request takeReverse takes now, nil
// if none.
func (p *phantomPlayer) reverseToTake(h *phantomrules.Rules) ([]byte, error) {
	if !p.correlated() || p.e == nil || p.caught != "" {
		return nil, nil
	}
	tr, sent := h.Current()
	if sent != 0 || tr.Reverse == (referee.Digest{}) {
		return nil, nil
	}
	// The attachment whose digest the record holds (its message signed
	// it, and it was checked against it on arrival).
	reverse := p.memo.sums.with(tr.Reverse, p.reverse, p.prevReverse)
	if reverse == nil {
		return nil, errors.New("protocol: the phantom reverse request under way is lost")
	}
	return reverse, nil
}

// tookReverse judges err, what the evaluator's machine said of the
// reverse request of reverseToTake.
func (p *phantomPlayer) tookReverse(h *phantomrules.Rules, err error) error {
	if errors.Is(err, referee.ErrDeviation) || errors.Is(err, referee.ErrMessage) {
		// Its digest is in the record: the audit finds it is not what
		// the garbler's seed gives.
		p.caught = fmt.Sprintf("the garbler's reverse OT request of try %d: %v", h.Public.Try, err)
		return nil
	}
	return err
}

func (p *phantomPlayer) message(m *protocol.Machine, me protocol.Role, a protocol.Action) (protocol.Kind, any, error) {
	h := p.rules(m)
	if h == nil {
		return "", nil, fmt.Errorf("%w: no Phantom Go game", protocol.ErrNotNow)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ensure(m, h); err != nil {
		return "", nil, err
	}
	size := m.Options.Size
	if c, ok := a.(phantomCheat); ok {
		return "", nil, c.cheat(p, h)
	}
	switch a := a.(type) {
	case protocol.Play:
		if a.Point != engine.Pass && (a.Point < 0 || int(a.Point) >= size*size) {
			return "", nil, fmt.Errorf("%w: %d", engine.ErrOffBoard, a.Point)
		}
		switch h.Stage() {
		case phantomrules.StageScoring, phantomrules.StageOpen:
			c := m.Colors[me]
			ref := h.Referee
			if h.Score.Active {
				if a.Point == engine.Pass {
					return "", nil, fmt.Errorf("%w: play resumes with a stone (GO-4)", protocol.ErrNotNow)
				}
				var err error
				if ref, err = ref.Resume(c); err != nil {
					return "", nil, err
				}
			}
			if _, out, err := ref.Try(c, a.Point); err != nil {
				return "", nil, err
			} else if !out.Legal {
				return "", nil, fmt.Errorf("%w: %s is illegal: %s", engine.ErrWrongPhase, a.Point.Vertex(size), out.Reason)
			}
			return protocol.KindMove, protocol.MoveBody{Point: a.Point.Vertex(size)}, nil
		case phantomrules.StagePlay:
		default:
			return "", nil, fmt.Errorf("%w: no try now (%s)", protocol.ErrNotNow, h.Stage())
		}
		if !p.myTry(h) {
			return "", nil, fmt.Errorf("%w: not this player's try", protocol.ErrNotNow)
		}
		if p.me == phantomrules.Evaluator && h.Flipped() {
			if _, sent := h.Current(); sent < 3 {
				// Before its choice went: the flips follow it
				// (auto), made from this try (MPC-D52).
				pt := a.Point
				p.pendingTry = &pt
				return "", heldAction{}, nil
			}
			return p.flips1(h, a.Point)
		}
		if p.me == phantomrules.Evaluator {
			return p.request1(h, phantomrules.KindTry, a.Point, false)
		}
		if !p.garblerTryReady(h) {
			// Before the evaluator's request or choice: the garbling
			// follows them (auto), made from this try (CLK-D33).
			pt := a.Point
			p.pendingTry = &pt
			return "", heldAction{}, nil
		}
		return p.garble(h, phantomrules.KindTryGarbling, a.Point)
	case protocol.MarkDead:
		if h.Stage() != phantomrules.StageScoring {
			return "", nil, fmt.Errorf("%w: no scoring now", protocol.ErrNotNow)
		}
		return protocol.KindMark, protocol.WireMarking(h.Referee.Board(), a.Dead), nil
	case protocol.AgreeScore:
		if h.Stage() != phantomrules.StageScoring || !h.Score.HasProposal {
			return "", nil, fmt.Errorf("%w: no marking to agree to", protocol.ErrNotNow)
		}
		b := h.Referee.Board()
		return protocol.KindAgree, protocol.WireMarking(b, h.Score.Proposal.Dead(b)), nil
	}
	return "", nil, fmt.Errorf("%w: %T in %s", protocol.ErrNotNow, a, m.Options.Variant)
}

// errPhantomLost is the error of a player whose secure computation is
// lost: the record is past its seed commitment but its secrets hold no
// seed (a damaged secrets file). It can only stop, not go on or crash.
var errPhantomLost = errors.New("protocol: the state of the phantom secure computation is lost (no seed in the secrets)")

// reveal returns the player's reveal: its seed's opening and its tries;
// or, for an accusation, only what it caught (T-15: the accused reveals
// first).
func (p *phantomPlayer) reveal(kind protocol.Kind) (protocol.Kind, any, bool, error) {
	if kind == phantomrules.KindAccuse {
		return kind, phantomrules.AccuseBody{Accuse: p.caught}, true, nil
	}
	if p.opening == nil {
		return "", nil, false, errors.New("protocol: the phantom seed is lost")
	}
	size := p.opts.Size
	vs := []string{}
	for _, t := range p.tries() {
		vs = append(vs, t.Vertex(size))
	}
	return kind, phantomrules.RevealBody{Seed: *p.opening, Tries: vs}, true, nil
}

// newEvaluator draws the evaluator's seed, commits to it and makes its
// machine: at its setup, or in a game of the correlated input OTs
// (MPC-D28) when the garbler's start of the reverse base OTs comes, which
// it answers at once (an answer it cannot make is the garbler's fault,
// T-10).
func (p *phantomPlayer) newEvaluator(cfg referee.Config) (commit.Commitment, error) {
	c, err := p.newSeed(cfg)
	if err != nil {
		return c, err
	}
	p.e, err = referee.NewEvaluator(cfg, p.seed())
	return c, err
}

// newSeed draws the player's seed and commits to it.
func (p *phantomPlayer) newSeed(cfg referee.Config) (commit.Commitment, error) {
	var s prg.Seed
	if _, err := rand.Read(s[:]); err != nil {
		return commit.Commitment{}, err
	}
	c, o, err := cfg.CommitSeed(phantomrules.PartyOf(p.me), s)
	if err != nil {
		return commit.Commitment{}, err
	}
	p.opening = &o
	return c, nil
}

func (p *phantomPlayer) auto(m *protocol.Machine, me protocol.Role) (protocol.Kind, any, bool, error) {
	h := p.rules(m)
	if h == nil {
		return "", nil, false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ensure(m, h); err != nil {
		return "", nil, false, err
	}
	from, kinds, _ := h.Expected()
	if from != me || len(kinds) == 0 {
		return "", nil, false, nil
	}
	if me == phantomrules.Evaluator && h.Stage() == phantomrules.StagePlay {
		if h.Flipped() && kinds[0] == phantomrules.KindRequest && p.caught == "" && p.e != nil {
			// The request of a try by flips, with the player's lock let
			// go (MPC-D56); what it catches is accused as below.
			k, b, err := p.request1(h, phantomrules.KindRequest, engine.NoPoint, true)
			if p.caught != "" && slices.Contains(kinds, phantomrules.KindAccuse) {
				return p.reveal(phantomrules.KindAccuse)
			}
			return k, b, err == nil, err
		}
		// The try's reverse request, now that the record holds it
		// (MPC-D28): what is wrong in it is accused at once.
		if err := p.takeReverse(h); err != nil {
			return "", nil, false, err
		}
		if kinds[0] == phantomrules.KindTry && p.caught == "" && p.e != nil && p.e.Ready() {
			// The request of its player's try, but for the choices
			// that try decides, on a goroutine of its own while the
			// player thinks (MPC-D51): the same bytes as without, and
			// only a cache (not in the secrets; a rebuilt machine
			// makes its request whole).
			p.e.PrepareRequestAhead()
		}
	}
	if p.caught != "" && slices.Contains(kinds, phantomrules.KindAccuse) {
		return p.reveal(phantomrules.KindAccuse)
	}
	cfg := h.Config()
	switch kinds[0] {
	case phantomrules.KindCommit:
		return p.autoCommit(cfg)
	case phantomrules.KindSetup:
		return p.autoSetup(cfg)
	case phantomrules.KindBase:
		return p.autoBase()
	case phantomrules.KindRequest:
		k, b, err := p.request1(h, phantomrules.KindRequest, engine.NoPoint, false)
		return k, b, err == nil, err
	case phantomrules.KindGarbling:
		if p.request == nil {
			return "", nil, false, errors.New("protocol: the phantom request under way is lost")
		}
		if h.Machine.Options.Lambda > 1 && p.choice == nil {
			return "", nil, false, nil
		}
		k, b, err := p.garble(h, phantomrules.KindGarbling, engine.NoPoint)
		return k, b, err == nil, err
	case phantomrules.KindCommitment:
		return p.autoCommitment(h)
	case phantomrules.KindChoice:
		if p.choice == nil {
			return "", nil, false, nil
		}
		c := p.choice
		p.choice = nil
		return phantomrules.KindChoice, phantomrules.ChoiceBody{Try: h.Public.Try, Choice: referee.Sum(c), Bulk: [][]byte{c}}, true, nil
	case phantomrules.KindTryGarbling:
		// The player's try made before the evaluator's steps came
		// (CLK-D33).
		if p.pendingTry == nil || !p.garblerTryReady(h) {
			return "", nil, false, nil
		}
		try := *p.pendingTry
		k, b, err := p.garble(h, phantomrules.KindTryGarbling, try)
		if err == nil {
			p.pendingTry = nil
		}
		return k, b, err == nil, err
	case phantomrules.KindFlips:
		// The player's try made before the choice went (MPC-D52).
		if p.pendingTry == nil {
			return "", nil, false, nil
		}
		k, b, err := p.flips1(h, *p.pendingTry)
		return k, b, err == nil, err
	case phantomrules.KindOutputs:
		if p.outputs == nil || p.outputsTry != h.Public.Try {
			return "", nil, false, nil
		}
		o := p.outputs
		return phantomrules.KindOutputs, phantomrules.OutputsBody{Try: h.Public.Try, Pass: o.Pass, Legal: o.Legal,
			Labels: referee.Sum(o.Labels), Bulk: [][]byte{o.Labels}}, true, nil
	case phantomrules.KindReveal:
		return p.reveal(phantomrules.KindReveal)
	}
	return "", nil, false, nil
}

// autoCommit is the garbler's seed commitment, its machine made, with
// the start of the reverse base OTs (MPC-D28).
func (p *phantomPlayer) autoCommit(cfg referee.Config) (protocol.Kind, any, bool, error) {
	c, err := p.newSeed(cfg)
	if err != nil {
		return "", nil, false, err
	}
	if p.g, err = referee.NewGarbler(cfg, p.seed()); err != nil {
		return "", nil, false, err
	}
	b := phantomrules.CommitBody{Commitment: c}
	if p.correlated() {
		// The reverse extension's base OTs start with the seed
		// commitment (MPC-D28).
		rs, err := p.g.ReverseStart()
		if err != nil {
			return "", nil, false, err
		}
		b.ReverseBase, b.Bulk = referee.Sum(rs), [][]byte{rs}
	}
	return phantomrules.KindCommit, b, true, nil
}

// autoSetup is the evaluator's seed commitment and base OT message, with
// its answer to the reverse base OTs (MPC-D28).
func (p *phantomPlayer) autoSetup(cfg referee.Config) (protocol.Kind, any, bool, error) {
	var c commit.Commitment
	var err error
	if p.correlated() {
		// The machine was made when the garbler's commitment came,
		// with its reverse base OTs (receiveBulk).
		if p.e == nil || p.opening == nil || p.reverseAnswer == nil {
			return "", nil, false, errors.New("protocol: the phantom reverse base OT answer is lost")
		}
		c, err = commit.Compute(referee.SeedDomain, cfg.Game, uint8(phantomrules.PartyOf(p.me)), 0, *p.opening)
	} else {
		c, err = p.newEvaluator(cfg)
	}
	if err != nil {
		return "", nil, false, err
	}
	m1, err := p.e.BaseStart()
	if err != nil {
		return "", nil, false, err
	}
	p.shares = map[uint64][]byte{0: referee.EncodeShare(p.e.Share())}
	b := phantomrules.SetupBody{Commitment: c, Base: referee.Sum(m1), Bulk: [][]byte{m1}}
	if p.correlated() {
		b.ReverseBase, b.Bulk = referee.Sum(p.reverseAnswer), append(b.Bulk, p.reverseAnswer)
	}
	return phantomrules.KindSetup, b, true, nil
}

// autoBase is the garbler's base OT answer, with try 0's reverse
// request (MPC-D28); a message it cannot answer is accused.
func (p *phantomPlayer) autoBase() (protocol.Kind, any, bool, error) {
	if p.g == nil {
		return "", nil, false, errPhantomLost
	}
	m2, err := p.g.BaseRespond(p.base)
	if err != nil {
		p.caught = fmt.Sprintf("the evaluator's base OT message: %v", err)
		return p.reveal(phantomrules.KindAccuse)
	}
	b := phantomrules.BaseBody{Base: referee.Sum(m2), Bulk: [][]byte{m2}}
	if p.correlated() {
		// The evaluator's answer to the reverse base OTs, then try
		// 0's reverse request (MPC-D28).
		if !p.reverseFinished {
			if err := p.g.ReverseFinish(p.reverseBase); err != nil {
				p.caught = fmt.Sprintf("the evaluator's reverse base OT answer: %v", err)
				return p.reveal(phantomrules.KindAccuse)
			}
			p.reverseFinished = true
		}
		rev, err := p.g.ReverseRequest()
		if err != nil {
			return "", nil, false, err
		}
		b.Reverse, b.Bulk = referee.Sum(rev), append(b.Bulk, rev)
	}
	return phantomrules.KindBase, b, true, nil
}

// autoCommitment is the garbler's commitment of a checked try; a
// request that deviates is accused.
func (p *phantomPlayer) autoCommitment(h *phantomrules.Rules) (protocol.Kind, any, bool, error) {
	if p.g == nil || p.request == nil {
		return "", nil, false, errors.New("protocol: the phantom request under way is lost")
	}
	c, err := p.g.Commit(p.request)
	if errors.Is(err, referee.ErrDeviation) {
		p.caught = err.Error()
		return p.reveal(phantomrules.KindAccuse)
	}
	if err != nil {
		return "", nil, false, err
	}
	p.keepEvidence(h, c.Commitments)
	d := c.Digests()
	return phantomrules.KindCommitment, phantomrules.CommitmentBody{Try: h.Public.Try, Commitments: d[0], Reply: d[1],
		Bulk: [][]byte{c.Commitments, c.Reply}}, true, nil
}

// tell gives the player an announcement.
func (p *phantomPlayer) tell(try uint64, a phantom.Announcement) error {
	v, err := p.view.Apply(a)
	if err != nil {
		return fmt.Errorf("the announcement %q of try %d contradicts the player's view: %w", a.KeyValues(), try, err)
	}
	p.view = v
	p.log = append(p.log, phantomLogged{Try: try, Announcement: a.KeyValues()})
	if p.announced != nil {
		p.announced(try, a)
	}
	return nil
}

// announceTo has every announcement the player is told passed on to
// announce (SPEC-2).
func (p *phantomPlayer) announceTo(announce func(try uint64, a phantom.Announcement)) {
	p.announced = announce
}

// announcementsLocked returns the strings of p.view's log: those of the
// last call and the announcements added since (PN-D25), or all of them
// again when the log is not the last one grown (a view rebuilt). Views
// are asked at every event, and the log has hundreds of announcements by
// the end of a game. The slice is capped at its length: what a caller
// appends does not reach the next caller's.
func (p *phantomPlayer) announcementsLocked() []string {
	added, ok := p.view.LogSince(p.annMark)
	if !ok {
		added = p.view.Log()
		p.announcements = make([]string, 0, len(added))
	}
	for _, a := range added {
		p.announcements = append(p.announcements, a.String())
	}
	p.annMark = p.view.LogMark()
	n := len(p.announcements)
	if n == 0 {
		return nil
	}
	return p.announcements[:n:n]
}

// PrivateView adds the player's own view to the public one.
func (p *phantomPlayer) PrivateView(m *protocol.Machine, me protocol.Role, v protocol.VariantView) protocol.VariantView {
	pv, ok := v.(phantomrules.View)
	h := p.rules(m)
	if !ok || h == nil {
		return v
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.ensure(m, h); err != nil {
		return v
	}
	pv.Own = p.view
	pv.Announcements = p.announcementsLocked()
	pv.MyTry = pv.Stage == phantomrules.StagePlay && p.myTry(h)
	pv.Caught = p.caught
	return pv
}
