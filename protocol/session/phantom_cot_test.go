package session_test

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/referee"
	"github.com/kakure/kakure/protocol/session"
)

// correlatedOptions are threeHalvesOptions with the correlated input OTs
// (MPC-D28).
func correlatedOptions(rules engine.PhantomRules) engine.Options {
	o := threeHalvesOptions(rules)
	o.InputOT = engine.InputOTCorrelated
	return o
}

// TestT8InputOTInTheInvitation (MPC-D28): the form of the input OTs
// travels in the signed invitation's options as "input_ot", absent for
// the game's one OT extension (MPC-D18, older invitations); one meaning
// has one form, so "extension" written out is refused, and so are unknown
// forms, the correlated OTs of a game whose tries are not checked (λ = 1)
// and the option for another variant. The names are package referee's.
func TestT8InputOTInTheInvitation(t *testing.T) {
	if engine.InputOTExtension != referee.InputOTExtension.String() || engine.InputOTCorrelated != referee.InputOTCorrelated.String() {
		t.Fatal("engine and referee name the input OT forms differently")
	}
	o, err := correlatedOptions(engine.RulesCommon).Normalize()
	if err != nil {
		t.Fatal(err)
	}
	b := protocol.OptionsToBody(o)
	if b.InputOT != "correlated" {
		t.Fatalf("body input_ot %q", b.InputOT)
	}
	if back, err := b.Options(); err != nil || back.InputOT != engine.InputOTCorrelated {
		t.Fatalf("round trip: %v, input_ot %q", err, back.InputOT)
	}
	b.InputOT = ""
	if back, err := b.Options(); err != nil || back.InputOT != "" {
		t.Fatalf("without input_ot: %v, %q", err, back.InputOT)
	}
	b.InputOT = "extension"
	if _, err := b.Options(); err == nil {
		t.Error(`"input_ot": "extension" accepted`)
	}
	for _, bad := range []string{"Correlated", "cot", "silent"} {
		if _, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: 4, InputOT: bad}).Normalize(); err == nil {
			t.Errorf("input_ot %q accepted", bad)
		}
	}
	for _, lambda := range []int{0, 1} {
		if _, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: lambda, InputOT: engine.InputOTCorrelated}).Normalize(); err == nil {
			t.Errorf("correlated input OTs accepted with λ = %d", lambda)
		}
	}
	if _, err := (engine.Options{Variant: engine.VariantGo, InputOT: engine.InputOTCorrelated}).Normalize(); err == nil {
		t.Error("input_ot accepted for plain Go")
	}
	if n, err := (engine.Options{Variant: engine.VariantPhantom, Lambda: 4, InputOT: engine.InputOTExtension}).Normalize(); err != nil || n.InputOT != "" {
		t.Errorf("extension normalizes to %q (%v), want \"\"", n.InputOT, err)
	}
	// A body that names the correlated OTs without λ is refused when the
	// invitation is read.
	b = protocol.OptionsToBody(o)
	b.Lambda = 0
	if _, err := b.Options(); err == nil {
		t.Error("an invitation body with input_ot and no λ accepted")
	}
}

// TestT8PhantomCheckedGameCorrelatedOT is TestT8PhantomCheckedGame with
// the correlated input OTs (MPC-D28): two honest programs play a whole
// game with λ = 4 over libp2p, the reverse extension's setup riding on
// the seed commitment and the evaluator's setup and the reverse requests
// on the base and on every garbling; nobody is accused, the record holds
// the reverse digests, and Verify (whose audit replays the reverse
// extension) finds it clean. Without the race detector.
func TestT8PhantomCheckedGameCorrelatedOT(t *testing.T) {
	if phantomRace {
		t.Skip("a whole checked game: without the race detector (go test ./...)")
	}
	t.Parallel() // a game of its own, nothing shared
	playCleanCheckedGame(t, correlatedOptions(engine.RulesCommon), [2]func(*session.Config){}, "the correlated input OTs")
}

// playCleanCheckedGame plays a whole checked game of options o between
// two honest programs (hooks may watch their messages) and checks that
// nobody is accused, that the record holds the reverse extension's
// digests, and that Verify, whose audit replays the game, finds the
// record clean; form names the game's form in the errors.
func playCleanCheckedGame(t *testing.T, o engine.Options, hooks [2]func(*session.Config), form string) {
	t.Helper()
	h := playPhantomHooks(t, o, 0, hooks, [2]bot.Player{shortBot(11), shortBot(12)})
	if out := h.Outcome(); out == nil || out.Violation != nil {
		t.Fatalf("outcome %+v, want an honest end", out)
	}
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	checkReverseDigests(t, tr)
	if rep := protocol.Verify(tr); rep.Violation != nil {
		t.Errorf("Verify finds %v in an honest game of %s", rep.Violation, form)
	}
}

// checkReverseDigests checks that a record of a game of the correlated
// input OTs holds the reverse extension's digests where MPC-D28 puts
// them: on the commit, the setup, the base and every garbling.
func checkReverseDigests(t *testing.T, tr *protocol.Transcript) {
	t.Helper()
	kinds := map[protocol.Kind]int{}
	for _, m := range tr.Messages {
		kinds[m.Kind]++
		want := ""
		switch m.Kind {
		case phantomrules.KindCommit, phantomrules.KindSetup:
			want = `"reverse_base":"`
		case phantomrules.KindBase, phantomrules.KindGarbling, phantomrules.KindTryGarbling:
			want = `"reverse":"`
		}
		if want != "" && !strings.Contains(string(m.Body), want) {
			t.Errorf("%s message %d without %s: %s", m.Kind, m.Seq, want, m.Body)
		}
	}
	if kinds[phantomrules.KindCommitment] == 0 || kinds[phantomrules.KindCommitment] != kinds[phantomrules.KindChoice] ||
		kinds[phantomrules.KindOutputs] != kinds[phantomrules.KindChoice] {
		t.Errorf("messages of the record: %v", kinds)
	}
	t.Logf("%d checked tries", kinds[phantomrules.KindChoice])
}

// passBot passes at every try of Phantom Go, and scores as bot.Random: a
// game of it against itself is two tries long.
type passBot struct{ *bot.Random }

func (b passBot) Choose(v protocol.View) protocol.Action {
	if vv, ok := v.Variant.(phantomrules.View); ok && vv.Stage == phantomrules.StagePlay {
		if vv.MyTry {
			return protocol.Play{Point: engine.Pass}
		}
		return nil
	}
	return b.Random.Choose(v)
}

// TestT8PhantomReverseTakenAfterTheOutputs (MPC-D28): the reverse request
// of try t+1 rides on the garbling of try t, and the evaluator's program
// takes it only once try t's outputs are sent and the game goes on, never
// on arrival. A garbler's program sends a reverse request that fails the
// reverse extension's check (a byte of it flipped, its digest signed):
//   - with the base (try 0's) or the first garbling (try 1's, in a game
//     of two passes): the evaluator's program sends the outputs, then
//     accuses at its next turn; the record holds the bad request's digest,
//     so the audit names the garbler ("reverse OT request"), on the
//     honest machine and in Verify. Had it accused on arrival, in place
//     of the outputs, the record would hold no digest of it and the audit
//     would blame the evaluator (T-14);
//   - with the last garbling (try 2's, a try that never comes: the game
//     ended with two passes): never taken, nobody accused, Verify clean.
func TestT8PhantomReverseTakenAfterTheOutputs(t *testing.T) {
	t.Parallel() // computes and shares nothing: runs beside the tests that wait
	o := correlatedOptions(engine.RulesCommon)
	bad := func(i int) func(body any) any {
		return func(body any) any { return session.PhantomTamper(body, i, flipByte(11+200)) }
	}
	play := func(rewrite func(*session.Config)) *session.Game {
		return playPhantomBots(t, o, 0, rewrite, [2]bot.Player{passBot{shortBot(11)}, passBot{shortBot(12)}})
	}
	for _, tt := range []struct {
		name    string
		rewrite func(*session.Config)
	}{
		{"base", phantomRewrite(1, bad(1), phantomrules.KindBase)},
		{"first garbling", phantomRewrite(1, bad(3), phantomrules.KindGarbling, phantomrules.KindTryGarbling)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := play(tt.rewrite)
			checkPhantomCaught(t, h, "T-8", "reverse OT request")
			tr, err := session.LoadTranscript(h.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			accused := false
			for _, m := range tr.Messages {
				if m.Kind == phantomrules.KindAccuse {
					accused = m.From == protocol.Invitee
				}
				if m.Kind == phantomrules.KindOutputs && accused {
					t.Error("outputs after the accusation")
				}
			}
			if !accused {
				t.Error("the evaluator's program did not accuse")
			}
		})
	}
	t.Run("last garbling", func(t *testing.T) {
		h := play(phantomRewrite(2, bad(3), phantomrules.KindGarbling, phantomrules.KindTryGarbling))
		if out := h.Outcome(); out == nil || out.Violation != nil {
			t.Fatalf("outcome %+v, want an honest end", out)
		}
		tr, err := session.LoadTranscript(h.RecordPath())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tr.Messages {
			if m.Kind == phantomrules.KindAccuse {
				t.Errorf("an accusation: %s", m.Body)
			}
		}
		if rep := protocol.Verify(tr); rep.Violation != nil {
			t.Errorf("Verify finds %v", rep.Violation)
		}
	})
}

// TestT10PhantomReverseAttachments (MPC-D28, T-10, T-11): the reverse
// extension's attachments are checked as every other: one that does not
// match the digest its message signs is dropped with its message, and a
// sender that keeps sending it withholds its message and is abandoned,
// whichever program it is (the garbler's commit, base and garbling, the
// evaluator's setup); so is a garbler's start of the reverse base OTs
// that the evaluator cannot answer (cut short, its digest signed: only
// the digest is in the record, so it proves nothing), checked when it
// comes, before the commitment that signs it is taken.
func TestT10PhantomReverseAttachments(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	o := correlatedOptions(engine.RulesCommon)
	for _, tt := range []struct {
		name    string
		cheater int
		kinds   []protocol.Kind
		f       func(body any) any
		want    string
	}{
		{"commit", 0, []protocol.Kind{phantomrules.KindCommit}, func(b any) any { return session.PhantomCorruptAttachment(b, 0) }, "digest"},
		{"setup", 1, []protocol.Kind{phantomrules.KindSetup}, func(b any) any { return session.PhantomCorruptAttachment(b, 1) }, "digest"},
		{"base", 0, []protocol.Kind{phantomrules.KindBase}, func(b any) any { return session.PhantomCorruptAttachment(b, 1) }, "digest"},
		// The garbling the garbler's program sends by itself (a try of
		// the evaluator's player): one of its own player's tries is its
		// move, which has no grace in a game without a clock (REC-D14).
		{"garbling", 0, []protocol.Kind{phantomrules.KindGarbling},
			func(b any) any { return session.PhantomCorruptAttachment(b, 3) }, "digest"},
		{"reverse start cut short", 0, []protocol.Kind{phantomrules.KindCommit},
			func(b any) any { return session.PhantomTamper(b, 0, func(b []byte) []byte { return b[:len(b)-7] }) }, "digest"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each waits on two graces: wall time
			h := playPhantomWithheld(t, o, tt.cheater, phantomRewrite(1, tt.f, tt.kinds...))
			cheater := h.Role().Other()
			// Dropped with its message every time it comes: withheld
			// (T-10, T-11).
			checkAbandonedBy(t, h, cheater)
		})
	}
}

// flipCorrections flips a byte of one OT correction of every one of the λ
// garblings in the reply part of a checked try's commitment (MPC-D28: a
// header of 11 bytes, then per garbling its m corrections of 16 bytes).
// The offsets use m = 206, a 5×5 board's largest m (the evaluator's
// tries); with 200 (the garbler's) they still land in every garbling.
func flipCorrections(lambda int) func([]byte) []byte {
	return func(b []byte) []byte {
		for i := range lambda {
			b[11+16*206*i+5] ^= 1
		}
		return b
	}
}

// TestT8PhantomCertificateOfOTCorrections (MPC-D28, T-8(b)): a garbler's
// program sends OT corrections that are not the ones its seed, its
// reverse keys and the evaluator's request give, in every garbling (so
// that whichever the evaluator keeps, an opened one is wrong). The
// evaluator's program finds it in an opened garbling and reports it at
// once with a certificate of five frames (the seed of the garbling, the
// commitments, its request, the reply, the garbling's reverse keys)
// before it sends any output label, revealing nothing of its own; the
// garbler loses, proven, and Verify (kakure verify's judge) finds the
// same on the record. With both garbling schemes.
func TestT8PhantomCertificateOfOTCorrections(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	for _, scheme := range []string{engine.GarblingHalfGates, engine.GarblingThreeHalves} {
		t.Run(scheme, func(t *testing.T) {
			o := correlatedOptions(engine.RulesHamburg)
			o.Garbling = scheme
			h := playPhantomCheatOpts(t, o, 0, phantomRewrite(3, func(body any) any {
				return session.PhantomTamper(body, 1, flipCorrections(o.Lambda))
			}, phantomrules.KindCommitment), nil)
			checkPhantomCaught(t, h, "T-8", "OT corrections")
			checkNoReveal(t, h)
			tr, err := session.LoadTranscript(h.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			last := tr.Messages[len(tr.Messages)-1]
			for _, m := range tr.Messages {
				if m.Kind == protocol.KindViolation && m.From == protocol.Invitee {
					last = m
				}
			}
			if last.Kind != protocol.KindViolation || !strings.Contains(string(last.Body), "certificate") {
				t.Errorf("the evaluator's report is %s %s, want a certificate", last.Kind, last.Body)
			}
		})
	}
}

// forgedOTCertificateHooks are the setups of a pair whose evaluator
// (peer 1) lies at its choice number at: it reports the honest garbler
// (peer 0) with a made-up certificate of OT corrections, the try's true
// request and reply and reverse keys that are not the garbling's
// (PhantomForgedOTCertificate); the garbler's setup keeps the replies it
// commits to.
func forgedOTCertificateHooks(t *testing.T, at int) [2]func(*session.Config) {
	var mu sync.Mutex
	var request, reply []byte
	watchGarbler := func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if kind == phantomrules.KindCommitment {
				mu.Lock()
				reply = session.PhantomAttachment(body, 1)
				mu.Unlock()
			}
			return kind, body, false
		})
	}
	seen := 0
	liar := func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			switch kind {
			case phantomrules.KindTry, phantomrules.KindRequest:
				mu.Lock()
				request = session.PhantomAttachment(body, 0)
				mu.Unlock()
			case phantomrules.KindChoice:
				if seen++; seen == at {
					mu.Lock()
					defer mu.Unlock()
					v, err := session.PhantomForgedOTCertificate(g, request, reply)
					if err != nil {
						t.Errorf("forging: %v", err)
						return kind, body, false
					}
					return protocol.KindViolation, v, true
				}
			}
			return kind, body, false
		})
	}
	return [2]func(*session.Config){watchGarbler, liar}
}

// TestT14PhantomForgedOTCertificate (MPC-D28): a lying evaluator's
// program reports an honest garbler with a made-up certificate of OT
// corrections: the true seed of an opened garbling, the try's true
// request and reply (those the record's digests name), and reverse keys
// that are not the garbling's. The judge refuses it (their hash is not
// the one the garbler committed to) and the liar loses for a false
// accusation (T-14), on the garbler's machine and in Verify: the honest
// garbler is never the one blamed.
func TestT14PhantomForgedOTCertificate(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomHooks(t, correlatedOptions(engine.RulesCommon), 1, forgedOTCertificateHooks(t, 3),
		[2]bot.Player{shortBot(11), shortBot(12)})
	checkPhantomCaught(t, h, "T-14", "false accusation (T-8 certificate)")
}

// TestT8PhantomCheckedGameOTCertificateSizeLimit (MPC-D28, MPC-D17,
// MPC-D31): a certificate of OT corrections carries the try's whole
// request and reply, which grow with the board and λ. On 9×9 with λ = 4
// (the defaults of new games) it fits a message frame; with λ = 8 it does
// not (about 238 KiB of evidence, 320 KiB as a report), and goes as a
// report frame (before MPC-D31 the evaluator's program accused instead
// and the audit named the garbler). Either way the garbler's program
// takes the report and is convicted by the certificate, Verify finds the
// same on both records, and the evaluator reveals nothing. Without the race detector (9×9 garblings).
func TestT8PhantomCheckedGameOTCertificateSizeLimit(t *testing.T) {
	if phantomRace {
		t.Skip("9×9 checked tries: without the race detector (go test ./...)")
	}
	t.Parallel() // a game of its own, nothing shared
	for _, tt := range []struct {
		lambda int
		frame  bool
	}{
		{4, false},
		{8, true},
	} {
		t.Run(fmt.Sprintf("lambda %d", tt.lambda), func(t *testing.T) {
			o := correlatedOptions(engine.RulesCommon)
			o.Size, o.Lambda = 9, tt.lambda
			cheat := phantomRewrite(1, func(body any) any {
				return session.PhantomTamper(body, 1, func(b []byte) []byte {
					// m is 810 or 818 on 9×9: at 818·i the flip is in
					// garbling i either way.
					for i := range tt.lambda {
						b[11+16*818*i+5] ^= 1
					}
					return b
				})
			}, phantomrules.KindCommitment)
			games := playPhantomGames(t, o, 0, [2]func(*session.Config){cheat, nil}, [2]bot.Player{shortBot(11), shortBot(12)}, true)
			h := games[1]
			checkPhantomCaught(t, h, "T-8", "OT corrections")
			checkSameVerdict(t, games)
			if n := checkReport(t, h, protocol.Invitee, tt.frame); !tt.frame && n > protocol.MaxFrameSize {
				t.Errorf("a report of %d bytes with λ = %d, want one that fits a message frame", n, tt.lambda)
			}
			checkNoReveal(t, h)
		})
	}
}

// TestT8PhantomEvaluatorProbesTheCorrelatedOT is the IKNP probing attack
// (T-8(a)) on a game of the correlated input OTs (MPC-D28): an
// evaluator's program gives one row of the request of garbling 0 inside
// its fourth request a choice that differs between columns, to learn bits
// of that garbling's Δ_0. The garbler's program refuses it at once (the
// per-garbling KOS check) and accuses; the audit names the evaluator and
// Verify proves it.
func TestT8PhantomEvaluatorProbesTheCorrelatedOT(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	h := playPhantomCheatOpts(t, correlatedOptions(engine.RulesCommon), 1, phantomRewrite(4, func(body any) any {
		return session.PhantomTamper(body, 0, func(b []byte) []byte {
			// The request's header (11 bytes), then garbling 0's request:
			// its batch header (11 bytes, m at 7..11), then its columns.
			sub := b[11:]
			m := int(binary.BigEndian.Uint32(sub[7:11]))
			nb := (m + ot.KOSPad + 7) / 8
			for _, col := range []int{3, 17, 30, 44, 61, 80, 99, 127} {
				sub[11+col*nb] ^= 1
			}
			return b
		})
	}, phantomrules.KindTry, phantomrules.KindRequest), nil)
	checkPhantomCaught(t, h, "T-8", "OT request")
	tr, err := session.LoadTranscript(h.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	accused := false
	for _, m := range tr.Messages {
		accused = accused || m.Kind == phantomrules.KindAccuse && m.From == protocol.Inviter
	}
	if !accused {
		t.Error("the garbler's program did not accuse at once")
	}
}

// TestT10PhantomReverseDigestMissing (MPC-D28): in a game of the
// correlated input OTs every message that carries a reverse attachment
// signs its digest; a program that sends one without it (its own machine
// refusing it) breaks T-10, found by the other's machine when it comes
// and by Verify in the record.
func TestT10PhantomReverseDigestMissing(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	for _, tt := range []struct {
		name    string
		cheater int
		kinds   []protocol.Kind
	}{
		{"setup", 1, []protocol.Kind{phantomrules.KindSetup}},
		{"garbling", 0, []protocol.Kind{phantomrules.KindGarbling, phantomrules.KindTryGarbling}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen := 0
			h := playPhantomCheatOpts(t, correlatedOptions(engine.RulesCommon), tt.cheater, func(c *session.Config) {
				session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
					if !slices.Contains(tt.kinds, kind) {
						return kind, body, false
					}
					if seen++; seen != 2 && kind != phantomrules.KindSetup {
						return kind, body, false
					}
					return kind, session.PhantomDropReverse(body), true
				})
			}, nil)
			cheater := h.Role().Other()
			out := h.Outcome()
			if out == nil || out.Violation == nil || out.Violation.Accused != cheater || out.Violation.Rule != "T-10" ||
				!strings.Contains(out.Violation.Detail, "reverse OT digest") {
				t.Fatalf("outcome %+v, want a T-10 violation of the %s about the reverse OT digest", out, cheater)
			}
			tr, err := session.LoadTranscript(h.RecordPath())
			if err != nil {
				t.Fatal(err)
			}
			if rep := protocol.Verify(tr); rep.Violation == nil || rep.Violation.Accused != cheater || rep.Violation.Rule != "T-10" || !rep.Proven {
				t.Fatalf("Verify: %+v (proven %v), want T-10 by the %s, proven from the signed message", rep.Violation, rep.Proven, cheater)
			}
		})
	}
}

// TestT14PhantomForgedReverseCertificate (MPC-D28): a lying evaluator's
// program reports an honest garbler with a made-up certificate of its
// reverse choices: the true seed of an opened garbling and the try's
// true reverse request (the one the record's digest names). The judge
// decodes it, finds the garbling's reverse choices are the bits of its
// Δ, and refuses it: the liar loses for a false accusation (T-14), on
// the garbler's machine and in Verify.
func TestT14PhantomForgedReverseCertificate(t *testing.T) {
	t.Parallel() // a game of its own, nothing shared
	seen := 0
	h := playPhantomCheatOpts(t, correlatedOptions(engine.RulesCommon), 1, func(c *session.Config) {
		session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
			if kind != phantomrules.KindChoice {
				return kind, body, false
			}
			if seen++; seen != 3 {
				return kind, body, false
			}
			v, err := session.PhantomForgedReverseCertificate(g)
			if err != nil {
				t.Errorf("forging: %v", err)
				return kind, body, false
			}
			return protocol.KindViolation, v, true
		})
	}, nil)
	checkPhantomCaught(t, h, "T-14", "are the bits of its Δ")
}
