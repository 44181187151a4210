package engine

import (
	"errors"
	"fmt"
	"time"

	"github.com/kakure/kakure/engine/clock"
)

// Variant names a game kakure plays. The names are those of the command
// line, the records and GTP.
type Variant string

// The variants.
const (
	VariantGo      Variant = "go"
	VariantPhantom Variant = "phantom"
	VariantHMG     Variant = "hmg"
	VariantGomoku  Variant = "gomoku"
	VariantFGo     Variant = "fgo"
	VariantBridge  Variant = "bridge"
)

// Variants lists every variant, in the order help texts show them: the
// order of [Descriptors], which it is made from.
var Variants = variantsOf(Descriptors)

// phantomrules.Rules names an announcement rule set of Phantom Go (PG-6..PG-8).
type PhantomRules string

// The Phantom Go announcement rule sets.
const (
	RulesCommon     PhantomRules = "common"
	RulesHamburg    PhantomRules = "hamburg"
	RulesKriegspiel PhantomRules = "kriegspiel"
)

// SuicideRule is the F-Go suicide option (FG-5).
type SuicideRule string

// The F-Go suicide options.
const (
	SuicideNZ     SuicideRule = "nz"
	SuicideForbid SuicideRule = "forbid"
)

// ErrBadOptions reports options that do not describe a game kakure can play.
var ErrBadOptions = errors.New("engine: bad options")

// Options name a variant and its settings. The zero value of a field means
// "the variant's default"; [Options.Normalize] fills the defaults in and
// checks the rest.
type Options struct {
	Variant Variant
	// Size is the board side: 5–19 for the Go family, 7–19 for gomoku.
	Size int
	// Komi is added to White's score (GO-5). KomiSet tells a komi of 0
	// chosen on purpose from the default.
	Komi    float64
	KomiSet bool
	// Rules is the Phantom Go announcement rule set.
	Rules PhantomRules
	// Cards is the number of hidden moves per player in Hidden Move Go
	// (0–9). CardsSet tells 0 chosen on purpose from the default of 3.
	Cards    int
	CardsSet bool
	// Suicide is the F-Go suicide option.
	Suicide SuicideRule
	// Perpendicular selects the Bridge Go option of BG-5.
	Perpendicular bool
	// Own holds the values of the options that have no field of their
	// own, those described by NewChoiceOption, NewIntOption and
	// NewBoolOption (VAR-D7): "key=value" lines in sorted order, one
	// string so that options compare with ==. Read it with OwnValue, set
	// it with the option's Parse.
	Own string

	// InviterColor is the colour the player who proposes a game takes
	// (HC-D2, docs/rules/handicap.md): Empty for nigiri (the coin toss
	// of T-4), Black or White. Gomoku takes its colours from its pie rule
	// (GM-2) and refuses a choice.
	InviterColor Color
	// Handicap is the number of Black's handicap stones in plain Go, 0 or
	// 2..MaxHandicap(Size), placed by HandicapPoints before White's first
	// move (HC-D1). It needs InviterColor (who takes Black).
	Handicap int
	// Time is the time control both players' clocks follow (CLK-D1); the
	// zero value is none. Lag is the lag allowance a move (CLK-D7): 0
	// means DefaultLag once a time control is set.
	Time clock.Control
	Lag  time.Duration
	// Lambda is, in Phantom Go, the number of garblings of every try of
	// the secure referee, all but one opened and checked by the evaluator
	// (T-8(b), MPC-D14 in docs/mpc.md): 0 for none (older invitations,
	// which lack it), else 2, 4, 8 or 16. Normalize makes 1 into 0.
	Lambda int
	// Garbling is, in Phantom Go, the garbling scheme of the secure
	// referee (MPC-D26 in docs/mpc.md): "" for half-gates (older
	// invitations, which lack it) or GarblingThreeHalves. Normalize makes
	// GarblingHalfGates into "".
	Garbling string
	// InputOT is, in Phantom Go, the form of the OTs of the evaluator's
	// input labels in a checked game (MPC-D28 in docs/mpc.md): "" for the
	// game's one OT extension (MPC-D18; older invitations, which lack
	// it) or InputOTCorrelated, which needs Lambda > 1; or
	// InputOTAuthenticated, the correlated OTs with the referee's state
	// authenticated from try to try (MPC-D29), which needs Lambda > 1 and
	// GarblingThreeHalves; or InputOTAuthenticatedMAC64, the same with
	// the garbler's MACs of 64 bits (MPC-D32). Normalize makes
	// InputOTExtension into "".
	InputOT string
}

// The garbling schemes of Options.Garbling, as the secure referee names
// them.
const (
	GarblingHalfGates   = "half-gates"
	GarblingThreeHalves = "three-halves"
)

// The forms of Options.InputOT, as the secure referee names them.
const (
	InputOTExtension     = "extension"
	InputOTCorrelated    = "correlated"
	InputOTAuthenticated = "authenticated"
	// InputOTAuthenticatedMAC64 is InputOTAuthenticated with MACs of 64
	// bits instead of 128 (MPC-D32 in docs/mpc.md): half the bytes of
	// the MAC sub-batches.
	InputOTAuthenticatedMAC64 = "authenticated-mac64"
)

// AuthenticatedInputOT reports whether the form of the input OTs name
// (Options.InputOT) authenticates the referee's state from try to try
// (MPC-D29): InputOTAuthenticated or InputOTAuthenticatedMAC64.
func AuthenticatedInputOT(name string) bool {
	return name == InputOTAuthenticated || name == InputOTAuthenticatedMAC64
}

// MaxLambda is the largest Options.Lambda.
const MaxLambda = 16

// DefaultLag is the lag allowance a move of a game with a time control
// (CLK-D7).
const DefaultLag = time.Second

// MaxLag caps the lag allowance (CLK-D8).
const MaxLag = 10 * time.Second

// HasClocks reports whether a time control is offered for variant v
// (CLK-D10); false for a variant kakure does not have.
func HasClocks(v Variant) bool {
	d, err := LookupDescriptor(v)
	return err == nil && d.Timed
}

// DefaultSize returns the board side a variant uses when none is given.
// It panics, naming v, for a variant kakure does not have.
func DefaultSize(v Variant) int { return v.Descriptor().DefaultSize }

// Normalize returns the options with every default filled in, or an error
// that says what is wrong with them.
func (o Options) Normalize() (Options, error) {
	if o.Variant == "" {
		return o, fmt.Errorf("%w: no variant given (one of %s)", ErrBadOptions, variantList())
	}
	d, err := LookupDescriptor(o.Variant)
	if err != nil {
		return o, err
	}
	if o.Size == 0 {
		o.Size = d.DefaultSize
	}
	if o.Size < d.MinSize || o.Size > MaxSize {
		return o, fmt.Errorf("%w: board size %d for %s (allowed %d to %d)", ErrBadOptions, o.Size, o.Variant, d.MinSize, MaxSize)
	}
	if !o.KomiSet && o.Komi == 0 {
		o.Komi = d.DefaultKomi
		if d.Handicap && o.Handicap > 0 {
			o.Komi = HandicapKomi // HC-D1
		}
	}
	o.KomiSet = true
	if o.Komi < -500 || o.Komi > 500 || o.Komi != o.Komi {
		return o, fmt.Errorf("%w: komi %v out of range", ErrBadOptions, o.Komi)
	}
	for _, opt := range allOptions() {
		if opt.Variant == o.Variant {
			if err := opt.normalize(&o); err != nil {
				return o, err
			}
		} else if opt.isSet(o) {
			return o, fmt.Errorf("%w: --%s applies to %s only", ErrBadOptions, opt.Key, opt.Variant)
		}
	}
	if err := normalizeOwn(&o); err != nil {
		return o, err
	}
	if o.Variant == VariantPhantom {
		if o.Lambda == 1 {
			o.Lambda = 0
		}
		if o.Lambda < 0 || o.Lambda > MaxLambda || o.Lambda&(o.Lambda-1) != 0 {
			return o, fmt.Errorf("%w: λ = %d garblings per try (allowed 1, 2, 4, 8, 16)", ErrBadOptions, o.Lambda)
		}
		switch o.Garbling {
		case GarblingHalfGates:
			o.Garbling = ""
		case "", GarblingThreeHalves:
		default:
			return o, fmt.Errorf("%w: garbling %q (%s or %s)", ErrBadOptions, o.Garbling, GarblingHalfGates, GarblingThreeHalves)
		}
		switch o.InputOT {
		case InputOTExtension:
			o.InputOT = ""
		case "":
		case InputOTCorrelated, InputOTAuthenticated, InputOTAuthenticatedMAC64:
			if o.Lambda == 0 {
				return o, fmt.Errorf("%w: input OTs %s need checked tries (--lambda 2 or more)", ErrBadOptions, o.InputOT)
			}
			if AuthenticatedInputOT(o.InputOT) && o.Garbling != GarblingThreeHalves {
				return o, fmt.Errorf("%w: input OTs %s need the %s garbling", ErrBadOptions, o.InputOT, GarblingThreeHalves)
			}
		default:
			return o, fmt.Errorf("%w: input OTs %q (%s, %s, %s or %s)", ErrBadOptions, o.InputOT, InputOTExtension, InputOTCorrelated, InputOTAuthenticated, InputOTAuthenticatedMAC64)
		}
	} else if o.Lambda != 0 {
		return o, fmt.Errorf("%w: --lambda applies to phantom only", ErrBadOptions)
	} else if o.Garbling != "" {
		return o, fmt.Errorf("%w: --garbling applies to phantom only", ErrBadOptions)
	} else if o.InputOT != "" {
		return o, fmt.Errorf("%w: --input-ot applies to phantom only", ErrBadOptions)
	}
	o, err = o.normalizeSides(d)
	if err != nil {
		return o, err
	}
	return o.normalizeClock(d)
}

// normalizeClock checks the time control and fills in the lag allowance
// (CLK-D1, CLK-D7).
func (o Options) normalizeClock(d *Descriptor) (Options, error) {
	if err := o.Time.Validate(); err != nil {
		return o, fmt.Errorf("%w: time control: %v", ErrBadOptions, err)
	}
	if o.Time.IsNone() {
		if o.Lag != 0 {
			return o, fmt.Errorf("%w: a lag allowance without a time control", ErrBadOptions)
		}
		return o, nil
	}
	if !d.Timed {
		return o, fmt.Errorf("%w: a time control is not offered for %s (docs/clocks.md)", ErrBadOptions, o.Variant)
	}
	if o.Lag == 0 {
		o.Lag = DefaultLag
	}
	if o.Lag < 0 || o.Lag > MaxLag || o.Lag%time.Millisecond != 0 {
		return o, fmt.Errorf("%w: lag allowance %v (allowed 1ms to %v, whole milliseconds)", ErrBadOptions, o.Lag, MaxLag)
	}
	return o, nil
}

// normalizeSides checks the colour choice and the handicap (HC-D1, HC-D2).
// The komi default is already filled in: a handicap game's default komi
// is 0.5, a komi set on purpose stays.
func (o Options) normalizeSides(d *Descriptor) (Options, error) {
	switch o.InviterColor {
	case Empty, Black, White:
	default:
		return o, fmt.Errorf("%w: colour choice %v (black, white or nigiri)", ErrBadOptions, o.InviterColor)
	}
	if o.InviterColor != Empty && d.Colors == ColorsByPie {
		return o, fmt.Errorf("%w: gomoku's colours come from its pie rule (GM-2), not from a choice", ErrBadOptions)
	}
	if o.Handicap == 0 {
		return o, nil
	}
	if !d.Handicap {
		return o, fmt.Errorf("%w: --handicap applies to %s only", ErrBadOptions, variantsWhere(func(d *Descriptor) bool { return d.Handicap }))
	}
	if _, err := HandicapPoints(o.Size, o.Handicap); err != nil {
		return o, err
	}
	if o.InviterColor == Empty {
		return o, fmt.Errorf("%w: a handicap needs a colour choice, black or white (who takes the handicap), not nigiri", ErrBadOptions)
	}
	return o, nil
}
