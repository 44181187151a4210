package protocol

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/referee"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Certificates of T-8(b) (MPC-D14 in docs/mpc.md): an evaluator that
// finds a checked garbling different from the garbler's signed
// commitment reports it at once (rule T-8) with a certificate as
// evidence, and reveals nothing of its own: no seed, no try. The judge
// (judgeReport, the same in `kakure verify`) hands it to
// judgePhantomCertificate through CertificateJudge, which convicts the
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
}

func init() { CertificateJudge = judgePhantomCertificate }

// certificateEvidence carries the evidence frames of a certificate from
// the player to the report (Game.accuse).
type certificateEvidence struct{ frames [][]byte }

func (c *certificateEvidence) Error() string { return "a T-8(b) certificate" }

// evidenceOf returns the evidence frames a violation found by the player
// carries, or nil.
func evidenceOf(v *Violation) [][]byte {
	var c *certificateEvidence
	if v != nil && errors.As(v.Err, &c) {
		return c.frames
	}
	return nil
}

// maxCertificateEvidence caps the evidence of a certificate report, which
// travels base64 in one message frame (MaxFrameSize): a certificate of
// the garbler's input labels on a large board does not fit, and the
// evaluator's program then accuses (PhantomAccuse) and the audit decides.
const maxCertificateEvidence = MaxFrameSize / 2

// certificateFits reports whether a certificate fits a report. One that
// does not is accused instead (PhantomAccuse): the audit then names the
// garbler (MPC-D17), for the OT corrections of MPC-D28 too (a request
// and a reply of a checked try of 13×13 or larger, or of 9×9 with
// λ ≥ 8, are too large).
func certificateFits(c *referee.Certificate) bool {
	return certificateSize(c) <= maxCertificateEvidence
}

// certificateSize is the raw size of a certificate's evidence.
func certificateSize(c *referee.Certificate) int {
	n := len(c.Commitment) + len(c.Choice) + len(c.Labels)
	if c.OT != nil {
		n += len(c.OT.Request) + len(c.OT.Reply) + len(c.OT.Keys)*len(ot.Key{})
	}
	return n + len(c.Reverse)
}

// certificateViolation is the report of a certificate the evaluator holds
// against the garbler (err is the evaluator machine's error).
func certificateViolation(try uint64, c *referee.Certificate, err error) error {
	f := phantomCertificateFrame{Certificate: phantomCertificateTag, Try: try, Opened: c.Opened, Tables: c.Tables, What: c.What}
	frames := [][]byte{nil, c.Commitment}
	if c.Opened >= 0 {
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
			f.Reverse = true
			frames = append(frames, c.Reverse)
		}
	} else {
		// Non-nil even when empty (the labels are not needed when the
		// tables differ): Game.accuse drops nil frames.
		frames = append(frames, c.Choice, append([]byte{}, c.Labels...))
	}
	b, merr := json.Marshal(f)
	if merr != nil {
		return merr
	}
	frames[0] = b
	return &Violation{Accused: phantomGarbler, Rule: RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("certificate: %v", err), Err: &certificateEvidence{frames: frames}}
}

// judgePhantomCertificate is CertificateJudge: it judges evidence that
// opens with a certificate frame against the game of history. It returns
// nil for evidence that is no certificate (judged as any other), the
// garbler's violation for a certificate that proves its cheat, and the
// reporter's false accusation (T-14) for one that does not.
func judgePhantomCertificate(game GameID, _ [2]peer.ID, accused Role, history []Message, evidence [][]byte) *Violation {
	if len(evidence) < 2 {
		return nil
	}
	var f phantomCertificateFrame
	if err := unmarshalStrict(evidence[0], &f); err != nil || f.Certificate != phantomCertificateTag {
		return nil
	}
	falseReport := func(format string, args ...any) *Violation {
		return &Violation{Accused: accused.Other(), Rule: ruleFalseAccusation, Seq: -1,
			Detail: "false accusation (T-8 certificate): " + fmt.Sprintf(format, args...)}
	}
	if accused != phantomGarbler {
		return falseReport("a certificate convicts the garbler only")
	}
	m := NewMachine(game)
	for i := range history {
		if _, err := m.Apply(&history[i]); err != nil {
			return nil
		}
	}
	h, ok := m.variant.(*phantomRules)
	if !ok {
		return falseReport("not a game of Phantom Go")
	}
	c := referee.Certificate{Commitment: evidence[1], Opened: f.Opened, Tables: f.Tables, What: f.What}
	switch {
	case f.Opened >= 0 && (!f.OT && !f.Reverse && len(evidence) == 2 || f.OT && !f.Reverse && len(evidence) == 5 ||
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
			c.Reverse = evidence[2]
		}
	case f.Opened < 0 && !f.OT && !f.Reverse && len(evidence) == 4:
		c.Choice, c.Labels = evidence[2], evidence[3]
	default:
		return falseReport("%d evidence frames for garbling %d", len(evidence), f.Opened)
	}
	if f.Try >= uint64(len(h.rec.Tries)) {
		return falseReport("try %d is not in the record", f.Try)
	}
	if err := referee.JudgeCertificate(h.rec, int(f.Try), c); err != nil {
		return falseReport("%v", err)
	}
	return &Violation{Accused: phantomGarbler, Rule: RuleCertificate, Seq: -1,
		Detail: fmt.Sprintf("T-8(b) certificate, try %d: %s", f.Try, certificateWhat(c))}
}

func certificateWhat(c referee.Certificate) string {
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
