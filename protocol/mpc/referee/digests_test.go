package referee

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// Offsets of the named digests in the messages of a game of the
// authenticated state: garbling i's entry of the commitment is H(seed),
// H(tables), H(label commitments), H(K_i), then the digests of its MAC
// sub-batch and of its corrections; the choice's digest of its request
// of ĵ follows the sums.
func macHashAt(i int) int    { return commitHeader + i*6*sha256.Size + 4*sha256.Size }
func corrHashAt(i int) int   { return commitHeader + i*6*sha256.Size + 5*sha256.Size }
func requestHashAt() int     { return choiceSize + authRows*16 }
func flipAt(b []byte, k int) { b[k] ^= 0x10 }

// TestMPCD31DigestCertificates (MPC-D31, issue 31's "digests that
// disagree with their messages"): in a game of the authenticated state
// a garbler whose commitment names the MAC sub-batch or the corrections
// of a garbling by a digest other than the part's, and an evaluator whose
// choice names its request of ĵ by another digest, are caught at once —
// the evaluator at Open, the garbler before it sends garbling ĵ — and
// the other party's certificate, made of the two signed messages, is
// accepted by the judge against the record. The garbling named is each
// of the λ in turn for the garbler's digests.
func TestMPCD31DigestCertificates(t *testing.T) {
	for k, part := range []string{"mac", "corrections", "request"} {
		for i := range 4 {
			if part == "request" && i > 0 {
				break
			}
			gm := newAuthGame(t, 5, engine.RulesCommon, engine.Black, testSeed("digest g", 4*k+i), testSeed("digest e", 4*k+i), 4, macForms[(4*k+i)%2])
			const at = 2
			gm.tamper = func(try uint64, what string, b []byte) []byte {
				switch {
				case try != at:
				case part == "mac" && what == "commitment":
					flipAt(b, macHashAt(i)+3)
				case part == "corrections" && what == "commitment":
					flipAt(b, corrHashAt(i)+7)
				case part == "request" && what == "choice":
					flipAt(b, requestHashAt()+11)
				}
				return b
			}
			var err error
			for _, p := range []engine.Point{12, 6, 7} {
				if _, err = gm.play(p); err != nil {
					break
				}
			}
			blamed := "the garbler"
			if part == "request" {
				blamed = "the evaluator"
			}
			if !errors.Is(err, ErrDeviation) || !strings.Contains(err.Error(), blamed) || len(gm.rec.Tries) != at+1 {
				t.Fatalf("%s, garbling %d: %v after %d tries, want a deviation of %s at try %d", part, i, err, len(gm.rec.Tries), blamed, at)
			}
			if part == "request" {
				c := gm.g.RequestDigestCertificate()
				if c == nil {
					t.Fatalf("%s: no certificate", part)
				}
				if err := JudgeRequestDigest(gm.rec, at, *c); err != nil {
					t.Fatalf("%s: the certificate is not accepted: %v", part, err)
				}
				continue
			}
			c := gm.e.Certificate()
			if c == nil || c.Digest == nil || c.Opened != i || (c.Digest.Reverse != nil) != (part == "mac") {
				t.Fatalf("%s, garbling %d: certificate %+v", part, i, c)
			}
			if err := JudgeCertificate(gm.rec, at, *c); err != nil {
				t.Fatalf("%s, garbling %d: the certificate is not accepted: %v", part, i, err)
			}
		}
	}
}

// TestMPCD31DigestCertificatesCannotFrame: certificates of the named
// digests made of an honest party's messages prove nothing — whichever
// garbling they name, with the try's own messages, with messages of
// another try, with a part of another try's message in place of the
// right one, with the named part changed by a byte (which only the
// record's digest of the message refuses) — so that neither party can
// frame the other.
func TestMPCD31DigestCertificatesCannotFrame(t *testing.T) {
	gm := newAuthGame(t, 5, engine.RulesHamburg, engine.White, testSeed("digest frame g", 0), testSeed("digest frame e", 0), 4, macForms[1])
	msgs := authMessages(gm)
	for _, p := range []engine.Point{12, 6, 7} {
		if _, d := gm.step(p); d != "" {
			t.Fatal(d)
		}
	}
	rc, err := circuitsFor(gm.cfg)
	if err != nil {
		t.Fatal(err)
	}
	for try := range 3 {
		other := (try + 1) % 3
		commitment, reverse, reply := msgs["commitment"][try], msgs["reverse"][try], msgs["commitment-reply"][try]
		_, mover, err := CommitmentTry(gm.cfg, commitment)
		if err != nil {
			t.Fatal(err)
		}
		m := rc.layout[mover].NumInputs[circuit.Evaluator]
		for i := range 4 {
			// The part of garbling i changed by a byte, the rest of the
			// message as signed: only the record's digest refuses it.
			changedReverse := bytes.Clone(reverse)
			subs, err := splitMAC(gm.cfg, uint64(try), changedReverse)
			if err != nil {
				t.Fatal(err)
			}
			subs[i][len(subs[i])/2] ^= 1
			changedReply := bytes.Clone(reply)
			changedReply[cotHeader+16*i*gm.cfg.garblingOTs(m)+5] ^= 1
			for name, d := range map[string]*DigestEvidence{
				"its MAC sub-batches":                     {Reverse: reverse},
				"its corrections":                         {Reply: reply},
				"another try's reverse request":           {Reverse: msgs["reverse"][other]},
				"another try's reply":                     {Reply: msgs["commitment-reply"][other]},
				"both parts":                              {Reverse: reverse, Reply: reply},
				"its reverse request, garbling i changed": {Reverse: changedReverse},
				"its reply, garbling i changed":           {Reply: changedReply},
			} {
				c := Certificate{Commitment: commitment, Opened: i, Digest: d}
				if err := JudgeCertificate(gm.rec, try, c); !errors.Is(err, ErrNotProven) {
					t.Errorf("try %d, garbling %d, %s: %v, want ErrNotProven", try, i, name, err)
				}
			}
		}
		j, _, _, err := parseChoiceOf(gm.cfg, uint64(try), msgs["choice"][try])
		if err != nil {
			t.Fatal(err)
		}
		changedRequest := bytes.Clone(msgs["request"][try])
		reqs, _, err := splitCOTRequest(gm.cfg, uint64(try), m, changedRequest)
		if err != nil {
			t.Fatal(err)
		}
		reqs[j][len(reqs[j])/2] ^= 1
		for name, c := range map[string]RequestDigestCertificate{
			"its request":                   {Try: uint64(try), Request: msgs["request"][try], Choice: msgs["choice"][try]},
			"its request, ĵ's part changed": {Try: uint64(try), Request: changedRequest, Choice: msgs["choice"][try]},
			"another try's request":         {Try: uint64(try), Request: msgs["request"][other], Choice: msgs["choice"][try]},
			"another try's choice":          {Try: uint64(try), Request: msgs["request"][try], Choice: msgs["choice"][other]},
			"another try":                   {Try: uint64(other), Request: msgs["request"][try], Choice: msgs["choice"][try]},
		} {
			if err := JudgeRequestDigest(gm.rec, try, c); !errors.Is(err, ErrNotProven) {
				t.Errorf("try %d, %s: %v, want ErrNotProven", try, name, err)
			}
		}
	}
}
