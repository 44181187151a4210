package main

import (
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"
	"github.com/kakure/kakure/protocol/session"
)

func init() {
	register(command{name: "verify", summary: "check a game record end to end and name the first violation", run: runVerify})
}

// errVerifyFailed makes `kakure verify` exit non-zero after its report.
type errVerifyFailed struct{ msg string }

func (e errVerifyFailed) Error() string { return e.msg }

func runVerify(env *environment, args []string) error {
	fs := newFlagSet(env, "verify", "RECORD")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("want exactly one record file")
	}
	tr, err := session.LoadTranscript(fs.Arg(0))
	if err != nil {
		return errVerifyFailed{fmt.Sprintf("record rejected: %v", err)}
	}
	rep := protocol.Verify(tr)
	var opts string
	if len(tr.Messages) > 0 {
		opts = describeRecord(tr)
	}
	fmt.Fprintf(env.stdout, "game %s: %s, %d messages checked (signatures, hash chains, replay)\n", tr.Game, opts, rep.Messages)
	if len(tr.Messages) > 0 {
		if line := describeSeries(tr); line != "" {
			fmt.Fprintln(env.stdout, line)
		}
	}
	text, ok := rep.Describe(tr.Peers)
	fmt.Fprint(env.stdout, text)
	if !ok {
		return errVerifyFailed{"the record is not an honest finished game"}
	}
	return nil
}

// describeRecord names the variant and options of a record.
func describeRecord(tr *protocol.Transcript) string {
	m := protocol.NewMachine(tr.Game)
	if _, err := m.Apply(&tr.Messages[0]); err != nil {
		return "unreadable invitation"
	}
	o := m.Options
	return fmt.Sprintf("%s %dx%d komi %v", o.Variant, o.Size, o.Size, o.Komi) + describeSides(o) + describeClock(o) + describeChecking(o) + describeTournament(m.Tournament)
}

// describeTournament names the tournament game a record's invitation
// names, which both players signed (TRN-D6): nothing for a game of no
// tournament. Whether it is the computed pairing is kakure standings'
// to check, with the announcement.
func describeTournament(ref *protocol.TournamentRef) string {
	if ref == nil {
		return ""
	}
	return ", " + ref.String()
}

// describeChecking says how a Phantom Go record's tries were checked
// during play (T-8(b)): λ garblings a try, all but one opened; and with
// which garbling scheme (MPC-D26) and, when correlated, the form of the
// input OTs (MPC-D28); nothing for other variants.
func describeChecking(o engine.Options) string {
	scheme := o.Garbling
	if scheme == "" {
		scheme = engine.GarblingHalfGates
	}
	switch {
	case o.Variant != engine.VariantPhantom:
		return ""
	case o.Lambda > 1:
		s := fmt.Sprintf(", tries checked during play (λ = %d garblings a try), garbled with %s", o.Lambda, scheme)
		switch o.InputOT {
		case engine.InputOTCorrelated:
			s += ", inputs by correlated OT (MPC-D28)"
		case engine.InputOTAuthenticated:
			s += ", inputs by correlated OT, shares authenticated from try to try (MPC-D28, MPC-D29)"
		case engine.InputOTAuthenticatedMAC64:
			s += ", inputs by correlated OT, shares authenticated from try to try with MACs of 64 bits (MPC-D28, MPC-D29, MPC-D32)"
		}
		if phantomrules.FlipsOn(o) {
			s += ", the evaluator's tries by flips ahead of its player (MPC-D52)"
		}
		return s
	}
	return ", tries checked at the audit only (λ = 1), garbled with " + scheme
}

// describeClock writes a record's time control as kakure verify prints it
// (CLK-D2, CLK-D7): nothing for a game without a clock.
func describeClock(o engine.Options) string {
	if o.Time.IsNone() {
		return ""
	}
	return fmt.Sprintf(", clock %s (lag allowance %v a move)", o.Time, o.Lag)
}

// describeSides writes the colour choice and the handicap of a record's
// options as kakure verify prints them (HC-D1, HC-D2): nothing for a
// coin toss without handicap.
func describeSides(o engine.Options) string {
	s := ""
	if o.InviterColor != engine.Empty {
		s += ", the inviter chose " + o.InviterColor.String()
	}
	if o.Handicap > 0 {
		s += fmt.Sprintf(", handicap %d", o.Handicap)
	}
	return s
}

// describeSeries says which series a record's game belongs to (SER-D7):
// "series ID game I of N", with the agreement's digest and colour rule;
// "" for a game outside a series or an invitation that does not read
// (the report names why).
func describeSeries(tr *protocol.Transcript) string {
	m := protocol.NewMachine(tr.Game)
	if _, err := m.Apply(&tr.Messages[0]); err != nil || m.Series == nil {
		return ""
	}
	a := m.Series.Agreement
	return fmt.Sprintf("series %s game %d of %d (colours %s, agreement sha256 %s): options and colours as the agreement gives them",
		a.ID, m.Series.Index+1, a.Games, a.Colours, a.Digest())
}
