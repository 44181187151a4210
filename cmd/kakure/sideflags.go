package main

import (
	"flag"
	"fmt"

	"github.com/kakure/kakure/engine"
)

// sideFlags are the flags of the colours (HC-D1, HC-D2): the colour of the
// peer that invites, and plain Go's handicap. Commands that start games
// over the network register them beside their variantFlags.
type sideFlags struct {
	color    string
	handicap int
}

// register adds --color and --handicap; whose colour --color is depends on
// the command and is said in its usage.
func (s *sideFlags) register(fs *flag.FlagSet, whose string) {
	fs.StringVar(&s.color, "color", "nigiri", whose+": black, white, or nigiri (a fair coin toss of both peers)")
	fs.IntVar(&s.handicap, "handicap", 0, "go: Black's handicap stones, 2-9 (4 on 7x7 and even boards), White moves first, default komi 0.5; needs --color black or white")
}

// apply sets o's colour choice and handicap from the flags.
func (s *sideFlags) apply(o *engine.Options) error {
	switch s.color {
	case "nigiri", "":
		o.InviterColor = engine.Empty
	case "black", "b":
		o.InviterColor = engine.Black
	case "white", "w":
		o.InviterColor = engine.White
	default:
		return fmt.Errorf("--color %q: want black, white or nigiri", s.color)
	}
	o.Handicap = s.handicap
	return nil
}
