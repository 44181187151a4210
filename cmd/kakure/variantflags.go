package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol/phantomrules"
)

// defaultLambda is --lambda's default: Phantom Go tries checked with four
// garblings (T-8(b), MPC-D14 in docs/mpc.md).
const defaultLambda = 4

// defaultGarbling is --garbling's default: the garbling scheme of Phantom
// Go's secure referee (MPC-D26 in docs/mpc.md).
const defaultGarbling = engine.GarblingThreeHalves

// defaultInputOT is --input-ot's default: the form of the OTs of Phantom
// Go's evaluator's inputs in a checked game (MPC-D28 in docs/mpc.md),
// with the referee's state authenticated from try to try (MPC-D29) by
// MACs of 64 bits (MPC-D32); in a game garbled with half-gates, which
// MPC-D29 does not take, the correlated OTs alone.
const defaultInputOT = engine.InputOTAuthenticatedMAC64

// variantFlags are the flags that choose a variant and its options, shared
// by every command that starts games (rules.md names them).
type variantFlags struct {
	variant string
	size    int
	komi    float64
	// sides, when a command registered them, are its colour flags.
	sides       *sideFlags
	timeControl string
	lag         time.Duration
	lambda      int
	garbling    string
	inputOT     string
}

// register adds the flags to fs, --variant defaulting to defaultVariant.
// The variants' own options have a flag each, made from their
// descriptions (engine.VariantOption).
func (v *variantFlags) register(fs *flag.FlagSet, defaultVariant string) {
	fs.StringVar(&v.variant, "variant", defaultVariant, "variant: "+variantNames())
	fs.IntVar(&v.size, "size", 0, sizeUsage())
	fs.Float64Var(&v.komi, "komi", 0, komiUsage())
	for _, d := range engine.Descriptors {
		for _, opt := range d.Options {
			// Typed flags without a default of their own: the help
			// says the type and the option's default (optionUsage);
			// options reads the flags set through the option's Parse.
			switch opt.Type {
			case engine.OptionInt:
				fs.Int(opt.Key, 0, optionUsage(opt))
			case engine.OptionBool:
				fs.Bool(opt.Key, false, optionUsage(opt)+ownDefaultUsage(opt))
			default:
				fs.String(opt.Key, "", optionUsage(opt))
			}
		}
	}
	fs.StringVar(&v.timeControl, "time", "none", "time control (docs/clocks.md): none, 5m (absolute), 10m+5s (Fischer), 5m+3x30s (byo-yomi) or 10m+25/5m (Canadian)")
	fs.DurationVar(&v.lag, "lag", 0, "with --time: the lag allowance a move (default 1s, at most 10s)")
	fs.IntVar(&v.lambda, "lambda", defaultLambda, "phantom: garblings per try of the secure referee, all but one checked by the evaluator (T-8(b)): 1 (none), 2, 4, 8 or 16")
	fs.StringVar(&v.garbling, "garbling", defaultGarbling, "phantom: garbling scheme of the secure referee: three-halves (197 bits per AND gate) or half-gates (256)")
	fs.StringVar(&v.inputOT, "input-ot", defaultInputOT, "phantom, with --lambda 2 or more: how the evaluator's inputs reach the secure referee: authenticated-mac64 (correlated OTs, and each player's share of the board authenticated from try to try, so that a program that changes its share is caught in that try: about 17 % more data a try; three-halves only), authenticated (the same with MACs of 128 bits instead of 64: about 31 % more), correlated (one correlated OT per garbling, a wrong one provable at once) or extension (the older form)")
}

// registerSides adds the colour flags (sideFlags) to the variant's.
func (v *variantFlags) registerSides(fs *flag.FlagSet, whose string) {
	v.sides = &sideFlags{}
	v.sides.register(fs, whose)
}

// options turns the flags into checked engine options. Flags the user set
// explicitly (fs.Visit) tell a komi or card count of 0 from the default.
func (v *variantFlags) options(fs *flag.FlagSet) (engine.Options, error) {
	tc, err := clock.Parse(v.timeControl)
	if err != nil {
		return engine.Options{}, usageError("--time: %v", err)
	}
	o := engine.Options{
		Time:    tc,
		Lag:     v.lag,
		Variant: engine.Variant(v.variant),
		Size:    v.size,
		Komi:    v.komi,
	}
	// The variants' own options, from the flags set: the option's Parse
	// also tells a value set on purpose from the default (--cards 0).
	var parseErr error
	fs.Visit(func(f *flag.Flag) {
		if opt, ok := variantOption(f.Name); ok && parseErr == nil {
			parseErr = opt.Parse(&o, f.Value.String())
		}
	})
	if parseErr != nil {
		return o, usageError("%v", parseErr)
	}
	if v.sides != nil {
		if err := v.sides.apply(&o); err != nil {
			return o, usageError("%v", err)
		}
	}
	if o.Variant == engine.VariantPhantom {
		o.Lambda, o.Garbling = v.lambda, v.garbling
		if v.lambda > 1 {
			// Unchecked games have no input OT form to choose: the
			// default applies to checked ones only.
			o.InputOT = v.inputOT
			if engine.AuthenticatedInputOT(o.InputOT) && o.Garbling != engine.GarblingThreeHalves {
				// The default with half-gates (an explicit
				// --input-ot authenticated[-mac64] is refused by
				// Normalize).
				o.InputOT = engine.InputOTCorrelated
			}
		}
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "komi":
			o.KomiSet = true
		case "lambda":
			// Refused for another variant by Normalize.
			o.Lambda = v.lambda
		case "garbling":
			o.Garbling = v.garbling
		case "input-ot":
			// Refused by Normalize without --lambda 2 or more or for
			// another variant.
			o.InputOT = v.inputOT
		}
	})
	o, err = o.Normalize()
	if err != nil {
		return o, usageError("%v", err)
	}
	if o.Variant == engine.VariantPhantom && o.TryFlips() && !phantomrules.FlipsOn(o) {
		// Normalize takes the switch in any Phantom Go game, where it
		// changes nothing; asked for on purpose, it is refused here
		// (UI-D49).
		return o, usageError("--%s needs checked tries (--lambda 2 or more) and correlated or authenticated input OTs", engine.OptionTryFlips)
	}
	if !isSet(fs, engine.OptionTryFlips) {
		o = tryFlipsByDefault(o)
	}
	return o, nil
}

// tryFlipsByDefault returns checked options o with the evaluator's tries
// by flips switched on where they apply (UI-D50 in docs/ui.md): a Phantom
// Go game of checked tries with a correlated form of input OTs
// (phantomrules.FlipsOn); other games are returned as they are, without
// the switch. It is kakure's default, not the engine's: an invitation or
// record without try-flips=true is still a game without flips
// (engine.OptionTryFlips), so the commands set the option in the game's
// options, where the wire carries it. --try-flips=false opts out.
func tryFlipsByDefault(o engine.Options) engine.Options {
	if o.Variant != engine.VariantPhantom {
		return o
	}
	flipped := o
	// A value the option's Parse takes; Normalize has nothing to check
	// in it (UI-D49).
	_ = optionTryFlips().Parse(&flipped, "true")
	if !phantomrules.FlipsOn(flipped) {
		return o
	}
	return flipped
}

// optionTryFlips is the description of Phantom Go's option try-flips.
func optionTryFlips() engine.VariantOption {
	opt, ok := variantOption(engine.OptionTryFlips)
	if !ok {
		panic("kakure: Phantom Go has no option " + engine.OptionTryFlips)
	}
	return opt
}

// ownDefaultUsage is what a switch's help adds when kakure's default is
// not the engine's (UI-D50): the evaluator's tries by flips are on where
// they apply.
func ownDefaultUsage(opt engine.VariantOption) string {
	if opt.Key != engine.OptionTryFlips {
		return ""
	}
	return " (default true where it applies, UI-D50: --" + engine.OptionTryFlips + "=false for none)"
}

// variantNames writes the variants' names for a help text: "go, phantom,
// hmg, gomoku, fgo or bridge".
func variantNames() string {
	names := make([]string, len(engine.Variants))
	for i, v := range engine.Variants {
		names[i] = string(v)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// optionUsage writes the help of an option's flag from its description:
// "hmg: hidden moves per player, 0-9 (default 3)".
func optionUsage(opt engine.VariantOption) string {
	switch opt.Type {
	case engine.OptionChoice:
		return fmt.Sprintf("%s: %s: %s (default %s)", opt.Variant, opt.Doc, opt.Values(), opt.Default)
	case engine.OptionInt:
		return fmt.Sprintf("%s: %s, %s (default %s)", opt.Variant, opt.Doc, opt.Values(), opt.Default)
	}
	return fmt.Sprintf("%s: %s", opt.Variant, opt.Doc)
}

// variantOption returns the variant's option whose flag is named key.
func variantOption(key string) (engine.VariantOption, bool) {
	for _, d := range engine.Descriptors {
		for _, opt := range d.Options {
			if opt.Key == key {
				return opt, true
			}
		}
	}
	return engine.VariantOption{}, false
}

// sizeUsage writes the help of --size from the descriptors (VAR-D7): each
// variant's smallest and default board side, the largest for all: "board
// size: 5 to 19 (gomoku 7 to 19), default 9 (hmg 19)".
func sizeUsage() string {
	return fmt.Sprintf("board size: %s, default %s",
		perVariant(engine.Descriptors, func(d *engine.Descriptor) (string, bool) {
			return fmt.Sprintf("%d to %d", d.MinSize, engine.MaxSize), true
		}),
		perVariant(engine.Descriptors, func(d *engine.Descriptor) (string, bool) { return strconv.Itoa(d.DefaultSize), true }))
}

// komiUsage writes the help of --komi from the descriptors (VAR-D7): each
// variant's default komi, and the variants whose score counts none:
// "komi for White: default 7.5 (fgo 0), not counted in gomoku and
// bridge".
func komiUsage() string {
	usage := "komi for White: default " + perVariant(engine.Descriptors, func(d *engine.Descriptor) (string, bool) {
		return strconv.FormatFloat(d.DefaultKomi, 'f', -1, 64), d.Komi
	})
	var none []string
	for _, d := range engine.Descriptors {
		if !d.Komi {
			none = append(none, string(d.Variant))
		}
	}
	if len(none) > 0 {
		usage += ", not counted in " + joinAnd(none)
	}
	return usage
}

// perVariant writes a value of every variant of ds that has one (value's
// second result) for a help text: the value most of them share, then in
// parentheses each other value after its variants, in the descriptors'
// order: "9 (hmg 19)", "9 (hmg and big 19; toy 13)".
func perVariant(ds []*engine.Descriptor, value func(d *engine.Descriptor) (string, bool)) string {
	var values []string
	variants := map[string][]string{}
	for _, d := range ds {
		v, ok := value(d)
		if !ok {
			continue
		}
		if variants[v] == nil {
			values = append(values, v)
		}
		variants[v] = append(variants[v], string(d.Variant))
	}
	if len(values) == 0 {
		return "none"
	}
	common := values[0]
	for _, v := range values {
		if len(variants[v]) > len(variants[common]) {
			common = v
		}
	}
	var others []string
	for _, v := range values {
		if v != common {
			others = append(others, joinAnd(variants[v])+" "+v)
		}
	}
	if len(others) == 0 {
		return common
	}
	return common + " (" + strings.Join(others, "; ") + ")"
}

// joinAnd writes names for people: "a", "a and b", "a, b and c".
func joinAnd(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
