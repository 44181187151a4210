package gtp

import (
	"errors"
	"strconv"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// gtpClock is what the controller said of the clocks (GTP-D4):
// time_settings or kgs-time_settings, then time_left before a genmove.
type gtpClock struct {
	control clock.Control
	// left holds, by colour, the clock time_left last gave.
	left [3]*clock.State
}

// clockMovesLeft is the number of moves a genmove's time budget is shared
// over: GTP does not say how long the game will be (GTP-D4).
const clockMovesLeft = 20

// clockMargin is what genmove keeps back from its budget for the
// controller's and the network's work.
const clockMargin = 500 * time.Millisecond

// seconds reads a whole number of seconds of a time setting.
func seconds(s string) (time.Duration, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > int(clock.MaxMain/time.Second) {
		return 0, errSyntax
	}
	return time.Duration(n) * time.Second, nil
}

// count reads a number of stones or periods.
func count(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > clock.MaxStones {
		return 0, errSyntax
	}
	return n, nil
}

// timeSettings is GTP's time_settings MAIN BYO_TIME BYO_STONES: Canadian
// byo-yomi; a byo-yomi time of 0 is absolute time, a byo-yomi time with
// 0 stones no time limit.
func (s *Server) timeSettings(args []string) (string, error) {
	if err := wantArgs(args, 3); err != nil {
		return "", err
	}
	main, err1 := seconds(args[0])
	byo, err2 := seconds(args[1])
	stones, err3 := count(args[2])
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", errSyntax
	}
	var c clock.Control
	switch {
	case byo > 0 && stones == 0, main == 0 && byo == 0:
	case byo == 0:
		c = clock.Control{Kind: clock.Absolute, Main: main}
	default:
		c = clock.Control{Kind: clock.Canadian, Main: main, Stones: stones, Period: byo}
	}
	return "", s.setControl(c)
}

// kgsTimeSettings is the KGS extension kgs-time_settings: none,
// absolute MAIN, byoyomi MAIN PERIOD PERIODS or canadian MAIN BLOCK
// STONES.
func (s *Server) kgsTimeSettings(args []string) (string, error) {
	if len(args) == 0 {
		return "", errSyntax
	}
	var c clock.Control
	var err error
	nums := make([]int, len(args)-1)
	for i, a := range args[1:] {
		if nums[i], err = strconv.Atoi(a); err != nil || nums[i] < 0 || nums[i] > int(clock.MaxMain/time.Second) {
			return "", errSyntax
		}
	}
	sec := func(i int) time.Duration { return time.Duration(nums[i]) * time.Second }
	switch {
	case args[0] == "none" && len(nums) == 0:
	case args[0] == "absolute" && len(nums) == 1:
		c = clock.Control{Kind: clock.Absolute, Main: sec(0)}
	case args[0] == "byoyomi" && len(nums) == 3:
		c = clock.Control{Kind: clock.Japanese, Main: sec(0), Period: sec(1), Periods: nums[2]}
	case args[0] == "canadian" && len(nums) == 3:
		c = clock.Control{Kind: clock.Canadian, Main: sec(0), Period: sec(1), Stones: nums[2]}
	default:
		return "", errSyntax
	}
	return "", s.setControl(c)
}

// setControl sets the time control after a time setting command; it
// forgets the times left.
func (s *Server) setControl(c clock.Control) error {
	if err := c.Validate(); err != nil {
		return errors.New("bad time settings")
	}
	s.clock = gtpClock{control: c}
	return nil
}

// timeLeft is GTP's time_left COLOR TIME STONES: STONES 0 is main time,
// else the stones (Canadian) or periods (byo-yomi) left, TIME then being
// what is left of the block or the period.
func (s *Server) timeLeft(args []string) (string, error) {
	if err := wantArgs(args, 3); err != nil {
		return "", err
	}
	c, err := colorArg(args[0])
	if err != nil {
		return "", err
	}
	left, err1 := seconds(args[1])
	stones, err2 := count(args[2])
	if err := errors.Join(err1, err2); err != nil {
		return "", errSyntax
	}
	ctl := s.clock.control
	st := clock.State{Main: left, Periods: ctl.Periods}
	if stones > 0 {
		switch ctl.Kind {
		case clock.Japanese:
			st = clock.State{Periods: stones}
		case clock.Canadian:
			st = clock.State{Overtime: true, Block: left, Stones: stones}
		}
	}
	s.clock.left[c] = &st
	return "", nil
}

// timedLevel returns the level genmove for c thinks at: the server's,
// with a time limit from the clock when one was set (GTP-D4).
func (s *Server) timedLevel(c engine.Color) (bot.Level, bool) {
	ctl := s.clock.control
	if ctl.IsNone() || (c != engine.Black && c != engine.White) {
		return bot.Level{}, false
	}
	st := ctl.Start()
	if l := s.clock.left[c]; l != nil {
		st = *l
	}
	return botLevel(s.level).WithinTime(ctl.Budget(st, clockMovesLeft, clockMargin)), true
}
