package session_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/session"
)

// authOptions are correlatedOptions with the authenticated state
// (MPC-D29).
func authOptions(rules engine.PhantomRules) engine.Options {
	o := threeHalvesOptions(rules)
	o.InputOT = engine.InputOTAuthenticated
	return o
}

// TestMPCD29InTheInvitation: the authenticated state travels in the
// signed invitation's options as "input_ot": "authenticated"; it needs
// checked tries and three-halves.
func TestMPCD29InTheInvitation(t *testing.T) {
	o, err := authOptions(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.OptionsToBody(o)
	if b.InputOT != "authenticated" {
		t.Fatalf("body input_ot %q", b.InputOT)
	}
	if back, err := b.Options(); err != nil || back.InputOT != engine.InputOTAuthenticated {
		t.Fatalf("round trip: %v, input_ot %q", err, back.InputOT)
	}
	bad := o
	bad.Garbling = engine.GarblingHalfGates
	if _, err := bad.Normalize(); err == nil {
		t.Error("the authenticated state accepted with half-gates")
	}
	bad = o
	bad.Lambda = 1
	if _, err := bad.Normalize(); err == nil {
		t.Error("the authenticated state accepted with λ = 1")
	}
}

// authMAC64Options are authOptions with the garbler's MACs of 64 bits
// (MPC-D32).
func authMAC64Options(rules engine.PhantomRules) engine.Options {
	o := threeHalvesOptions(rules)
	o.InputOT = engine.InputOTAuthenticatedMAC64
	return o
}

// TestMPCD32InTheInvitation: the authenticated state with MACs of 64 bits
// travels in the signed invitation's options as "input_ot":
// "authenticated-mac64"; like "authenticated" it needs checked tries and
// three-halves.
func TestMPCD32InTheInvitation(t *testing.T) {
	o, err := authMAC64Options(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.OptionsToBody(o)
	if b.InputOT != "authenticated-mac64" {
		t.Fatalf("body input_ot %q", b.InputOT)
	}
	if back, err := b.Options(); err != nil || back.InputOT != engine.InputOTAuthenticatedMAC64 {
		t.Fatalf("round trip: %v, input_ot %q", err, back.InputOT)
	}
	bad := o
	bad.Garbling = engine.GarblingHalfGates
	if _, err := bad.Normalize(); err == nil {
		t.Error("MACs of 64 bits accepted with half-gates")
	}
	bad = o
	bad.Lambda = 1
	if _, err := bad.Normalize(); err == nil {
		t.Error("MACs of 64 bits accepted with λ = 1")
	}
}

// TestMPCD32PhantomGame: two honest programs play a whole game of the
// authenticated state with MACs of 64 bits over libp2p: every reverse
// request the garbler's program sends has MAC sub-batches of 64 columns
// (its size is the one of MPC-D32, not MPC-D29's), nobody is accused,
// and Verify (whose audit replays the MAC sub-batches of every try
// with the record's options) finds the record clean. In the pass
// without the race detector.
func TestMPCD32PhantomGame(t *testing.T) {
	if phantomRace {
		t.Skip("a whole checked game: in the pass without the race detector")
	}
	t.Parallel() // a game of its own, nothing shared
	o := authMAC64Options(engine.RulesCommon)
	n := o.Size * o.Size * (3 + circuit.RefereeLabelBits(o.Size))
	reverseSize := func(kappa int) int {
		return 3 + 8 + o.Lambda*ot.RequestSize(ot.Kappa) + o.Lambda*ot.RequestSizeKappa(kappa, 2*n)
	}
	var mu sync.Mutex
	sizes := map[int]int{}
	watch := func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			for i := 0; ; i++ {
				a := session.PhantomAttachment(body, i)
				if a == nil {
					break
				}
				if bytes.HasPrefix(a, []byte{'P', 2, 'V'}) { // a reverse request (MPC-D28)
					mu.Lock()
					sizes[len(a)]++
					mu.Unlock()
				}
			}
			return kind, body, false
		})
	}
	playCleanCheckedGame(t, o, [2]func(*session.Config){watch, watch}, "MACs of 64 bits")
	mu.Lock()
	defer mu.Unlock()
	if len(sizes) != 1 || sizes[reverseSize(ot.KappaMAC)] == 0 {
		t.Errorf("reverse requests of sizes %v, want %d bytes (MACs of 64 bits; %d with 128)", sizes, reverseSize(ot.KappaMAC), reverseSize(ot.Kappa))
	}
}

// TestMPCD29PhantomGame: two honest programs play a whole game with the
// authenticated state over libp2p (the MAC extension's base OTs in the
// reverse setup messages, the MAC sub-batches in the reverse requests,
// the sums in the choices, the MAC openings in the garblings); nobody is
// accused and Verify (whose audit replays all of it) finds the record
// clean. In the pass without the race detector.
func TestMPCD29PhantomGame(t *testing.T) {
	if phantomRace {
		t.Skip("a whole checked game: in the pass without the race detector")
	}
	t.Parallel() // a game of its own, nothing shared
	playCleanCheckedGame(t, authOptions(engine.RulesCommon), [2]func(*session.Config){}, "the authenticated state")
}

// TestT8PhantomAuthEvaluatorAltersItsShare is issue 31's cheater over
// libp2p: the evaluator's program flips a bit of its share between two
// tries. In a game of the authenticated state (MPC-D29) it is caught in
// the try where it uses that share, before the garbler sends garbling ĵ:
// the garbler's program reports it at once with a certificate, the
// evaluator loses, proven, and Verify finds the same on the record.
func TestT8PhantomAuthEvaluatorAltersItsShare(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	for _, form := range []struct {
		size  int
		mac64 bool
	}{{5, false}, {9, false}, {5, true}} {
		size := form.size
		name := fmt.Sprintf("%dx%d", size, size)
		if form.mac64 {
			name += "-mac64"
		}
		t.Run(name, func(t *testing.T) {
			o := authOptions(engine.RulesKriegspiel)
			if form.mac64 {
				// MPC-D32: the same catch, the MACs of 64 bits.
				o = authMAC64Options(engine.RulesKriegspiel)
			}
			o.Size = size
			h := playPhantomCheatOpts(t, o, 1, nil, &cheatingBot{Player: shortBot(12), cheat: session.PhantomAlterShare{}})
			checkAuthEvaluatorCaught(t, h)
		})
	}
}

// checkAuthEvaluatorCaught checks that the evaluator's altered share was
// caught and reported with a certificate (MPC-D29).
func checkAuthEvaluatorCaught(t *testing.T, h *session.Game) {
	t.Helper()
	checkPhantomCaught(t, h, "T-8", "share inputs are not its share")
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	reported := false
	for _, m := range tr.Messages {
		if m.Kind == protocol.KindViolation && m.From == protocol.Inviter && strings.Contains(string(m.Body), "evidence") {
			reported = true
		}
		if m.Kind == phantomrules.KindOutputs && m.Seq > 0 && reported {
			t.Errorf("outputs after the report")
		}
	}
	if !reported {
		t.Error("the garbler's report carries no certificate")
	}
}

// TestT8PhantomSeedTransferCertificate (MPC-D30, issue 31's certificate
// stripping): a garbler's program sends, in its signed commitment of a
// try, seed transfer ciphertexts of its own (a byte of both sides of the
// first level flipped), so that the evaluator opens a seed other than
// the committed one. The evaluator's program reports it at once with a
// certificate — its coins of that try's transfer, which open ĵ's path
// only, not its seed — the garbler loses, proven, and Verify agrees.
func TestT8PhantomSeedTransferCertificate(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	o := authOptions(engine.RulesCommon)
	h := playPhantomCheatOpts(t, o, 0, phantomRewrite(2, func(body any) any {
		return session.PhantomTamper(body, 0, func(b []byte) []byte {
			// The last 2·32·depth bytes are the ciphertexts, level 1 first.
			b[len(b)-128+3] ^= 1
			b[len(b)-96+3] ^= 1
			return b
		})
	}, phantomrules.KindCommitment), nil)
	checkPhantomCaught(t, h, "T-8", "seed transfer")
	checkNoReveal(t, h)
}
