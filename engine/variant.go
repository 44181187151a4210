package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// ColorAssignment says how the two players of a variant get their colours.
type ColorAssignment int

// The ways colours are assigned.
const (
	// ColorsByChoice: the inviter chooses Black or White, or leaves it to
	// the coin toss of T-4 (nigiri) (HC-D2).
	ColorsByChoice ColorAssignment = iota + 1
	// ColorsByPie: the pie rule of gomoku decides (GM-2); a choice is
	// refused.
	ColorsByPie
)

// OptionType says what values a [VariantOption] takes, and so how the
// command line and the lobby's form offer it.
type OptionType int

// The types of options.
const (
	// OptionChoice is one of the option's Choices: a drop-down in the
	// lobby, a string flag.
	OptionChoice OptionType = iota + 1
	// OptionInt is a whole number from Min to Max: a number field, an
	// integer flag.
	OptionInt
	// OptionBool is a switch, off by default: a checkbox, a bool flag.
	OptionBool
)

// VariantOption is one setting of a variant besides size, komi, colours
// and clock: the Phantom rule set, the Hidden Move Go cards, the F-Go
// suicide option, the Bridge Go perpendicular option. It is described
// here once, and the layers generate from the description what they offer
// (issue 33): its Key is the name of the command-line flag (--Key, whose
// help is made of Variant, Doc, the values and Default), of the SGF VO
// pair (Key=value, written by Format and read by Parse) and of the
// lobby's form field (labelled Label, offering the values by Type).
// TestVariantOptionsAsDescribed checks each description against Parse
// and Normalize.
type VariantOption struct {
	// Key names the option.
	Key string
	// Variant is the variant the option belongs to.
	Variant Variant
	// Type says what values the option takes: one of Choices, a whole
	// number from Min to Max, or a switch.
	Type    OptionType
	Choices []string
	Min     int
	Max     int
	// Default is the option's value in normalized options that do not
	// set it, as Format writes it.
	Default string
	// Label names the option in the lobby's form ("Hidden moves"); Doc
	// says what it is in the help of its flag ("hidden moves per
	// player").
	Label string
	Doc   string
	// isSet reports whether o sets the option at all (a non-zero value);
	// chosen whether o gives it a value, the zero value included where
	// the options can tell (Hidden Move Go's 0 cards); nil for isSet.
	isSet  func(o Options) bool
	chosen func(o Options) bool
	// normalize fills the option's default into o and checks its value.
	normalize func(o *Options) error
	// Format writes the option's value of normalized options as SGF's
	// VO writes it.
	Format func(o Options) string
	// Parse reads a value written by Format into o; its error says what
	// is wrong with the value. Normalize checks the value further.
	Parse func(o *Options, value string) error
	// own tells an option held in Options.Own (NewChoiceOption,
	// NewIntOption, NewBoolOption) from one with a field of its own.
	own bool
	// Describe writes the option of normalized options for people
	// ("hamburg rules", "3 hidden moves"), or "" when there is nothing
	// to say (Bridge Go without the perpendicular option).
	Describe func(o Options) string
}

// Own reports whether the option is held in Options.Own (NewChoiceOption,
// NewIntOption, NewBoolOption) rather than in a field of its own.
func (opt VariantOption) Own() bool { return opt.own }

// Descriptor says what a variant is, for every layer that needs to know
// it without switching on the variant: the UI's titles and forms, the SGF
// records, GTP, the bots and the command line read it. Each variant has
// exactly one, in [Descriptors].
type Descriptor struct {
	// Variant is the variant's name (command line, records, GTP).
	Variant Variant
	// Title is the variant's name for people: "Hidden Move Go".
	Title string
	// ColorNames are the names of the sides for people, Black's then
	// White's: "Black" and "White", or gomoku's "X" and "O".
	ColorNames [2]string
	// ResultLetters are the sides' letters of a short result (W+7.5):
	// "B" and "W", or gomoku's "X" and "O".
	ResultLetters [2]string
	// Stones tells a variant played with Go stones from one drawn with
	// other pieces (gomoku's X and O).
	Stones bool
	// MinSize and DefaultSize are the smallest board side allowed and
	// the side used when none is given; MaxSize is the largest for all.
	MinSize, DefaultSize int
	// Komi tells a variant whose score counts a komi a player may set;
	// DefaultKomi is the komi when none is given (GO-5).
	Komi        bool
	DefaultKomi float64
	// Handicap tells a variant that offers handicap stones (HC-D1); a
	// handicap game's default komi is HandicapKomi.
	Handicap bool
	// Colors says how the players get their colours.
	Colors ColorAssignment
	// Timed tells a variant a time control is offered for (CLK-D10).
	Timed bool
	// Undo tells a variant whose moves a player may ask to take back
	// (UNDO-D1, docs/rules/undo.md).
	Undo bool
	// SGFGame is the record's GM value: 1 for the Go family, 4 for
	// gomoku. SGFRules is its RU value, "" for none.
	SGFGame  int
	SGFRules string
	// RuleSections name the sections of docs/spec/rules.md that make up
	// the variant's rules, in the order shown: the variant's own, then
	// the shared base it builds on.
	RuleSections []string
	// Options are the variant's own settings.
	Options []VariantOption
}

// Chosen reports whether o gives the option a value, its zero value
// included where the options tell it from the default (Hidden Move Go's
// 0 cards): a form shows the value of a chosen option, and leaves the
// others to the default.
func (opt VariantOption) Chosen(o Options) bool {
	if opt.chosen != nil {
		return opt.chosen(o)
	}
	return opt.isSet(o)
}

// Values writes the values the option takes for people, as the help of
// its flag gives them: "common, hamburg or kriegspiel", "0-9", or "" for
// a switch.
func (opt VariantOption) Values() string {
	switch opt.Type {
	case OptionChoice:
		if len(opt.Choices) <= 1 {
			return strings.Join(opt.Choices, "")
		}
		return strings.Join(opt.Choices[:len(opt.Choices)-1], ", ") + " or " + opt.Choices[len(opt.Choices)-1]
	case OptionInt:
		return fmt.Sprintf("%d-%d", opt.Min, opt.Max)
	}
	return ""
}

// HandicapKomi is the default komi of a handicap game (HC-D1).
const HandicapKomi = 0.5

// ColorName returns the name of the side of colour c for people ("Black",
// "O"), and "nobody" for a colour that is no side.
func (d *Descriptor) ColorName(c Color) string {
	switch c {
	case Black:
		return d.ColorNames[0]
	case White:
		return d.ColorNames[1]
	}
	return "nobody"
}

// defaultCards and maxCards are Hidden Move Go's default and largest
// number of hidden moves a player (HMG-1).
const (
	defaultCards = 3
	maxCards     = 9
)

// OptionTryFlips is the key of Phantom Go's switch of the evaluator's try
// ahead of its player (MPC-D52 in docs/mpc.md, UI-D49): the evaluator's
// tries come as random bits taken before its player plays and their
// flips, sent once it has. It acts only in checked games (Lambda > 1) of
// the correlated input OTs (any correlated form), and changes nothing in
// the others (Normalize takes both of its values in every Phantom Go
// game, as every variant option's; kakure's flag refuses it there); off
// by default here, and older invitations lack it: kakure's commands and
// lobby switch it on where it applies (UI-D50), in the game's options.
const OptionTryFlips = "try-flips"

// TryFlips reports whether o switches the evaluator's tries by flips on
// (OptionTryFlips); they come by flips in a checked game of the
// correlated input OTs only.
func (o Options) TryFlips() bool {
	s, _ := o.OwnValue(OptionTryFlips)
	return s == "true"
}

// options of every variant, in the order Normalize checks them.
var (
	optionTryFlips = NewBoolOption(VariantPhantom, OptionTryFlips, "Try flips",
		"the evaluator's try ahead of its player, by flips (MPC-D52; needs --lambda 2 or more and correlated or authenticated input OTs)")
	optionRules = VariantOption{
		Key: "rules", Variant: VariantPhantom,
		Type: OptionChoice, Choices: []string{string(RulesCommon), string(RulesHamburg), string(RulesKriegspiel)},
		Default: string(RulesCommon), Label: "Rules", Doc: "announcement rules",
		isSet: func(o Options) bool { return o.Rules != "" },
		normalize: func(o *Options) error {
			switch o.Rules {
			case "":
				o.Rules = RulesCommon
			case RulesCommon, RulesHamburg, RulesKriegspiel:
			default:
				return fmt.Errorf("%w: unknown Phantom rule set %q (common, hamburg or kriegspiel)", ErrBadOptions, o.Rules)
			}
			return nil
		},
		Format:   func(o Options) string { return string(o.Rules) },
		Parse:    func(o *Options, s string) error { o.Rules = PhantomRules(s); return nil },
		Describe: func(o Options) string { return string(o.Rules) + " rules" },
	}
	optionCards = VariantOption{
		Key: "cards", Variant: VariantHMG,
		Type: OptionInt, Min: 0, Max: maxCards, Default: strconv.Itoa(defaultCards),
		Label: "Hidden moves", Doc: "hidden moves per player",
		isSet:  func(o Options) bool { return o.Cards != 0 },
		chosen: func(o Options) bool { return o.CardsSet || o.Cards != 0 },
		normalize: func(o *Options) error {
			if !o.CardsSet && o.Cards == 0 {
				o.Cards = defaultCards
			}
			o.CardsSet = true
			if o.Cards < 0 || o.Cards > maxCards {
				return fmt.Errorf("%w: %d hidden cards (allowed 0 to %d)", ErrBadOptions, o.Cards, maxCards)
			}
			return nil
		},
		Format: func(o Options) string { return strconv.Itoa(o.Cards) },
		Parse: func(o *Options, s string) error {
			n, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("cards=%q is not a number", s)
			}
			o.Cards, o.CardsSet = n, true
			return nil
		},
		Describe: func(o Options) string {
			if o.Cards == 1 {
				return "1 hidden move"
			}
			return fmt.Sprintf("%d hidden moves", o.Cards)
		},
	}
	optionSuicide = VariantOption{
		Key: "suicide", Variant: VariantFGo,
		Type: OptionChoice, Choices: []string{string(SuicideNZ), string(SuicideForbid)},
		Default: string(SuicideNZ), Label: "Suicide", Doc: "suicide option",
		isSet: func(o Options) bool { return o.Suicide != "" },
		normalize: func(o *Options) error {
			switch o.Suicide {
			case "":
				o.Suicide = SuicideNZ
			case SuicideNZ, SuicideForbid:
			default:
				return fmt.Errorf("%w: unknown suicide option %q (nz or forbid)", ErrBadOptions, o.Suicide)
			}
			return nil
		},
		Format:   func(o Options) string { return string(o.Suicide) },
		Parse:    func(o *Options, s string) error { o.Suicide = SuicideRule(s); return nil },
		Describe: func(o Options) string { return "suicide " + string(o.Suicide) },
	}
	optionPerpendicular = VariantOption{
		Key: "perpendicular", Variant: VariantBridge,
		Type: OptionBool, Default: "false", Label: "Perpendicular", Doc: "the perpendicular liberty option",
		isSet:     func(o Options) bool { return o.Perpendicular },
		normalize: func(*Options) error { return nil },
		Format:    func(o Options) string { return strconv.FormatBool(o.Perpendicular) },
		Parse: func(o *Options, s string) error {
			b, err := strconv.ParseBool(s)
			if err != nil {
				return fmt.Errorf("perpendicular=%q is not true or false", s)
			}
			o.Perpendicular = b
			return nil
		},
		Describe: func(o Options) string {
			if o.Perpendicular {
				return "perpendicular"
			}
			return ""
		},
	}
)

// allOptions are the options of every variant, in the order Normalize
// checks them: the descriptors' order. They are read from [Descriptors]
// at each call, not kept, so that a descriptor a test adds (VAR-D8) is
// checked as one listed from the start.
func allOptions() []VariantOption { return optionsOf(Descriptors) }

// optionsOf lists the options of ds's variants.
func optionsOf(ds []*Descriptor) []VariantOption {
	var opts []VariantOption
	for _, d := range ds {
		opts = append(opts, d.Options...)
	}
	return opts
}

// goBlackWhite are the Go family's names of the sides.
var (
	goColorNames    = [2]string{"Black", "White"}
	goResultLetters = [2]string{"B", "W"}
)

// Descriptors holds the descriptor of every variant, in the order help
// texts show them. Adding a variant starts here; the completeness tests of
// each layer then say what else it needs.
var Descriptors = []*Descriptor{
	{
		Variant: VariantGo, Title: "Go", ColorNames: goColorNames, ResultLetters: goResultLetters, Stones: true,
		MinSize: MinSize, DefaultSize: 9, Komi: true, DefaultKomi: 7.5, Handicap: true,
		Colors: ColorsByChoice, Timed: true, Undo: true, SGFGame: 1, SGFRules: "Chinese",
		RuleSections: []string{"GO"},
	},
	{
		Variant: VariantPhantom, Title: "Phantom Go", ColorNames: goColorNames, ResultLetters: goResultLetters, Stones: true,
		MinSize: MinSize, DefaultSize: 9, Komi: true, DefaultKomi: 7.5,
		Colors: ColorsByChoice, Timed: true, SGFGame: 1, SGFRules: "Chinese",
		RuleSections: []string{"PG", "GO"}, Options: []VariantOption{optionRules, optionTryFlips},
	},
	{
		Variant: VariantHMG, Title: "Hidden Move Go", ColorNames: goColorNames, ResultLetters: goResultLetters, Stones: true,
		MinSize: MinSize, DefaultSize: 19, Komi: true, DefaultKomi: 7.5,
		Colors: ColorsByChoice, Timed: true, SGFGame: 1, SGFRules: "Chinese",
		RuleSections: []string{"HMG", "GO"}, Options: []VariantOption{optionCards},
	},
	{
		Variant: VariantGomoku, Title: "Hidden Move Double Gomoku", ColorNames: [2]string{"X", "O"}, ResultLetters: [2]string{"X", "O"},
		MinSize: 7, DefaultSize: 9,
		Colors: ColorsByPie, Timed: true, SGFGame: 4,
		RuleSections: []string{"GM"},
	},
	{
		Variant: VariantFGo, Title: "F-Go", ColorNames: goColorNames, ResultLetters: goResultLetters, Stones: true,
		MinSize: MinSize, DefaultSize: 9, Komi: true, DefaultKomi: 0,
		Colors: ColorsByChoice, Timed: true, SGFGame: 1, SGFRules: "Chinese",
		RuleSections: []string{"FG", "GO"}, Options: []VariantOption{optionSuicide},
	},
	{
		Variant: VariantBridge, Title: "Bridge Go", ColorNames: goColorNames, ResultLetters: goResultLetters, Stones: true,
		MinSize: MinSize, DefaultSize: 9, DefaultKomi: 0,
		Colors: ColorsByChoice, Timed: true, Undo: true, SGFGame: 1,
		RuleSections: []string{"BG", "GO"}, Options: []VariantOption{optionPerpendicular},
	},
}

// ErrUnknownVariant reports a variant kakure does not have.
var ErrUnknownVariant = fmt.Errorf("%w: unknown variant", ErrBadOptions)

// LookupDescriptor returns the descriptor of variant v, or an error that
// names v when kakure has no such variant.
func LookupDescriptor(v Variant) (*Descriptor, error) {
	for _, d := range Descriptors {
		if d.Variant == v {
			return d, nil
		}
	}
	return nil, fmt.Errorf("%w %q (one of %s)", ErrUnknownVariant, v, variantList())
}

// Descriptor returns the descriptor of v. It panics, naming v, when
// kakure has no such variant: callers hold normalized options or a
// variant of [Variants].
func (v Variant) Descriptor() *Descriptor {
	d, err := LookupDescriptor(v)
	if err != nil {
		panic(err)
	}
	return d
}

// variantsOf lists the variants of ds.
func variantsOf(ds []*Descriptor) []Variant {
	vs := make([]Variant, len(ds))
	for i, d := range ds {
		vs[i] = d.Variant
	}
	return vs
}

// variantList writes the variants' names for an error: "go, phantom, …".
func variantList() string {
	names := make([]string, len(Variants))
	for i, v := range Variants {
		names[i] = string(v)
	}
	return strings.Join(names, ", ")
}

// variantsWhere writes the names of the variants d of which has(d) holds,
// as an error lists them: "go, bridge and hmg".
func variantsWhere(has func(d *Descriptor) bool) string {
	var names []string
	for _, d := range Descriptors {
		if has(d) {
			names = append(names, string(d.Variant))
		}
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
