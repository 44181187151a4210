package phantomrules

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/kakure/kakure/protocol"

	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// Certificates of T-8(b) (MPC-D14 in docs/mpc.md): an evaluator that
// finds a checked garbling different from the garbler's signed
// commitment reports it at once (rule T-8) with a certificate as
// evidence, and reveals nothing of its own: no seed, no try. The judge
// (judgeReport, the same in `kakure verify`) hands it to
// judgePhantomCertificate (a CertificateJudge), which convicts the
// garbler when the certificate proves the cheat against the messages of
// the record, and otherwise the reporter of a false accusation (T-14):
// an honest evaluator's certificate always proves its cheat, so an
// unproven one was made up.

// phantomCertificateTag opens the first evidence frame of a certificate.
const phantomCertificateTag = "kakure/phantom/certificate/1"

// phantomCertificateFrame is the first evidence frame of a certificate;
// the next are the garbler's commitments and, for a certificate about the
// garbling sent, the evaluator's choice and the garbler's labels message;
// for one about the OT corrections of an opened garbling (OT, MPC-D28),
// the evaluator's request, the reply part of the garbler's commitment
// (the corrections) and the garbling's 128 reverse keys K_i, 32 bytes
// each, end to end; for one about the garbler's reverse choices of an
// opened garbling (Reverse, MPC-D28), the garbler's reverse request of
// the try.
type phantomCertificateFrame struct {
	Certificate string         `json:"certificate"`
	Try         uint64         `json:"try"`
	Opened      int            `json:"opened"`
	Seed        string         `json:"seed,omitempty"`
	Tables      referee.Digest `json:"tables"`
	What        string         `json:"what"`
	OT          bool           `json:"ot,omitempty"`
	Reverse     bool           `json:"reverse,omitempty"`
	// MAC, with Reverse, is a certificate about the garbler's MAC
	// choices of the opened garbling (MPC-D29).
	MAC bool `json:"mac,omitempty"`
	// SeedOT is a certificate about the seed transfer (MPC-D30): Coins
	// are the evaluator's coins of the try's transfer, J its ĵ; the next
	// frames are the commitments, the garbler's reverse setup message
	// and the evaluator's message that carried its response.
	SeedOT bool   `json:"seed_ot,omitempty"`
	Coins  string `json:"coins,omitempty"`
	J      int    `json:"j,omitempty"`
	// Digest is a certificate about a digest the commitment names for
	// garbling Opened (MPC-D31): "mac" for its MAC sub-batch, the next
	// frames the commitments and the try's reverse request; "corrections"
	// for its OT corrections, the next frames the commitments and the
	// reply part of the commitment.
	Digest string `json:"digest,omitempty"`
	// Flips, of a certificate about the garbling sent of a try by flips
	// (MPC-D52), says that a fifth frame follows: the evaluator's flips
	// message, which the record holds by digest.
	Flips bool `json:"flips,omitempty"`
}

// The values of phantomCertificateFrame.Digest.
const (
	digestOfMAC         = "mac"
	digestOfCorrections = "corrections"
)

// maxCertificateEvidence caps the evidence of a certificate report. The
// evidence travels base64 in the report's message, which goes as a report
// frame when it does not fit a message frame (MPC-D31); the cap leaves
// room within MaxReportSize for base64 (4/3) and the message around it.
// The largest certificate of a game the invitation allows (19×19, λ =
// 16: a certificate of reverse choices or of OT corrections) is about
// 2.4 MB. The judge refuses a certificate above the cap as made up (no
// honest program sends one), and an evaluator's program holding one
// would accuse instead (PhantomAccuse), the audit deciding.
const maxCertificateEvidence = (protocol.MaxReportSize - 64<<10) / 4 * 3

// evidenceSize is the raw size of the evidence frames of a report.
func evidenceSize(frames [][]byte) int {
	n := 0
	for _, f := range frames {
		n += len(f)
	}
	return n
}

// CertificateViolation is the report of a certificate the evaluator holds
// against the garbler (err is the evaluator machine's error), or nil when
// it does not fit a report (maxCertificateEvidence; within the
// invitation's limits it always does, MPC-D31): the evaluator's program
// then accuses (PhantomAccuse) and the audit names the garbler.
func CertificateViolation(try uint64, c *referee.Certificate, err error) *protocol.Violation {
	f := phantomCertificateFrame{Certificate: phantomCertificateTag, Try: try, Opened: c.Opened, Tables: c.Tables, What: c.What}
	frames := [][]byte{nil, c.Commitment}
	if d := c.Digest; d != nil {
		f.Digest = digestOfMAC
		part := d.Reverse
		if d.Reply != nil {
			f.Digest, part = digestOfCorrections, d.Reply
		}
		frames = append(frames, part)
	} else if e := c.SeedOT; e != nil {
		f.SeedOT, f.Coins, f.J = true, hex.EncodeToString(e.Coins[:]), e.J
		frames = append(frames, e.Start, e.Carrier)
	} else if c.Opened >= 0 {
		f.Seed = hex.EncodeToString(c.Seed[:])
		if c.OT != nil {
			f.OT = true
			keys := make([]byte, 0, len(c.OT.Keys)*len(ot.Key{}))
			for _, k := range c.OT.Keys {
				keys = append(keys, k[:]...)
			}
			frames = append(frames, c.OT.Request, c.OT.Reply, keys)
		}
		if c.Reverse != nil {
			f.Reverse, f.MAC = true, c.MAC
			frames = append(frames, c.Reverse)
		}
	} else {
		// Non-nil even when empty (the labels are not needed when the
		// tables differ): Game.accuse drops nil frames.
		frames = append(frames, c.Choice, append([]byte{}, c.Labels...))
		if c.Flips != nil {
			f.Flips = true
			frames = append(frames, c.Flips)
		}
	}
	b, merr := json.Marshal(f)
	if merr != nil {
		return nil
	}
	frames[0] = b
	if evidenceSize(frames) > maxCertificateEvidence {
		return nil
	}
	return &protocol.Violation{Accused: Garbler, Rule: protocol.RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("certificate: %v", err), Err: &protocol.CertificateEvidence{Frames: frames}}
}

// judgePhantomCertificate is the CertificateJudge of every game (T-8(b)):
// it judges evidence that opens with a certificate frame against the game
// of history. It returns nil for evidence that is no certificate (judged
// as any other), the garbler's violation for a certificate that proves
// its cheat, and the reporter's false accusation (T-14) for one that does
// not.
func judgePhantomCertificate(game protocol.GameID, _ [2]protocol.PeerID, accused protocol.Role, history []protocol.Message, evidence [][]byte) *protocol.Violation {
	if len(evidence) < 2 {
		return nil
	}
	var sf phantomShareFrame
	if err := protocol.UnmarshalStrict(evidence[0], &sf); err == nil && sf.Certificate == phantomShareCertificateTag {
		if n := evidenceSize(evidence); n > maxCertificateEvidence {
			return oversizedCertificate(accused, n)
		}
		m := protocol.NewMachine(game)
		for i := range history {
			if _, err := m.Apply(&history[i]); err != nil {
				return nil
			}
		}
		h, ok := m.Rules.(*Rules)
		if !ok || !h.Config().AuthState {
			return &protocol.Violation{Accused: accused.Other(), Rule: protocol.RuleFalseAccusation, Seq: -1,
				Detail: "false accusation (T-8 certificate): not a game of Phantom Go with the authenticated state"}
		}
		return judgeShareCertificate(h, accused, sf, evidence[1:])
	}
	var f phantomCertificateFrame
	if err := protocol.UnmarshalStrict(evidence[0], &f); err != nil || f.Certificate != phantomCertificateTag {
		return nil
	}
	falseReport := func(format string, args ...any) *protocol.Violation {
		return &protocol.Violation{Accused: accused.Other(), Rule: protocol.RuleFalseAccusation, Seq: -1,
			Detail: "false accusation (T-8 certificate): " + fmt.Sprintf(format, args...)}
	}
	if n := evidenceSize(evidence); n > maxCertificateEvidence {
		return oversizedCertificate(accused, n)
	}
	if accused != Garbler {
		return falseReport("a certificate convicts the garbler only")
	}
	m := protocol.NewMachine(game)
	for i := range history {
		if _, err := m.Apply(&history[i]); err != nil {
			return nil
		}
	}
	h, ok := m.Rules.(*Rules)
	if !ok {
		return falseReport("not a game of Phantom Go")
	}
	c := referee.Certificate{Commitment: evidence[1], Opened: f.Opened, Tables: f.Tables, What: f.What}
	switch {
	case f.Digest != "":
		if f.SeedOT || f.OT || f.Reverse || len(evidence) != 3 {
			return falseReport("a certificate of a digest with %d evidence frames", len(evidence))
		}
		switch f.Digest {
		case digestOfMAC:
			c.Digest = &referee.DigestEvidence{Reverse: evidence[2]}
		case digestOfCorrections:
			c.Digest = &referee.DigestEvidence{Reply: evidence[2]}
		default:
			return falseReport("a certificate of the digest of %q", f.Digest)
		}
	case f.SeedOT && !f.OT && !f.Reverse && len(evidence) == 4:
		s, err := hex.DecodeString(f.Coins)
		if err != nil || len(s) != 32 {
			return falseReport("the coins are not 32 bytes in hex")
		}
		e := &referee.SeedTransferEvidence{J: f.J, Start: evidence[2], Carrier: evidence[3]}
		copy(e.Coins[:], s)
		c.SeedOT = e
	case f.Opened >= 0 && !f.SeedOT && (!f.OT && !f.Reverse && len(evidence) == 2 || f.OT && !f.Reverse && len(evidence) == 5 ||
		f.Reverse && !f.OT && len(evidence) == 3):
		s, err := hex.DecodeString(f.Seed)
		if err != nil || len(s) != len(c.Seed) {
			return falseReport("the opened seed is not 32 bytes in hex")
		}
		copy(c.Seed[:], s)
		if f.OT {
			keys := evidence[4]
			if len(keys) != ot.Kappa*len(ot.Key{}) {
				return falseReport("%d bytes of reverse keys, want %d", len(keys), ot.Kappa*len(ot.Key{}))
			}
			c.OT = &referee.OTEvidence{Request: evidence[2], Reply: evidence[3], Keys: make([]ot.Key, ot.Kappa)}
			for i := range c.OT.Keys {
				copy(c.OT.Keys[i][:], keys[i*len(ot.Key{}):])
			}
		}
		if f.Reverse {
			c.Reverse, c.MAC = evidence[2], f.MAC
		}
	case f.Opened < 0 && !f.OT && !f.Reverse && len(evidence) == 4 && !f.Flips:
		c.Choice, c.Labels = evidence[2], evidence[3]
	case f.Opened < 0 && !f.OT && !f.Reverse && len(evidence) == 5 && f.Flips:
		c.Choice, c.Labels, c.Flips = evidence[2], evidence[3], evidence[4]
	default:
		return falseReport("%d evidence frames for garbling %d", len(evidence), f.Opened)
	}
	if f.Try >= uint64(len(h.Record.Tries)) {
		return falseReport("try %d is not in the record", f.Try)
	}
	if err := referee.JudgeCertificate(h.Record, int(f.Try), c); err != nil {
		return falseReport("%v", err)
	}
	return &protocol.Violation{Accused: Garbler, Rule: protocol.RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("T-8(b) certificate, try %d: %s", f.Try, certificateWhat(c))}
}

// oversizedCertificate is the reporter's false accusation (T-14) for a
// certificate of n bytes of evidence, above what any honest program
// sends (maxCertificateEvidence): judged from its size alone, before
// anything of it is parsed or replayed.
func oversizedCertificate(accused protocol.Role, n int) *protocol.Violation {
	return &protocol.Violation{Accused: accused.Other(), Rule: protocol.RuleFalseAccusation, Seq: -1,
		Detail: fmt.Sprintf("false accusation (T-8 certificate): %d bytes of evidence, above the %d any honest certificate fits in (MPC-D31)", n, maxCertificateEvidence)}
}

func certificateWhat(c referee.Certificate) string {
	if d := c.Digest; d != nil {
		part := "MAC sub-batch"
		if d.Reply != nil {
			part = "OT corrections"
		}
		return fmt.Sprintf("the garbler's commitment names the %s of garbling %d by a digest that is not the one of the %s it sent", part, c.Opened, part)
	}
	if c.SeedOT != nil {
		return fmt.Sprintf("the seed transfer gives opened garbling %d a seed other than the committed one", c.Opened)
	}
	if c.Reverse != nil && c.MAC {
		return fmt.Sprintf("the garbler's MAC choices of opened garbling %d are not the colours and mask bits its seed gives", c.Opened)
	}
	if c.Reverse != nil {
		return fmt.Sprintf("the garbler's reverse OT choices of opened garbling %d are not the bits of its Δ", c.Opened)
	}
	if c.OT != nil {
		return fmt.Sprintf("the OT corrections of opened garbling %d differ from what its seed, the garbler's committed reverse keys and the evaluator's request give", c.Opened)
	}
	if c.Opened >= 0 {
		return fmt.Sprintf("the %s of opened garbling %d differ from the garbler's commitment", c.What, c.Opened)
	}
	return fmt.Sprintf("the %s of the garbling sent differ from the garbler's commitment", c.What)
}

// Certificates of MPC-D29 (the authenticated state, docs/mpc.md): a
// program that substituted its share is caught in the try where it used
// it, and the other program reports it at once with one of these. The
// evaluator's proves that the garbler's share inputs do not match its
// MACs (it reveals its MAC machine's seed, which opens nothing of its
// inputs); the garbler's proves that the sums of the evaluator's choice
// are not those of its labels (it reveals the seeds and reverse keys of
// the two garblings ĵ the sums are made of). The judge is the same in
// `kakure verify`: referee.JudgeGarblerShare, referee.JudgeEvaluatorShare.

// phantomShareCertificateTag opens the first evidence frame of a
// certificate of MPC-D29.
const phantomShareCertificateTag = "kakure/phantom/share-certificate/1"

// phantomShareFrame is the first evidence frame of a certificate of
// MPC-D29. Against the garbler the next frames are the reverse setup
// messages (start, answer), the commitments parts of the garbler's
// commitments, its MAC sub-batches of the garblings ĵ and the choices, of
// the try before and of the try, and the garbler's labels message (96
// KiB on 9×9 at λ = 4); against
// the evaluator, the reverse keys of the two garblings ĵ (128 × 32 bytes
// each), then, for the try before and the try, the commitments, the
// evaluator's requests of garbling ĵ and the garbler's corrections of it
// (which the choices and the commitments name by their digests) and the
// choices, and the garbler's labels message of the try before (about
// 110 KiB on 9×9 at λ = 4). Frames of the try before
// are empty at try 0.
//
// With RequestDigest, a certificate against the evaluator whose choice
// names its request of garbling ĵ by another digest (MPC-D31): the next
// frames are the evaluator's request and its choice of the try.
type phantomShareFrame struct {
	Certificate   string `json:"certificate"`
	Try           uint64 `json:"try"`
	Accused       string `json:"accused"`
	MACSeed       string `json:"mac_seed,omitempty"`
	PrevSeed      string `json:"prev_seed,omitempty"`
	Seed          string `json:"seed,omitempty"`
	RequestDigest bool   `json:"request_digest,omitempty"`
}

// nonNil returns b, or an empty slice for nil: Game.accuse drops nil
// frames, and a frame of the try before is empty at try 0.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// GarblerShareViolation is the report of the evaluator's certificate
// against the garbler (MPC-D29), or nil when it lacks a message or does
// not fit a report (the evaluator then accuses and the audit decides).
func GarblerShareViolation(c *referee.GarblerShareCertificate, err error) error {
	if c.ReverseStart == nil || c.ReverseAnswer == nil || c.Try > 0 && (c.PrevCommitment == nil || c.PrevMAC == nil || c.PrevChoice == nil) {
		return nil
	}
	f := phantomShareFrame{Certificate: phantomShareCertificateTag, Try: c.Try, Accused: "garbler", MACSeed: hex.EncodeToString(c.MACSeed[:])}
	b, merr := json.Marshal(f)
	if merr != nil {
		return merr
	}
	frames := [][]byte{b, c.ReverseStart, c.ReverseAnswer, nonNil(c.PrevCommitment), c.Commitment, nonNil(c.PrevMAC), c.MAC,
		nonNil(c.PrevChoice), c.Choice, c.Labels}
	if evidenceSize(frames) > maxCertificateEvidence {
		return nil
	}
	return &protocol.Violation{Accused: Garbler, Rule: protocol.RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("certificate: %v", err), Err: &protocol.CertificateEvidence{Frames: frames}}
}

// EvaluatorShareViolation is the report of the garbler's certificate
// against the evaluator (MPC-D29), or nil when it lacks a message or does
// not fit a report.
func EvaluatorShareViolation(c *referee.EvaluatorShareCertificate, err error) error {
	if c.Try > 0 && (c.PrevCommitment == nil || c.PrevRequestPart == nil || c.PrevCorrections == nil || c.PrevChoice == nil || c.PrevLabels == nil) {
		return nil
	}
	f := phantomShareFrame{Certificate: phantomShareCertificateTag, Try: c.Try, Accused: "evaluator",
		PrevSeed: hex.EncodeToString(c.PrevSeed[:]), Seed: hex.EncodeToString(c.Seed[:])}
	b, merr := json.Marshal(f)
	if merr != nil {
		return merr
	}
	frames := [][]byte{b, keyBytes(c.PrevKeys), keyBytes(c.Keys), nonNil(c.PrevCommitment), c.Commitment, nonNil(c.PrevRequestPart), c.RequestPart,
		nonNil(c.PrevCorrections), c.Corrections, nonNil(c.PrevChoice), c.Choice, nonNil(c.PrevLabels)}
	if evidenceSize(frames) > maxCertificateEvidence {
		return nil
	}
	return &protocol.Violation{Accused: Evaluator, Rule: protocol.RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("certificate: %v", err), Err: &protocol.CertificateEvidence{Frames: frames}}
}

// RequestDigestViolation is the report of the garbler's certificate
// against an evaluator whose choice names its request of garbling ĵ by
// another digest (MPC-D31), or nil when it does not fit a report.
func RequestDigestViolation(c *referee.RequestDigestCertificate, err error) error {
	f := phantomShareFrame{Certificate: phantomShareCertificateTag, Try: c.Try, Accused: "evaluator", RequestDigest: true}
	b, merr := json.Marshal(f)
	if merr != nil {
		return merr
	}
	frames := [][]byte{b, c.Request, c.Choice}
	if evidenceSize(frames) > maxCertificateEvidence {
		return nil
	}
	return &protocol.Violation{Accused: Evaluator, Rule: protocol.RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("certificate: %v", err), Err: &protocol.CertificateEvidence{Frames: frames}}
}

// keyBytes writes reverse keys end to end (non-nil).
func keyBytes(keys []ot.Key) []byte {
	b := make([]byte, 0, len(keys)*len(ot.Key{}))
	for _, k := range keys {
		b = append(b, k[:]...)
	}
	return b
}

// parseKeys reads what keyBytes wrote: none, or ot.Kappa keys.
func parseKeys(b []byte) ([]ot.Key, bool) {
	if len(b) == 0 {
		return nil, true
	}
	if len(b) != ot.Kappa*len(ot.Key{}) {
		return nil, false
	}
	keys := make([]ot.Key, ot.Kappa)
	for i := range keys {
		copy(keys[i][:], b[i*len(ot.Key{}):])
	}
	return keys, true
}

// nilIfEmpty returns nil for an empty frame (of the try before, at try 0).
func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// judgeShareCertificate judges a certificate of MPC-D29 (frame f, the
// evidence after it) against the record of the game of h: the accused's
// violation when it proves the substitution, else the reporter's false
// accusation (T-14).
func judgeShareCertificate(h *Rules, accused protocol.Role, f phantomShareFrame, evidence [][]byte) *protocol.Violation {
	falseReport := func(format string, args ...any) *protocol.Violation {
		return &protocol.Violation{Accused: accused.Other(), Rule: protocol.RuleFalseAccusation, Seq: -1,
			Detail: "false accusation (T-8 certificate): " + fmt.Sprintf(format, args...)}
	}
	if f.Try >= uint64(len(h.Record.Tries)) {
		return falseReport("try %d is not in the record", f.Try)
	}
	seed := func(s string) (prg.Seed, bool) {
		var out prg.Seed
		b, err := hex.DecodeString(s)
		if err != nil || len(b) != len(out) {
			return out, false
		}
		copy(out[:], b)
		return out, true
	}
	var err error
	what := "the garbler's share inputs are not its share (MAC opening)"
	if accused == Evaluator {
		what = "the evaluator's share inputs are not its share (parity sums)"
	}
	switch {
	case f.RequestDigest:
		if f.Accused != "evaluator" || accused != Evaluator || len(evidence) != 2 || f.MACSeed != "" || f.PrevSeed != "" || f.Seed != "" {
			return falseReport("a certificate of the request's digest against the %s with %d evidence frames, reported against the %s", f.Accused, len(evidence), accused)
		}
		err = referee.JudgeRequestDigest(h.Record, int(f.Try), referee.RequestDigestCertificate{Try: f.Try, Request: evidence[0], Choice: evidence[1]})
		what = "the evaluator's choice names its request of garbling ĵ by a digest that is not the one of the request it sent"
	case f.Accused == "garbler" && accused == Garbler && len(evidence) == 9:
		s, ok := seed(f.MACSeed)
		if !ok {
			return falseReport("the MAC seed is not 32 bytes in hex")
		}
		err = referee.JudgeGarblerShare(h.Record, int(f.Try), referee.GarblerShareCertificate{Try: f.Try, MACSeed: s,
			ReverseStart: evidence[0], ReverseAnswer: evidence[1], PrevCommitment: nilIfEmpty(evidence[2]), Commitment: evidence[3],
			PrevMAC: nilIfEmpty(evidence[4]), MAC: evidence[5], PrevChoice: nilIfEmpty(evidence[6]), Choice: evidence[7], Labels: evidence[8]})
	case f.Accused == "evaluator" && accused == Evaluator && len(evidence) == 11:
		prev, ok1 := seed(f.PrevSeed)
		cur, ok2 := seed(f.Seed)
		prevKeys, ok3 := parseKeys(evidence[0])
		keys, ok4 := parseKeys(evidence[1])
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return falseReport("the seeds or the keys are malformed")
		}
		err = referee.JudgeEvaluatorShare(h.Record, int(f.Try), referee.EvaluatorShareCertificate{Try: f.Try, PrevSeed: prev, Seed: cur,
			PrevKeys: prevKeys, Keys: keys, PrevCommitment: nilIfEmpty(evidence[2]), Commitment: evidence[3],
			PrevRequestPart: nilIfEmpty(evidence[4]), RequestPart: evidence[5], PrevCorrections: nilIfEmpty(evidence[6]), Corrections: evidence[7],
			PrevChoice: nilIfEmpty(evidence[8]), Choice: evidence[9], PrevLabels: nilIfEmpty(evidence[10])})
	default:
		return falseReport("a certificate against the %s with %d evidence frames, reported against the %s", f.Accused, len(evidence), accused)
	}
	if err != nil {
		return falseReport("%v", err)
	}
	return &protocol.Violation{Accused: accused, Rule: protocol.RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("T-8 certificate (MPC-D29), try %d: %s", f.Try, what)}
}
