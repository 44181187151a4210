package main

import (
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
)

// testLambda is the --lambda of a test's Phantom Go game whose claim is
// not about the number of checked garblings: n garblings a try outside
// the full tier (1, a quarter of the default's CPU, when the checked
// garblings play no part in the claim; 2, two thirds of it, to keep
// them), the default (4) in the full tier, KAKURE_TEST_FULL=1 (issue
// 32: Phantom Go games at the default took most of the package's CPU).
// TestT8VerifyNamesTheChecking is the test of every --lambda.
func testLambda(n int) []string {
	if testenv.Full() {
		return nil
	}
	return []string{"--lambda", strconv.Itoa(n)}
}

// TestT8LambdaFlag (T-8(b)): --lambda sets Phantom Go's garblings per try,
// 4 by default; 1 means none (left out of the invitation), a value that
// is not a power of two up to 16 is refused, and so is --lambda for
// another variant, whose games are not computed.
func TestT8LambdaFlag(t *testing.T) {
	cases := []struct {
		args []string
		want int
		ok   bool
	}{
		{[]string{"--variant", "phantom"}, 4, true},
		{[]string{"--variant", "phantom", "--lambda", "8"}, 8, true},
		{[]string{"--variant", "phantom", "--lambda", "1"}, 0, true},
		{[]string{"--variant", "phantom", "--lambda", "3"}, 0, false},
		{[]string{"--variant", "phantom", "--lambda", "32"}, 0, false},
		{[]string{"--variant", "go"}, 0, true},
		{[]string{"--variant", "go", "--lambda", "4"}, 0, false},
	}
	for _, c := range cases {
		o, err := optionsOf(t, c.args)
		if (err == nil) != c.ok || (c.ok && o.Lambda != c.want) {
			t.Errorf("%v: λ = %d, err %v; want %d, ok %v", c.args, o.Lambda, err, c.want, c.ok)
		}
	}
}

// TestT8GarblingFlag (MPC-D26, MPC-D60): --garbling sets Phantom Go's garbling
// scheme, three-halves by default for new games; half-gates is left out
// of the invitation, an unknown scheme is refused, and so is --garbling
// for another variant.
func TestT8GarblingFlag(t *testing.T) {
	const def = "three-halves"
	cases := []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"--variant", "phantom"}, def, true},
		{[]string{"--variant", "phantom", "--garbling", "three-halves"}, "three-halves", true},
		{[]string{"--variant", "phantom", "--garbling", "half-gates"}, "", true},
		{[]string{"--variant", "phantom", "--garbling", "quarter-gates"}, "", false},
		{[]string{"--variant", "go"}, "", true},
		{[]string{"--variant", "go", "--garbling", "three-halves"}, "", false},
	}
	for _, c := range cases {
		o, err := optionsOf(t, c.args)
		if (err == nil) != c.ok || (c.ok && o.Garbling != c.want) {
			t.Errorf("%v: garbling %q, err %v; want %q, ok %v", c.args, o.Garbling, err, c.want, c.ok)
		}
	}
}

// TestT8InputOTFlag (MPC-D28, MPC-D29): --input-ot sets the form of Phantom Go's
// input OTs, defaultInputOT by default in checked games; the game's one
// OT extension is left out of the invitation; an unchecked game
// (--lambda 1) takes no default, and an explicit --input-ot correlated
// there is refused, as are an unknown form and --input-ot for another
// variant.
func TestT8InputOTFlag(t *testing.T) {
	def := defaultInputOT
	if def == "extension" {
		def = ""
	}
	cases := []struct {
		args []string
		want string
		ok   bool
	}{
		{[]string{"--variant", "phantom"}, def, true},
		{[]string{"--variant", "phantom", "--input-ot", "correlated"}, "correlated", true},
		{[]string{"--variant", "phantom", "--input-ot", "extension"}, "", true},
		{[]string{"--variant", "phantom", "--lambda", "1"}, "", true},
		{[]string{"--variant", "phantom", "--lambda", "1", "--input-ot", "correlated"}, "", false},
		{[]string{"--variant", "phantom", "--lambda", "1", "--input-ot", "extension"}, "", true},
		{[]string{"--variant", "phantom", "--input-ot", "silent"}, "", false},
		{[]string{"--variant", "go"}, "", true},
		{[]string{"--variant", "go", "--input-ot", "correlated"}, "", false},
		// MPC-D29: three-halves only; the default falls back to the
		// correlated OTs with half-gates.
		{[]string{"--variant", "phantom", "--input-ot", "authenticated"}, "authenticated", true},
		{[]string{"--variant", "phantom", "--garbling", "half-gates", "--input-ot", "authenticated"}, "", false},
		{[]string{"--variant", "phantom", "--garbling", "half-gates"}, "correlated", true},
		// MPC-D32: the MACs of 64 bits, the default; three-halves only.
		{[]string{"--variant", "phantom", "--input-ot", "authenticated-mac64"}, "authenticated-mac64", true},
		{[]string{"--variant", "phantom", "--garbling", "half-gates", "--input-ot", "authenticated-mac64"}, "", false},
		{[]string{"--variant", "phantom", "--lambda", "1", "--input-ot", "authenticated-mac64"}, "", false},
	}
	for _, c := range cases {
		o, err := optionsOf(t, c.args)
		if (err == nil) != c.ok || (c.ok && o.InputOT != c.want) {
			t.Errorf("%v: input_ot %q, err %v; want %q, ok %v", c.args, o.InputOT, err, c.want, c.ok)
		}
	}
}

// TestMPCD52TryFlipsFlag (UI-D49, UI-D50): --try-flips, Phantom Go's own
// option (a flag made from its description), turns on the evaluator's
// tries by flips in checked games of the correlated or authenticated
// input OTs; refused with --lambda 1, with the extension's input OTs and
// for another variant. UI-D50: on by default where it applies (the
// default --lambda and --input-ot, or any correlated form with λ > 1),
// absent without an error where it does not (--lambda 1, --input-ot
// extension, half-gates with the extension), off with --try-flips=false;
// the help says so; the lobby's form starts with the command's value.
func TestMPCD52TryFlipsFlag(t *testing.T) {
	cases := []struct {
		args  []string
		flips bool
		ok    bool
	}{
		{[]string{"--variant", "phantom", "--try-flips"}, true, true},
		{[]string{"--variant", "phantom", "--try-flips", "--input-ot", "correlated"}, true, true},
		{[]string{"--variant", "phantom", "--try-flips=false"}, false, true},
		{[]string{"--variant", "phantom", "--try-flips", "--lambda", "1"}, false, false},
		{[]string{"--variant", "phantom", "--try-flips", "--input-ot", "extension"}, false, false},
		{[]string{"--variant", "phantom", "--try-flips=false", "--lambda", "1"}, false, true},
		{[]string{"--variant", "go", "--try-flips"}, false, false},
		// UI-D50: the defaults.
		{[]string{"--variant", "phantom"}, true, true},
		{[]string{"--variant", "phantom", "--lambda", "2", "--input-ot", "correlated"}, true, true},
		{[]string{"--variant", "phantom", "--lambda", "16", "--input-ot", "authenticated"}, true, true},
		{[]string{"--variant", "phantom", "--garbling", "half-gates"}, true, true},
		{[]string{"--variant", "phantom", "--lambda", "1"}, false, true},
		{[]string{"--variant", "phantom", "--input-ot", "extension"}, false, true},
		{[]string{"--variant", "phantom", "--garbling", "half-gates", "--input-ot", "extension"}, false, true},
		{[]string{"--variant", "phantom", "--try-flips=false", "--input-ot", "correlated"}, false, true},
		{[]string{"--variant", "go"}, false, true},
		{[]string{"--variant", "hmg"}, false, true},
	}
	for _, c := range cases {
		o, err := optionsOf(t, c.args)
		if (err == nil) != c.ok || (c.ok && o.TryFlips() != c.flips) {
			t.Errorf("%v: try-flips %v, err %v; want %v, ok %v", c.args, o.TryFlips(), err, c.flips, c.ok)
		}
		if !c.ok {
			continue
		}
		// Where flips do not apply the option stays absent: the
		// invitation and the record are as before (UI-D50).
		if _, present := o.OwnValue(engine.OptionTryFlips); present != c.flips {
			t.Errorf("%v: try-flips present %v in Own %q, want %v", c.args, present, o.Own, c.flips)
		}
		// The lobby's form starts with the command's value (its "Try
		// flips" checked by default where flips apply).
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var vf variantFlags
		vf.register(fs, "go")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		if l := lobbyDefaults(fs, o); l.TryFlips() != c.flips {
			t.Errorf("%v: the lobby's form starts with try-flips %v, want %v", c.args, l.TryFlips(), c.flips)
		}
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var vf variantFlags
	vf.register(fs, "go")
	if usage := fs.Lookup(engine.OptionTryFlips).Usage; !strings.Contains(usage, "default true where it applies") {
		t.Errorf("--%s's help does not say its default: %q", engine.OptionTryFlips, usage)
	}
}

// optionsOf returns the game options the variant flags of play and match
// give for args, or their error; args the flags cannot parse fail t.
func optionsOf(t *testing.T, args []string) (engine.Options, error) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var vf variantFlags
	vf.register(fs, "go")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return vf.options(fs)
}
