#!/usr/bin/env bash
# mutants.sh: checks by hand-made mutation that the tests of a check can
# fail (issue 30, case 10). Each entry below changes one check of the code
# (a bound flipped, a check deleted) and names the tests that must then
# fail; the script applies each change alone to a scratch copy of the
# module (never to the working tree), runs those tests before and after,
# and reports the mutant as
#
#   killed    the tests pass on the code as it is and fail on the mutant
#   SURVIVED  the tests still pass on the mutant: they cannot catch it
#   STALE     the text to change is not in the file exactly once (the
#             code moved on: update the entry)
#   BROKEN    the tests fail on the code as it is, or the mutant does not
#             build (neither says anything about the tests)
#
# and exits 1 unless every mutant is killed.
#
# Usage: internal/mutants/mutants.sh [NAME...]   (all entries by default)
#        internal/mutants/mutants.sh -l          (list the entries)
#        internal/mutants/mutants.sh -s          (check they still apply)
#        FULL=1 internal/mutants/mutants.sh      (in the full tier)
#
# The tests run at the size go test ./... gives them (the default tier),
# so every entry is also a mutant the default tier still kills.
#
# Adding an entry: one call of `mutant` in the list below,
#
#   mutant NAME FILE replace OLD NEW PACKAGE TESTS
#   mutant NAME FILE delete-line TEXT - PACKAGE TESTS
#
# replace changes the literal text OLD, which must occur exactly once in
# FILE, to NEW; delete-line deletes the one line that contains TEXT.
# FILE is relative to the module root, PACKAGE a go test package pattern
# (./protocol) and TESTS a regular expression of the tests to run (given
# to go test -run as ^(TESTS)$). This script is self-contained: it uses
# bash, git, tar, perl and go, and nothing else under internal/.
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

names=() files=() hows=() olds=() news=() pkgs=() runs=()
mutant() {
	names+=("$1") files+=("$2") hows+=("$3") olds+=("$4") news+=("$5") pkgs+=("$6") runs+=("$7")
}

# --- The mutants ---------------------------------------------------------

# CLK-D8: a settlement equal to the other's claim settles nothing.
mutant settle-equal-claim protocol/clock_rule.go replace \
	'l.Free || charge <= l.Claimed {' 'l.Free || charge < l.Claimed {' \
	./protocol/session 'TestCLKD8SettlementEqualToTheClaimIsRefused'
# CLK-D9: a time-out claim of exactly what the other had left is false.
mutant phantom-try-clock-key protocol/clock.go replace \
	'k.try = tc.TryID()' 'k.try = 0 * tc.TryID()' \
	./protocol/session 'TestCLKD16PhantomTriesAreTheMoversTime'
mutant claim-equal-left protocol/clock.go replace \
	'case ok && c.charge <= left:' 'case ok && c.charge < left:' \
	./protocol/session 'TestCLKD9ClaimOfWhatIsLeftIsNoTimeout'
# CLK-D13: the move that ends an adjournment claims no think time.
mutant adjourn-think-check protocol/clock_rule.go delete-line \
	'"CLK-D13", "claims %v of think time for the %s that ends an adjournment' - \
	./protocol/session 'TestCLKD13ThinkTimeOnTheMoveThatEndsAnAdjournment'
# CLK-D9: a settlement past the other's clock must be a time-out claim.
mutant settle-past-clock-check protocol/clock_rule.go delete-line \
	'"CLK-D9", "settles the other'"'"'s %s at %v, past its clock' - \
	./protocol/session 'TestCLKD8SettlementPastTheClockIsRefused'
# T-3: a message that acknowledges nothing carries the zero hash.
mutant ack-hash-without-ack protocol/transcript.go delete-line \
	'return fmt.Errorf("%w: ack hash without ack", ErrBadAck)' - \
	./protocol/session 'TestT3AckHashWithoutAck'
# REC-D7: a message the rules refuse after the game was decided is not
# part of the game (it was once reported as the violation instead).
mutant late-message-decides protocol/verify.go replace \
	'rep.Late = append(rep.Late, *v)' 'rep.Violation, rep.Proven = v, true; break' \
	./protocol/session 'TestRECD7VerifyNamesTheDecidingEvent'
# CLK-D9: a loss on time by the flagged side's own move verifies ok (it
# was once printed as a violation).
mutant own-move-time-loss-ok protocol/verify.go replace \
	'case v != nil && r.Judgement == nil && byTime:' 'case v != nil && r.Judgement == nil && byTime && !r.Proven:' \
	./protocol/session 'TestCLKD9HonestLossOnTimeVerifies'

# Issue 30's rules (REC-D11..D15, CLK-D17).
# REC-D11: a report that proves nothing changes nothing.
mutant unproven-ends-game protocol/machine_apply.go replace \
	'if j.Verdict == VerdictUnproven {
		return m.standUnproven(msg, j)' 'if j.Verdict == VerdictUnproven && false {
		return m.standUnproven(msg, j)' \
	./protocol/session 'TestT13JudgeTable'
# REC-D12: a challenge the record already answered is answered.
mutant challenge-answered-at-once protocol/challenge.go delete-line \
	'c.answered, c.answeredSeq = true, h.Seq' - \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# REC-D12: one challenge for each message of the accused's.
mutant challenge-spam protocol/challenge.go replace \
	'prev != nil && msg.Ack <= prev.ack' 'prev != nil && msg.Ack < prev.ack' \
	./protocol/session 'TestRECD13AbandonmentJudged'
# REC-D13: an abandonment after an answer it acknowledged is false.
mutant abandon-after-ack protocol/challenge.go replace \
	'if int64(c.answeredSeq) <= msg.Ack {' 'if int64(c.answeredSeq) < msg.Ack {' \
	./protocol/session 'TestRECD13AbandonmentJudged'
# REC-D13: an answer that crossed the abandonment voids it.
mutant abandon-crossing protocol/machine.go replace \
	'if m.Phase == PhaseDone && m.abandoned != nil {' 'if m.Phase == PhaseDone && m.abandoned != nil && false {' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# REC-D15: a message that crossed a resignation is taken as if first.
mutant resign-crossing protocol/machine.go replace \
	'if m.crossesResignation(msg) {' 'if false && m.crossesResignation(msg) {' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# REC-D15: of two crossing resignations the one of the player to move.
mutant resign-resign protocol/machine.go replace \
	'if msg.From != m.resignToMove {' 'if msg.From == m.resignToMove {' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# REC-D15: a request to adjourn that crossed the other's move lapses.
mutant request-crossing-move protocol/clock_adjourn.go replace \
	'l.Role == msg.From.Other() && int64(l.Seq) > msg.Ack' 'false && l.Role == msg.From.Other() && int64(l.Seq) > msg.Ack' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# CLK-D13, REC-D15: an acceptance that crossed the requester's move.
mutant accept-crossing-move protocol/machine.go replace \
	'crossed = m.acceptanceCrossed(msg)' 'crossed = false && m.acceptanceCrossed(msg)' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# CLK-D17: a claim about the last move that ended play.
mutant claim-about-pass-ending-play protocol/clock.go replace \
	'm.Clocks.Last.Seq), true, true' 'm.Clocks.Last.Seq), true, false' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# CLK-D35: a claim about no clock waits for the messages that crossed it.
mutant claim-of-no-clock-waits protocol/clock.go replace \
	'case !ok && m.Clocks.Claim != nil:' 'case !ok && !crossed:' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
mutant claim-judged-again-after-crossing protocol/clock.go replace \
	'more, err := m.judgeClaim(c, true)' 'more, err := []Event(nil), error(nil); m.Clocks.Claim = c' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
mutant claim-void-when-crossing-stopped-its-clock protocol/clock.go replace \
	'case !ok && crossed:' 'case false:' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# CLK-D35: a claim made void by a crossing message lets its claimer claim again.
mutant claim-void-lets-the-claimer-claim-again protocol/session/game_loop.go delete-line \
	'g.clk.claimed = false' - \
	./protocol/session 'TestCLKD35ClaimAgainAfterAVoidClaim'
mutant claim-crossed-at-arrival protocol/clock.go replace \
	'msg.Ack < m.lastSeq(msg.From.Other()))' 'false)' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
mutant claim-of-no-clock-refused-loses protocol/clock.go replace \
	'c.Unfounded != nil && msg.From == flagged && msg.Kind == KindTimeoutRefuse' 'false' \
	./protocol/session 'TestCLKD35ClaimOfNoClockLoses'
mutant claim-of-no-clock-answered-before-play protocol/machine.go replace \
	'(m.Phase == PhasePlay || c.Unfounded != nil)' 'm.Phase == PhasePlay' \
	./protocol/session 'TestCLKD35ClaimOfNoClockLoses'
mutant claim-of-no-clock-honest-refuses protocol/session/clock_game.go replace \
	'if c.Claim.Unfounded != nil {' 'if false {' \
	./protocol/session 'TestCLKD35ClaimOfNoClockLoses'
# CLK-D17, REC-D15: a second claim that crossed the refusal of the first.
mutant claim-crossing-refusal protocol/clock.go replace \
	'if r := m.Clocks.refused[n-1]; r.claim.By == c.By && c.msg.Ack < int64(r.seq) {' 'if r := m.Clocks.refused[n-1]; false && r.claim.By == c.By && c.msg.Ack < int64(r.seq) {' \
	./protocol/session 'TestRECD15CrossingsGiveOneVerdict'
# CLK-D17: neither side moves while a claim waits.
mutant move-under-claim protocol/clock.go replace \
	'return nil, NewViolation(msg.From, msg.Seq, "CLK-D9", "%s message while its time-out claim waits for the answer", msg.Kind), true' \
	'return nil, nil, false' \
	./protocol/session 'TestCLKD17NeitherMovesWhileAClaimWaits'

# MPC-D8: the OT sender's cache of the checked request is matched on the
# request's bytes, not its size (issue 31, item 5).
mutant ot-check-cache-bytes protocol/mpc/ot/iknp.go replace \
	'if s.checked != nil && bytes.Equal(s.checked, request) {' 'if s.checked != nil && len(s.checked) == len(request) {' \
	./protocol/mpc/ot 'TestT8CheckCacheMatchesTheRequest'
# MPC-D14: a certificate of the garbling sent carries the labels the
# record holds; one byte off would convict an honest garbler.
mutant judge-labels-binding protocol/mpc/referee/pvc_certificates.go replace \
	' || len(c.Labels) > 0 && Sum(c.Labels) != tr.Labels)' ')' \
	./protocol/mpc/referee 'TestT8ForgedCertificateRejected'
# MPC-D14: a certificate is judged for the mover the record gives.
mutant judge-mover-check protocol/mpc/referee/pvc_certificates.go replace \
	'if try != pub.Try || mover != cfg.PartyOf(pub.ToMove) {' 'if try != pub.Try {' \
	./protocol/mpc/referee 'TestT8JudgeRefusesCommitmentOfAnotherMover'

# MPC-D29: the garbler's check of the evaluator's sums (a substituted
# evaluator share), exact at try 0.
mutant auth-parity-check protocol/mpc/referee/auth_shares.go replace \
	'if d != (gc.Label{}) && (prev == nil || d != delta) {' 'if false && d != delta {' \
	./protocol/mpc/referee 'TestT8AuthEvaluatorSubstitution'
mutant auth-parity-first-try protocol/mpc/referee/auth_shares.go replace \
	'if d != (gc.Label{}) && (prev == nil || d != delta) {' 'if d != (gc.Label{}) && d != delta {' \
	./protocol/mpc/referee 'TestT8AuthEvaluatorSubstitution'
# MPC-D29: the evaluator's check of the garbler's MAC opening.
mutant auth-opening-check protocol/mpc/referee/auth_shares.go replace \
	'if bytes.Equal(opening, want[:]) {' 'if true || bytes.Equal(opening, want[:]) {' \
	./protocol/mpc/referee 'TestT8AuthGarblerSubstitution'
# MPC-D29: the MAC choices of every opened garbling, and their proof.
mutant auth-mac-choices protocol/mpc/referee/pvc_cot_corrections.go replace \
	'return ot.VerifyChoices(e.cfg.macSession(), e.rev.macSubs[i], append(macBits(seeds[i], e.cfg.stateBits()), macPad(seeds[i])...))' 'return nil' \
	./protocol/mpc/referee 'TestT8AuthGarblerMACChoices'
mutant auth-mac-choices-proof protocol/mpc/referee/auth_certificates.go replace \
	'case errors.Is(err, ot.ErrChoices):' 'case errors.Is(err, ot.ErrChoices) && false:' \
	./protocol/mpc/referee 'TestT8AuthGarblerMACChoices'
# MPC-D29: the judges never convict the honest party: the garbler's
# garblings ĵ must be the ones its seeds give, and its corrections too.
# (The evaluator's revealed MAC seed must give its signed setup answer;
# a wrong seed also fails the judge's replay of the KOS checks, so that
# check has no mutant of its own.)
mutant auth-judge-prev-garbling protocol/mpc/referee/auth_certificates.go replace \
	'if cp.commit != cm.entries[j] || rec.Tries[t-1].Tables != cm.entries[j][1] {' 'if false {' \
	./protocol/mpc/referee 'TestT8AuthGarblerCannotFrameEvaluator'
mutant auth-judge-corrections protocol/mpc/referee/auth_certificates.go replace \
	'if bad >= 0 {' 'if false {' \
	./protocol/mpc/referee 'TestT8AuthGarblerCannotFrameEvaluator'

# MPC-D29 after a restart (MPC-D33, PN-D9): the messages of the try before given
# back to a resumed machine must be the record's (each one changed in a
# byte is refused), and the session keeps them in its secrets and gives
# them back (oldest first), so that the first try after a restart still
# certifies.
mutant auth-resume-garbler-request protocol/mpc/referee/resume.go delete-line \
	'the request of try %d kept is not the one recorded", ErrRecord, rt.try)' - \
	./protocol/mpc/referee 'TestT8AuthCertificatesAfterAResume'
mutant auth-resume-garbler-commitments protocol/mpc/referee/resume.go delete-line \
	'the commitments of try %d kept are not the ones recorded", ErrRecord, rt.try)' - \
	./protocol/mpc/referee 'TestT8AuthCertificatesAfterAResume'
mutant auth-resume-garbler-labels protocol/mpc/referee/resume.go delete-line \
	'the labels message of try %d kept is not the one recorded", ErrRecord, rt.try)' - \
	./protocol/mpc/referee 'TestT8AuthCertificatesAfterAResume'
mutant auth-resume-evaluator-commitments protocol/mpc/referee/resume_evaluator.go delete-line \
	'the commitments of try %d kept are not the ones recorded", ErrRecord, try)' - \
	./protocol/mpc/referee 'TestT8AuthCertificatesAfterAResume'
mutant auth-resume-evaluator-reverse protocol/mpc/referee/resume_evaluator.go delete-line \
	'the reverse request of try %d kept is not the one recorded", ErrRecord, try)' - \
	./protocol/mpc/referee 'TestT8AuthCertificatesAfterAResume'
mutant auth-resume-evaluator-choice protocol/mpc/referee/resume_evaluator.go delete-line \
	'the choice of try %d kept is not the one recorded", ErrRecord, try)' - \
	./protocol/mpc/referee 'TestT8AuthCertificatesAfterAResume'
mutant auth-resume-garbler-session protocol/session/player_phantom_secrets.go delete-line \
	'_ = p.g.ResumeAuthEvidence(tr, prev, cm, lb)' - \
	./protocol/session 'TestT8PhantomAuthCertificateAfterARestart'
mutant auth-resume-garbler-older-choice protocol/session/player_phantom.go delete-line \
	'p.olderChoice = p.prevChoice' - \
	./protocol/session 'TestT3CheckedPhantomCrash'
mutant auth-resume-garbler-keeps-commitments protocol/session/player_phantom.go delete-line \
	'p.keepEvidence(h, c.Commitments)' - \
	./protocol/session 'TestT8PhantomAuthCertificateAfterARestart'
mutant auth-resume-garbler-keeps-labels protocol/session/player_phantom_try.go delete-line \
	'p.keepEvidence(h, gb.Labels)' - \
	./protocol/session 'TestT8PhantomAuthCertificateAfterARestart'
mutant auth-resume-evaluator-session protocol/session/player_phantom_secrets.go delete-line \
	'_ = p.e.ResumeAuthEvidence(tr, told-1, cm, rev, ch)' - \
	./protocol/session 'TestT8PhantomAuthGarblerCertificateAfterARestart'
mutant auth-resume-evaluator-keeps-commitments protocol/session/player_phantom_bulk.go delete-line \
	'p.keepEvidence(h, bulk[0])' - \
	./protocol/session 'TestT8PhantomAuthGarblerCertificateAfterARestart'
mutant auth-resume-evaluator-keeps-choice protocol/session/player_phantom_bulk.go delete-line \
	'p.keepEvidence(h, choice)' - \
	./protocol/session 'TestT8PhantomAuthGarblerCertificateAfterARestart'
mutant auth-resume-evidence-order protocol/session/player_phantom_secrets.go replace \
	'for _, d := range []referee.Digest{tr.Commitment, tr.Choice, tr.Labels} {' 'for _, d := range []referee.Digest{tr.Commitment, tr.Choice, tr.Labels}[:0] {' \
	./protocol/session 'TestMPCD33EvidenceInOrder'
mutant auth-resume-evidence-kept protocol/session/player_phantom.go replace \
	'const evidenceKept = 6' 'const evidenceKept = 3' \
	./protocol/session 'TestT8PhantomAuthGarblerCertificateAfterARestart'

# PN-D19: the secrets memo finds a byte string by identity, not length;
# the patch line is json.Marshal's; a string kept as encoded is checked.
mutant secrets-memo-identity protocol/session/player_phantom_encode.go replace \
	'return sliceID{first: &b[0], n: len(b)}' 'return sliceID{n: len(b)}' \
	./protocol/session 'TestPND19SecretsEncoding|TestPND28SumCache'
mutant secrets-patch-line protocol/session/storage_patch.go replace \
	'if i > 0 {' 'if i > 1 {' \
	./protocol/session 'TestT3SecretsRawPatchMatchesDecoded'
mutant secrets-patch-printable protocol/session/storage_patch.go replace \
	'if c < 0x20 || c > 0x7e {' 'if c < 0x20 && c > 0x7e {' \
	./protocol/session 'TestT3SecretsLogRefusesMalformedDocuments'
# REC-D19: the secrets log is rewritten past five documents.
mutant secrets-rewrite-ratio protocol/session/storage.go replace \
	'secretsCompactRatio int64 = 5' 'secretsCompactRatio int64 = 3' \
	./protocol/session 'TestRECD19SecretsRewriteRatio'

# MPC-D30: a wrong seed of the seed transfer comes with a certificate,
# and the evaluator's revealed coins must give its signed response.
mutant seed-transfer-certificate protocol/mpc/referee/pvc_evaluator.go replace \
	'if carrier != nil {' 'if carrier == nil {' \
	./protocol/mpc/referee 'TestT8AuthSeedTransferCertified'
mutant seed-transfer-coins protocol/mpc/referee/seedot.go replace \
	'if !bytes.Equal(msg, carried) {' 'if bytes.Equal(msg, nil) && carried == nil {' \
	./protocol/mpc/referee 'TestT8AuthSeedTransferCertified'

# MPC-D31: certificates of every size. A certificate of garbling ĵ as
# sent reads the choice of the game's form (an authenticated one was once
# read as the old form, convicting the honest evaluator).
mutant certificate-auth-choice protocol/mpc/referee/pvc_certificates.go replace \
	'j, _, _, err := parseChoiceOf(cfg, cm.try, c.Choice)' 'j, _, err := parseChoice(cfg, cm.try, c.Choice)' \
	./protocol/mpc/referee 'TestT8CertificateOfSentGarbling'
# A report too large for a message frame goes as a report frame, judged
# live by the other program (which otherwise drops it as oversized).
mutant report-frame-send protocol/session/game_stream.go replace \
	'if len(raw) > protocol.MaxFrameSize && m.Kind == protocol.KindViolation {' 'if false {' \
	./protocol/session 'TestT8PhantomCheckedGameOTCertificateSizeLimit'
# A report frame is capped, judged from its header.
mutant report-frame-cap protocol/wire.go replace \
	'limit, kind = MaxReportSize+1, FrameReport' 'limit, kind = 4*MaxReportSize, FrameReport' \
	./protocol 'TestT10FrameCaps|TestMPCD31ReportFrameRefusedFromItsHeader'
# Refused from its header in a game without certificates (LIM-D8), in a
# stream's handshake, and by the judge's reader of single frames.
mutant report-frame-without-certificates protocol/session/game_stream.go replace \
	'return errReportRefused' 'return nil' \
	./protocol/session 'TestMPCD31HostileReportFrames'
mutant report-frame-in-handshake protocol/session/session.go replace \
	'return fmt.Errorf("%w: report frame before the game", protocol.ErrMalformed)' 'return nil' \
	./protocol/session 'TestMPCD31HandshakeRefusesReportFrames'
mutant report-frame-as-evidence protocol/wire.go replace \
	'	if kind == FrameReport {
		return fmt.Errorf("%w: a report frame", ErrMalformed)' '	if false {
		return fmt.Errorf("%w: a report frame", ErrMalformed)' \
	./protocol 'TestMPCD31ReportFrameRefusedFromItsHeader'
# A report frame holds a violation report, nothing else; its bytes go
# back to the budget once it is handled.
mutant report-frame-kind protocol/session/game_loop.go replace \
	'if f.Msg == nil || f.Msg.Kind != protocol.KindViolation {' 'if f.Msg == nil {' \
	./protocol/session 'TestMPCD31HostileReportFrames'
mutant report-frame-refund protocol/session/game_loop.go replace \
	'		defer g.refundBulk(charge)
		if f.Msg == nil' '		if f.Msg == nil' \
	./protocol/session 'TestMPCD31HostileReportFrames'
# The judge refuses a certificate above the cap from its size, and the
# evaluator's program never reports one.
mutant certificate-cap-judge protocol/phantomrules/certificate.go replace \
	'	if n := evidenceSize(evidence); n > maxCertificateEvidence {
		return oversizedCertificate(accused, n)
	}
	if accused != Garbler {' '	if accused != Garbler {' \
	./protocol/phantomrules 'TestMPCD31OversizedCertificateRefused'
mutant certificate-cap-judge-share protocol/phantomrules/certificate.go replace \
	'		if n := evidenceSize(evidence); n > maxCertificateEvidence {
			return oversizedCertificate(accused, n)
		}
		m := protocol.NewMachine(game)' '		m := protocol.NewMachine(game)' \
	./protocol/phantomrules 'TestMPCD31OversizedCertificateRefused'
mutant certificate-cap-bound protocol/phantomrules/certificate.go replace \
	'	if n := evidenceSize(evidence); n > maxCertificateEvidence {
		return oversizedCertificate(accused, n)
	}
	if accused' '	if n := evidenceSize(evidence); n >= maxCertificateEvidence {
		return oversizedCertificate(accused, n)
	}
	if accused' \
	./protocol/phantomrules 'TestMPCD31OversizedCertificateRefused'
mutant certificate-cap-sender protocol/phantomrules/certificate.go replace \
	'	frames[0] = b
	if evidenceSize(frames) > maxCertificateEvidence {' '	frames[0] = b
	if false {' \
	./protocol/phantomrules 'TestMPCD31OversizedCertificateRefused'
# REC-D10 (issue 33): a certificate convicts only the one it proves
# against, and only a report of rule T-8 is a certificate's.
mutant certificate-judge-accused protocol/judge.go replace \
	'case v != nil && v.Accused == accused:' 'case v != nil:' \
	./protocol/session 'TestT13CertificateJudge'
mutant certificate-judge-rule protocol/judge.go replace \
	'if body.Rule == RuleCertificate {' 'if true {' \
	./protocol/session 'TestT13CertificateJudge'
# T-1 (issue 33): a node opens its protected identity key with the
# passphrase of its Config, and every command gives it.
mutant node-config-passphrase node/node.go replace \
	'LoadOrCreateIdentity(home, cfg.Passphrase)' 'LoadOrCreateIdentity(home, nil)' \
	./node 'TestT1ProtectedIdentity'
mutant relay-passphrase cmd/kakure/relay.go replace \
	'Passphrase: env.askPassphrase, ' '' \
	./cmd/kakure 'TestT1EveryNodeAsksForThePassphrase'

# MPC-D31: the digests the signed messages name are proven when they
# disagree with their parts (the MAC sub-batch, the corrections, the
# request of ĵ), and the judges never take an honest party's messages.
mutant digest-mac-certificate protocol/mpc/referee/pvc_evaluator.go replace \
	'Digest: &DigestEvidence{Reverse: bytes.Clone(e.rev.msg)}}' 'Digest: nil}' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificates'
mutant digest-corrections-certificate protocol/mpc/referee/pvc_cot_corrections.go replace \
	'Digest: &DigestEvidence{Reply: bytes.Clone(msg.Reply)}}' 'Digest: nil}' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificates'
mutant digest-request-certificate protocol/mpc/referee/pvc_garbler.go delete-line \
	'g.requestCert = requestDigestCertificate(try, st.request, choice)' - \
	./protocol/mpc/referee 'TestMPCD31DigestCertificates'
mutant digest-judge-mac protocol/mpc/referee/digests.go replace \
	'if Sum(subs[i]) != cm.macHashes[i] {' 'if subs != nil {' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificatesCannotFrame'
mutant digest-judge-corrections protocol/mpc/referee/digests.go replace \
	'if Sum(correctionBytes(corr[i])) != cm.corrHashes[i] {' 'if corr != nil {' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificatesCannotFrame'
mutant digest-judge-binding protocol/mpc/referee/pvc_certificates.go replace \
	'if d := c.Digest; d != nil && (d.Reverse != nil' 'if d := c.Digest; false && (d.Reverse != nil' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificatesCannotFrame'
mutant request-judge-digest protocol/mpc/referee/digests.go replace \
	'if Sum(reqs[ch.j]) != ch.request {' 'if reqs != nil {' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificatesCannotFrame'
mutant request-judge-binding protocol/mpc/referee/digests.go replace \
	'if tr.Sent < 3 || Sum(c.Request) != tr.Request || Sum(c.Choice) != tr.Choice {' 'if tr.Sent < 3 {' \
	./protocol/mpc/referee 'TestMPCD31DigestCertificatesCannotFrame'
mutant request-digest-report protocol/session/player_phantom_bulk.go replace \
	'if c := p.g.RequestDigestCertificate(); c != nil {' 'if c := p.g.RequestDigestCertificate(); c != nil && false {' \
	./protocol/session 'TestMPCD31LargeCertificates'

# MPC-D32: an extension of 64 columns gives correlated OTs only (its
# keys would be half keys), and a MAC width other than 128 or 64 bits is
# refused.
mutant mac-hashed-refused protocol/mpc/ot/iknp.go replace \
	'if s.kappa != Kappa {' 'if false {' \
	./protocol/mpc/ot 'TestMPCD32MACExtension'
mutant mac-bits-config protocol/mpc/referee/config.go replace \
	'case c.MACBits != ot.KappaMAC:' 'case false:' \
	./protocol/mpc/referee 'TestMPCD32Config'

# The mutants the default tier's smaller sizes must still kill (issue 32):
# run them before making a test smaller, and add the mutants of what you
# shrink. FULL=1 runs every entry in the full tier instead.
# positional superko (GO-3) never checked
mutant GO-superko engine/gogame.go replace \
	'if g.history.Contains(next) {' \
	'if false && g.history.Contains(next) {' \
	./engine 'TestGO1to3GnuGoRandomGames'
# only the first chain left without a liberty is captured (GO-1)
mutant GO-capture-one engine/board.go replace \
	'if next.cells[q] == opp && !next.HasLiberty(q) {' \
	'if next.cells[q] == opp && !next.HasLiberty(q) && len(res.Captured) == 0 {' \
	./engine 'TestGO1to3GnuGoRandomGames'
# suicide (GO-2) allowed on one point in seven
mutant GO-suicide engine/board.go replace \
	'if len(res.Captured) == 0 && !next.HasLiberty(p) {' \
	'if len(res.Captured) == 0 && !next.HasLiberty(p) && p%7 != 3 {' \
	./engine 'TestGO1to3GnuGoRandomGames'
# the evaluator re-garbles only half of the opened garblings (T-8(b)): the catch rate halves
mutant T8-opened-half protocol/mpc/referee/pvc_evaluator.go replace \
	'			if i == j {
				continue' \
	'			if i == j || i%2 == 1 {
				continue' \
	./protocol/mpc/referee 'TestT8CoverCatchesCheatingGarbler'
# the OT replies of half the opened garblings go unchecked (MPC-D18)
mutant T8-ot-half protocol/mpc/referee/pvc_evaluator.go replace \
	'if i == ck.j || got == nil || otFault != nil {' \
	'if i == ck.j || i%2 == 1 || got == nil || otFault != nil {' \
	./protocol/mpc/referee 'TestT8CoverCatchesWrongOTReply'
# after a crash the evaluator's output labels are not made again for the peer that lacks them (PN-D14)
mutant PN-remake-outputs protocol/session/player_phantom_bulk.go replace \
	'if p.outputs != nil {' \
	'if p.outputs != nil && false {' \
	./protocol/session 'TestT3PhantomAttachmentsMadeAgainAfterACrash|TestT3CheckedPhantomCrash'
# ARCH-D3: no variant's entry replaces another's kind or judge.
mutant register-kind-twice protocol/registry.go replace \
	'return fmt.Errorf("protocol: kind %q of variant %q is declared twice", k, e.Variant)' '_ = k' \
	./protocol 'TestARCHD3RegisterRefusesAnEntryThatReplaces'
mutant register-second-judge protocol/registry.go replace \
	'if e.JudgeCertificate != nil && certificates != nil {' 'if false {' \
	./protocol 'TestARCHD3RegisterRefusesAnEntryThatReplaces'
# REC-D20: the judge's verdict on a real record's equivocation, as the
# core's Example shows it.
mutant judge-equivocation-copy protocol/judge.go replace \
	'if held := chain[seq]; held.Hash() == ev.Hash() {' 'if held := chain[seq]; held.Hash() == ev.Hash() || true {' \
	./protocol 'ExampleVerify_report'
# CLK-D15: a gomoku pass is the variant's own body, which carries the stamp.
mutant gomoku-pass-body protocol/session/player_gomoku.go replace \
	'kind, body = gomokurules.KindPass, gomokurules.PassBody{}' 'kind, body = gomokurules.KindPass, struct{}{}' \
	./protocol/session 'TestCLKD15GomokuPassCarriesItsStamp'
# CLK-D14: an F-Go commitment is the variant's own body, which carries the stamp.
mutant fgo-commit-body protocol/session/player_fgo.go replace \
	'return fgorules.KindCommit, fgorules.CommitBody{Commitment: cm}, nil' 'return fgorules.KindCommit, protocol.CommitBody{Commitment: cm}, nil' \
	./protocol/session 'TestCLKD14FGoBothClocksRun'
# after a crash a garbling is not made again (PN-D14)
mutant PN-remake-garbling protocol/session/player_phantom_bulk.go replace \
	'case msg.Kind != phantomrules.KindBase && gb != nil:' \
	'case msg.Kind != phantomrules.KindBase && gb != nil && false:' \
	./protocol/session 'TestT3PhantomAttachmentsMadeAgainAfterACrash|TestT3CheckedPhantomCrash'
# after a crash the evaluator's OT request is not made again (PN-D14)
mutant PN-remake-request protocol/session/player_phantom_bulk.go replace \
	'if req != nil {' \
	'if req != nil && msg.Kind != phantomrules.KindRequest {' \
	./protocol/session 'TestT3PhantomAttachmentsMadeAgainAfterACrash|TestT3CheckedPhantomCrash'
# after a crash the garbler's base OTs are not made again (PN-D14)
mutant PN-remake-base protocol/session/player_phantom_bulk.go replace \
	'case msg.Kind == phantomrules.KindBase && base != nil:' \
	'case msg.Kind == phantomrules.KindBase && base != nil && false:' \
	./protocol/session 'TestT3PhantomAttachmentsMadeAgainAfterACrash|TestT3CheckedPhantomCrash'
# after a crash a checked try's commitment is not made again (MPC-D16, PN-D14)
mutant PN-remake-commitment protocol/session/player_phantom_bulk.go replace \
	'if c := p.g.AgainCommitment(); c != nil {' \
	'if c := p.g.AgainCommitment(); c != nil && false {' \
	./protocol/session 'TestT3CheckedPhantomCrash'
# after a crash a checked try's choice is not made again (PN-D14)
mutant PN-remake-choice protocol/session/player_phantom_bulk.go replace \
	'if p.e != nil && p.e.AgainChoice() != nil {' \
	'if p.e != nil && p.e.AgainChoice() != nil && false {' \
	./protocol/session 'TestT3CheckedPhantomCrash'
# the secure referee announces an atari on one side of the move only (PG-5): T-9 holds it to the plaintext referee
mutant T9-atari-one-side protocol/mpc/circuit/referee_build.go replace \
	'atariOpponent := b.AND(moved, b.OrAll(putsInAtari))' \
	'atariOpponent := b.AND(moved, putsInAtari[0])' \
	./protocol/mpc/referee 'TestT9SecureRefereeMatchesEngine'
# the secure referee sets a ko after a capture by a stone joined to its own (PG-4)
mutant T9-ko-with-neighbour protocol/mpc/circuit/referee_build.go replace \
	'setsKo := b.AND(moved, b.AND(countIsOne, b.AND(b.NOT(b.OrAll(ownNeighbour)), oneLibAfter)))' \
	'setsKo := b.AND(moved, b.AND(countIsOne, oneLibAfter))' \
	./protocol/mpc/referee 'TestT9SecureRefereeMatchesEngine'
# a resumed game forgets its coin toss's secret (T-3, T-11)
mutant STORE-toss protocol/session/game_storage.go replace \
	'g.toss = sf.Toss' \
	'_ = sf.Toss' \
	./protocol/session 'TestT3CrashAtEveryWritePoint'
# a bot restarted after a SIGKILL does not resume its unfinished game (T-11)
mutant KILL-no-resume cmd/kakure/botcmd.go replace \
	'for i, id := range ids {' \
	'for i, id := range ids[:0] {' \
	./cmd/kakure 'TestT11KillCampaign'
# a gomoku player's announcement settles again the announcement its answer settled: its own machine refuses it and the honest player loses on time (CLK-D15)
mutant CLK-gomoku-settle-once protocol/session/clock_game.go replace \
	'if l := g.m.Clocks.Last; l == nil || l.Role != g.role.Other() || l.Free {' \
	'if l := g.m.Clocks.Last; l == nil {' \
	./protocol/session 'TestCLKD15GomokuSettlementOnce'
# an F-Go player's clock runs on after its commitment of the turn (CLK-D14): it is charged the other's thinking
mutant CLK-fgo-commit-stops-clock protocol/fgorules/clock.go replace \
	'runs[r] = g.turn.commits[r] == nil' \
	'runs[r] = true' \
	./protocol/session 'TestCLKD14FGoBothClocksRun'
mutant CLK-D33-held-time-ends-claim protocol/session/clock_game.go delete-line \
	'now = g.clk.heldAt // the player' - \
	./protocol/session 'TestCLKD33HeldTryNotChargedTheOthersWait'
mutant CLK-D33-hold-forgotten-at-turn protocol/session/clock_game.go replace \
	'g.clk.heldAt = now' 'g.clk.heldAt = g.clk.heldAt' \
	./protocol/session 'TestCLKD33EarlyActionBeforeTheTurn'
mutant CLK-D33-garbler-tries-early protocol/session/player_phantom_try.go replace \
	'mover == p.me && sent <= garblerStepsBefore(h)' \
	'mover == p.me && p.garblerTryReady(h) && sent <= garblerStepsBefore(h)' \
	./protocol/session 'TestCLKD33HeldTryNotChargedTheOthersWait'
mutant CLK-D33-held-try-not-saved protocol/session/game_send.go replace \
	'if !held && (k == ""' \
	'if held || !held && (k == ""' \
	./protocol/session 'TestPND20OneSecretsSavePerMessage'
# CLK-D34: a settlement exceeds the claim it settles by at most the lag
# allowance (1 ms more is its signer's violation).
mutant CLK-D34-settle-cap protocol/clock_rule.go replace \
	'if excess > c.Lag {' \
	'if excess > c.Lag+time.Millisecond {' \
	./protocol/session 'TestCLKD34SettlementCapAndBudget'
# CLK-D34: one side's settlements exceed the other's claims by at most
# the budget over the game.
mutant CLK-D34-settle-budget protocol/clock_rule.go replace \
	'if left := c.SettleLeft(msg.From); excess > left {' \
	'if left := c.SettleLeft(msg.From); excess > left+time.Millisecond {' \
	./protocol/session 'TestCLKD34SettlementCapAndBudget'
# CLK-D34: the honest program settles at most the claim and the
# allowance (else its own machine refuses its move over real lag).
mutant CLK-D34-honest-cap protocol/session/clock_game.go replace \
	'settleMS = min(chargeMS, claimedMS+c.Lag.Milliseconds(), ' \
	'settleMS = min(chargeMS, ' \
	./protocol/session 'TestCLKD34HonestLagAboveTheAllowance'
# CLK-D34: the honest program settles within what is left of its budget.
mutant CLK-D34-honest-budget protocol/session/clock_game.go replace \
	', claimedMS+c.SettleLeft(g.role).Milliseconds())' \
	')' \
	./protocol/session 'TestCLKD34HonestLagAboveTheAllowance'
# MPC-D56: the evaluator's next request by flips made with the player's lock held again: its View waits for the request
mutant MPC-D56-request-aside protocol/session/player_phantom.go replace \
	'if h.Flipped() && kinds[0] == phantomrules.KindRequest && p.caught == "" && p.e != nil {' \
	'if false && h.Flipped() && kinds[0] == phantomrules.KindRequest && p.caught == "" && p.e != nil {' \
	./protocol/session 'TestMPCD56ViewNotHeldByTheNextRequest'
# UI-D50: kakure's commands give Phantom Go the evaluator's tries by flips
# by default where they apply, and the lobby's form starts with them.
mutant UI-D50-flips-default cmd/kakure/variantflags.go delete-line \
	'o = tryFlipsByDefault(o)' - \
	./cmd/kakure 'TestMPCD52TryFlipsFlag|TestEveryVariantHasItsFlags'
mutant UI-D50-lobby-flips cmd/kakure/play.go replace \
	'|| opt.Format(o) != opt.Default {' \
	'{' \
	./cmd/kakure 'TestMPCD52TryFlipsFlag'
mutant UI-D50-form-checkbox ui/lobby_form.go replace \
	'f.checkbox.SetChecked(f.opt.Format(o) == "true")' \
	'f.checkbox.SetChecked(false)' \
	./ui 'TestUID50TryFlipsStartsChecked'

# UI-D51: an invitation with try-flips that the invitee resets goes again
# without them, and only then.
mutant UI-D51-any-reset cmd/kakure/invitefallback.go replace \
	' && reset.Remote' \
	'' \
	./cmd/kakure 'TestUID51OlderPeerInvitedWithoutFlips|TestUID51FallbackOnlyOnAReset'
mutant UI-D51-no-answer-only cmd/kakure/invitefallback.go replace \
	'errors.Is(err, session.ErrNoAnswer) && ' \
	'' \
	./cmd/kakure 'TestUID51OlderPeerInvitedWithoutFlips|TestUID51FallbackOnlyOnAReset'
mutant UI-D51-without-flips cmd/kakure/invitefallback.go delete-line \
	'_ = optionTryFlips().Parse(&without, "false")' - \
	./cmd/kakure 'TestUID51OlderPeerInvitedWithoutFlips|TestUID51FallbackOnlyOnAReset'
mutant UI-D51-no-answer-error protocol/session/game_stream.go replace \
	'g.onAnswer(fmt.Errorf("%w: %w", ErrNoAnswer, err))' \
	'g.onAnswer(fmt.Errorf("protocol: no answer to the invitation: %w", err))' \
	./cmd/kakure 'TestUID51OlderPeerInvitedWithoutFlips'
# Its call sites: `kakure bot --invite` and the lobby's invitations.
mutant UI-D51-bot-call-site cmd/kakure/botcmd.go replace \
	'g, err = inviteOrWithoutFlips(o, invite, func(s string) { fmt.Fprintln(env.stdout, s) })' \
	'g, err = invite(o)' \
	./cmd/kakure 'TestUID51BotInviteFallsBack'
mutant UI-D51-lobby-call-site cmd/kakure/play.go replace \
	'g, err := inviteOrWithoutFlips(o, func(o engine.Options) (*session.Game, error) { return n.me.service.Invite(ctx, pid, o) },' \
	'g, err := n.me.service.Invite(ctx, pid, o); _ = func(o engine.Options) (*session.Game, error) { return n.me.service.Invite(ctx, pid, o) }; _ = (' \
	./cmd/kakure 'TestUID51LobbyInviteFallsBack'

# SER-D2: a series invitation the peer reset without an answer is told
# as a peer that may need a newer kakure.
mutant SER-D2-hint cmd/kakure/botseries.go replace \
	'if errors.Is(err, session.ErrNoAnswer) {' \
	'if false && errors.Is(err, session.ErrNoAnswer) {' \
	./cmd/kakure 'TestSERD2HintForAnOlderPeer'

# PN-D24: the secrets document diffed member by member; PN-D25: the
# announcements' strings kept from view to view.
mutant PN-D24-removed-member protocol/session/storage_doc.go replace \
	'			p[k] = nil' \
	'			_ = k' \
	./protocol/session 'TestPND24DocPatchIsRawPatch'
mutant PN-D24-no-descent protocol/session/storage_doc.go replace \
	'			vp, ch, err = docPatch(ov.obj, nv.obj)' \
	'			vp, ch, err = nil, false, nil' \
	./protocol/session 'TestPND24DocPatchIsRawPatch'
mutant PN-D24-rewrite-forgets-doc protocol/session/storage.go delete-line \
	'the document the rewrite wrote, as its members' - \
	./protocol/session 'TestPND24LogByMembersWritesTheSameFile'
mutant PN-D24-printable-7f protocol/session/storage_patch.go replace \
	'(w|(w-0x20*ones)|(w+ones))&tops' \
	'(w|(w-0x20*ones))&tops' \
	./protocol/session 'TestPND24PrintableASCII'
mutant PN-D26-kept-key-ignored protocol/session/player_phantom_encode.go replace \
	'if k, ok := m.kept[member]; ok && k.key == key {' \
	'if k, ok := m.kept[member]; ok {' \
	./protocol/session 'TestPND19SecretsEncoding|TestPND26SmallFieldsKeptFromSaveToSave'
mutant PN-D26-log-prefix-unchecked protocol/session/player_phantom_encode.go replace \
	'if n > len(log) || !slices.Equal(m.logVals, log[:n]) || len(m.logEnc) == 0 {' \
	'if n > len(log) || len(m.logEnc) == 0 {' \
	./protocol/session 'TestPND19SecretsEncoding|TestPND26SmallFieldsKeptFromSaveToSave'
mutant PN-D26-null-is-empty protocol/session/player_phantom_encode.go replace \
	'		return sliceID{null: b == nil}' \
	'		return sliceID{}' \
	./protocol/session 'TestPND19SecretsEncoding|TestPND26SmallFieldsKeptFromSaveToSave'
mutant PN-D28-length-unchecked protocol/session/player_phantom_encode.go replace \
	'return sliceID{first: &b[0], n: len(b)}' \
	'return sliceID{first: &b[0]}' \
	./protocol/session 'TestPND28SumCache'
mutant PN-D28-no-check protocol/session/player_phantom_sums.go replace \
	'			if secretsMemoCheck && referee.Sum(b) != e.d {' \
	'			if false && secretsMemoCheck && referee.Sum(b) != e.d {' \
	./protocol/session 'TestPND28SumCache'
mutant PN-D25-since-identity engine/phantom/view.go replace \
	'	if e != m.e {' '	if false && e != m.e {' \
	./engine/phantom 'TestPGD3LogSince'
mutant PN-D25-uncapped protocol/session/player_phantom.go replace \
	'	return p.announcements[:n:n]' \
	'	return p.announcements[:n]' \
	./protocol/session 'TestPND25AnnouncementsKeptFromView'
mutant PN-D25-no-mark protocol/session/player_phantom.go delete-line \
	'	p.annMark = p.view.LogMark()' - \
	./protocol/session 'TestPND25AnnouncementsKeptFromView'

# MPC-D57: the label commitments made in batches with shortsha.
mutant MPC-D57-wire protocol/mpc/referee/pvc.go replace \
	'binary.BigEndian.PutUint32(b[sha256.Size:], uint32(w))' 'binary.BigEndian.PutUint32(b[sha256.Size:], uint32(w)^1)' \
	./protocol/mpc/referee 'TestKATCheckedTry'
mutant MPC-D57-flush-order protocol/mpc/referee/pvc.go replace \
	'		*d = h.sums[i]' '		*d = h.sums[len(h.dst[:h.n])-1-i]' \
	./protocol/mpc/referee 'TestKATCheckedTry'
mutant MPC-D57-last-chunk protocol/mpc/referee/pvc_evaluator.go delete-line \
	'		lh.flush()' - \
	./protocol/mpc/referee 'TestKATCheckedTry'
mutant MPC-D57-pair-bytes protocol/mpc/referee/pvc.go replace \
	'len(pairs)*2*sha256.Size)' 'len(pairs)*sha256.Size)' \
	./protocol/mpc/referee 'TestKATCheckedTry'
# The SHA bit of CPUID (bit 28, AVX512CD, is set on this machine's
# processor too, so the mutant reads bit 27 instead).
mutant MPC-D57-cpuid-bit protocol/mpc/internal/cpuid/cpuid.go replace \
	'return ok && ebx&(1<<29) != 0' 'return ok && ebx&(1<<27) != 0' \
	./protocol/mpc/internal/shortsha 'TestMPCD57SHANIDetected'
mutant MPC-D57-pairs-count protocol/mpc/internal/shortsha/shortsha.go replace \
	'n := len(blocks) / 2' 'n := (len(blocks) - 1) / 2' \
	./protocol/mpc/internal/shortsha 'TestMPCD57SumsAreSHA256'
mutant MPC-D57-padding-check protocol/mpc/internal/shortsha/shortsha.go replace \
	' || b[n/8] != 0x80 {' ' {' \
	./protocol/mpc/internal/shortsha 'TestMPCD57RefusesWhatIsNotOneBlock'
mutant MPC-D59-release-sent protocol/mpc/referee/pvc_garbler.go replace \
	'		if i != j {' '		if i >= 0 {' \
	./protocol/mpc/referee 'TestMPCD59SentTablesOutliveTheTry'
# MPC-D61: the keys of random OTs hashed in batches through shortsha.
mutant MPC-D61-send-tweak protocol/mpc/ot/cot.go replace \
	'tweak := otTweak(b, start+i)' 'tweak := otTweak(b, i)' \
	./protocol/mpc/ot 'TestMPCD61RandomKeysBatched|TestKATCorrelatedOT'
mutant MPC-D61-receive-tweak protocol/mpc/ot/cot.go replace \
	'k.set(i, r.hash.Hash(t, otTweak(b, start+i)))' 'k.set(i, r.hash.Hash(t, otTweak(b, i)))' \
	./protocol/mpc/ot 'TestMPCD61RandomKeysBatched|TestKATCorrelatedOT'
mutant MPC-D61-pair-order protocol/mpc/ot/cot.go replace \
	'out[start+i][0], out[start+i][1] = keys[2*i], keys[2*i+1]' 'out[start+i][0], out[start+i][1] = keys[2*i+1], keys[2*i]' \
	./protocol/mpc/ot 'TestMPCD61RandomKeysBatched'
mutant MPC-D61-padding protocol/mpc/ot/cot.go replace \
	'k.blocks[i].Pad(len(randomKeyTag) + len(Block{}))' 'k.blocks[i].Pad(len(randomKeyTag) + len(Block{}) - 1)' \
	./protocol/mpc/ot 'TestMPCD61RandomKeysBatched'
# MPC-D62: the garbler's keys written in place, its labels read at once.
mutant MPC-D62-input-one protocol/mpc/gc/gc.go replace \
	'z.putPair(&in[i], d)' 'z.putPair(&in[i], blk{})' \
	./protocol/mpc/gc 'TestKATGarbling|TestMPCD62KeysOfTheGarbler'
mutant MPC-D62-output-one protocol/mpc/gc/gc.go replace \
	'w[x].putPair(&keys.Outputs[i], d)' 'w[x].putPair(&keys.Outputs[i], blk{})' \
	./protocol/mpc/gc 'TestKATGarbling|TestMPCD62KeysOfTheGarbler'
mutant MPC-D62-pair protocol/mpc/gc/gates.go replace \
	'	a.xor(delta).put(&p[1])' '	a.put(&p[1])' \
	./protocol/mpc/gc 'TestKATGarbling|TestMPCD62KeysOfTheGarbler'
mutant MPC-D62-labels-read protocol/mpc/gc/scheme.go replace \
	'len(zero[p])*len(Label{}))' 'len(zero[p])*len(Label{})-1)' \
	./protocol/mpc/gc 'TestKATGarbling|TestMPCD62KeysOfTheGarbler'
# MPC-D63: the three-halves garbling's loop over a run of steps in
# assembly (threehalves_amd64.s, generated; each text below is once in
# it).
mutant MPC-D63-control-bits-of-gate-3 protocol/mpc/gc/threehalves_amd64.s replace \
	'MOVQ 568(SP), R8' 'MOVQ 560(SP), R8' \
	./protocol/mpc/gc 'TestKATGarbling'
mutant MPC-D63-coins-of-gate-0 protocol/mpc/gc/threehalves_amd64.s replace \
	'ANDQ $3, R12
	MOVQ R12, 424(SP)' 'ANDQ $3, R12
	MOVQ $0, 424(SP)' \
	./protocol/mpc/gc 'TestKATGarbling'
mutant MPC-D63-stride protocol/mpc/gc/threehalves_amd64.s replace \
	'ADDQ $80, 576(SP)
	SUBQ $4, 584(SP)
	JNZ th3run_loop' 'ADDQ $60, 576(SP)
	SUBQ $4, 584(SP)
	JNZ th3run_loop' \
	./protocol/mpc/gc 'TestKATGarbling'
mutant MPC-D63-evaluation-stride protocol/mpc/gc/threehalves_amd64.s replace \
	'ADDQ $80, 576(SP)
	SUBQ $4, 584(SP)
	JNZ th3evrun_loop' 'ADDQ $60, 576(SP)
	SUBQ $4, 584(SP)
	JNZ th3evrun_loop' \
	./protocol/mpc/gc 'TestKATGarbling'
mutant MPC-D63-evaluation-control-bits-of-gate-0 protocol/mpc/gc/threehalves_amd64.s replace \
	'ANDQ $31, R12
	MOVQ R12, 424(SP)' 'ANDQ $15, R12
	MOVQ R12, 424(SP)' \
	./protocol/mpc/gc 'TestKATGarbling'
mutant MPC-D63-run-layout protocol/mpc/gc/threehalves_fused.go replace \
	'	w      *blk
	steps  *step' '	steps  *step
	w      *blk' \
	./protocol/mpc/gc 'TestTH3RunLayout'
# The control bits' padding of a three-halves garbling, checked without
# unpacking them (issue 38).
mutant garbled-control-padding protocol/mpc/gc/wire.go replace \
	'int(nAND)*threeHalvesControlBits); err != nil {' \
	'int(nAND)*threeHalvesControlBits); false && err != nil {' \
	./protocol/mpc/gc 'TestThreeHalvesWire'
mutant garbled-bits-padding protocol/mpc/gc/wire.go replace \
	'if n%8 != 0 && b[len(b)-1]>>(n%8) != 0 {' 'if n%8 != 0 && b[len(b)-1]>>(n%8+1) != 0 {' \
	./protocol/mpc/gc 'TestThreeHalvesWire'

# --- The runner ----------------------------------------------------------

if [[ ${1:-} == -l ]]; then
	for i in "${!names[@]}"; do
		printf '%-26s %s (%s) -> go test -run %s %s\n' "${names[i]}" "${files[i]}" "${hows[i]}" "${runs[i]}" "${pkgs[i]}"
	done
	exit 0
fi
# -s checks, without running a test, that every entry still applies: its
# text is in its file exactly once and each test it names is declared in
# its package (the docs package's TestMutantsStillApply runs it in the
# default tier, so that code that moves leaves no entry stale).
if [[ ${1:-} == -s ]]; then
	status=0
	for i in "${!names[@]}"; do
		file=$root/${files[i]}
		if [[ ! -f $file ]]; then
			echo "STALE     ${names[i]}: ${files[i]} does not exist"
			status=1
			continue
		fi
		n=$(OLD=${olds[i]} perl -0777 -ne 'BEGIN { $old = $ENV{OLD} } my $n = () = /\Q$old\E/g; print $n' "$file")
		if [[ $n != 1 ]]; then
			echo "STALE     ${names[i]}: ${files[i]}: the text to change found $n times: ${olds[i]}"
			status=1
		fi
		IFS='|' read -ra tests <<<"${runs[i]}"
		for t in "${tests[@]}"; do
			if ! grep -qs "^func $t(" "$root/${pkgs[i]#./}"/*_test.go; then
				echo "STALE     ${names[i]}: no test $t in ${pkgs[i]}"
				status=1
			fi
		done
	done
	exit $status
fi
want=("$@")
selected() {
	[[ ${#want[@]} -eq 0 ]] && return 0
	local w
	for w in "${want[@]}"; do [[ $w == "$1" ]] && return 0; done
	return 1
}

# FULL=1 runs the tests at their full sizes (KAKURE_TEST_FULL=1); by
# default they run at the size go test ./... gives them.
tier=()
if [[ -n ${FULL:-} ]]; then
	tier=(KAKURE_TEST_FULL=1)
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/kakure-mutants.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# The module as it is in the working tree (tracked and new files, not
# ignored ones), so that uncommitted tests are run too.
(cd "$root" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -C "$scratch" -xf -

# apply HOW FILE OLD NEW changes FILE (in the scratch copy); it fails,
# leaving FILE alone, unless the text is there exactly once.
apply() {
	HOW=$1 OLD=$3 NEW=$4 perl -0777 -i -pe '
		BEGIN { $how = $ENV{HOW}; $old = $ENV{OLD}; $new = $ENV{NEW} }
		my $n = () = /\Q$old\E/g;
		die "found $n times\n" unless $n == 1;
		if ($how eq "replace") { s/\Q$old\E/$new/ or die "not replaced\n" }
		elsif ($how eq "delete-line") { s/^[^\n]*\Q$old\E[^\n]*\n//m or die "not deleted\n" }
		else { die "unknown change $how\n" }
	' "$2"
}

# tests PACKAGE RUN runs the tests in the scratch copy; it prints go test's
# output and returns its status.
tests() {
	(cd "$scratch" && env "${tier[@]}" go test -count=1 -vet=off -run "^($2)\$" "$1" 2>&1)
}

status=0
for i in "${!names[@]}"; do
	name=${names[i]} file=$scratch/${files[i]}
	selected "$name" || continue
	if ! out=$(tests "${pkgs[i]}" "${runs[i]}"); then
		echo "BROKEN    $name: the tests fail on the code as it is:"
		echo "$out" | tail -20
		status=1
		continue
	fi
	if [[ $out == *"no tests to run"* ]]; then
		echo "BROKEN    $name: no test matches ${runs[i]}"
		status=1
		continue
	fi
	cp "$file" "$file.orig"
	if ! err=$(apply "${hows[i]}" "$file" "${olds[i]}" "${news[i]}" 2>&1); then
		echo "STALE     $name: ${files[i]}: the text to change ${err%$'\n'}: ${olds[i]}"
		status=1
		continue
	fi
	out=$(tests "${pkgs[i]}" "${runs[i]}") && rc=0 || rc=$?
	mv "$file.orig" "$file"
	killers=$(grep -oE -- '^--- FAIL: [^ ]+' <<<"$out" | sed 's/^--- FAIL: //' | paste -sd ' ' -) || true
	if [[ $rc -eq 0 ]]; then
		echo "SURVIVED  $name: ${files[i]} (${hows[i]}) and ${runs[i]} still passes"
		status=1
	elif [[ -z $killers ]]; then
		echo "BROKEN    $name: the mutant does not build or its tests do not run:"
		echo "$out" | tail -20
		status=1
	else
		echo "killed    $name by $killers"
	fi
done
exit $status
