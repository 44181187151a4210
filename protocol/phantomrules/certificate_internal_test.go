package phantomrules

import (
	"errors"
	"strings"
	"testing"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/mpc/referee"
)

// TestMPCD31OversizedCertificateRefused (MPC-D31, T-14): the judge
// refuses a certificate whose evidence exceeds maxCertificateEvidence
// from its size alone, as a false accusation by the reporter (no honest
// program sends one: the largest certificate of a game the invitation
// allows is about 2.4 MB), for either kind of certificate frame; at the
// cap, the size is not what refuses it. And the evaluator's program
// never sends one: above the cap its certificate is no report (it
// accuses, the audit decides), whatever it proves.
func TestMPCD31OversizedCertificateRefused(t *testing.T) {
	heads := map[string]string{
		"certificate":       `{"certificate":"` + phantomCertificateTag + `","try":0,"opened":-1,"tables":"` + strings.Repeat("00", 32) + `","what":"x"}`,
		"share certificate": `{"certificate":"` + phantomShareCertificateTag + `","try":0,"accused":"garbler"}`,
	}
	for name, head := range heads {
		for _, over := range []bool{false, true} {
			pad := maxCertificateEvidence - len(head)
			if over {
				pad++
			}
			v := judgePhantomCertificate(protocol.GameID{}, [2]protocol.PeerID{}, Garbler, nil, [][]byte{[]byte(head), make([]byte, pad)})
			if v == nil || v.Accused != Evaluator || v.Rule != protocol.RuleFalseAccusation {
				t.Fatalf("%s, over the cap %v: %+v, want the reporter's false accusation", name, over, v)
			}
			if bySize := strings.Contains(v.Detail, "bytes of evidence"); bySize != over {
				t.Errorf("%s of %d bytes: %s", name, len(head)+pad, v.Detail)
			}
		}
	}
	err := errors.New("a deviation")
	small := &referee.Certificate{Commitment: []byte{1}, Opened: -1, Choice: []byte{2}, Labels: []byte{3}}
	if v := CertificateViolation(0, small, err); v == nil || len(v.Evidence()) != 4 {
		t.Fatalf("a small certificate: %+v", v)
	}
	large := &referee.Certificate{Commitment: []byte{1}, Opened: -1, Choice: []byte{2}, Labels: make([]byte, maxCertificateEvidence)}
	if v := CertificateViolation(0, large, err); v != nil {
		t.Errorf("a certificate of %d bytes is reported", maxCertificateEvidence)
	}
}
