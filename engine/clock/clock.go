// Package clock holds kakure's game clocks: the time controls a game can be
// played with (none, absolute, Fischer increment, Japanese byo-yomi and
// Canadian byo-yomi), the one `--time` syntax that names them, and the
// arithmetic of a player's clock (a move's think time charged, the
// increment added, byo-yomi periods used up, the flag falling).
//
// Like package engine, it is pure and deterministic: it never reads the
// time of day. Callers measure think times and pass them in as
// [time.Duration] values, so two programs that charge the same think times
// hold the same clocks. docs/clocks.md has the decisions (CLK-D*).
package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind names a kind of time control.
type Kind uint8

// The time controls (CLK-D1).
const (
	// None is no time control: the clock never runs out (the default).
	None Kind = iota
	// Absolute is one main time for the whole game ("sudden death").
	Absolute
	// Fischer adds an increment to the player's main time after each move.
	Fischer
	// Japanese byo-yomi: after the main time, a number of periods of equal
	// length; a move made within a period keeps it, a period used up is lost.
	Japanese
	// Canadian byo-yomi: after the main time, a number of stones to be
	// played within a block of time; when they are played the block starts
	// again in full.
	Canadian
)

// String names the kind as docs/clocks.md does.
func (k Kind) String() string {
	switch k {
	case None:
		return "none"
	case Absolute:
		return "absolute"
	case Fischer:
		return "fischer"
	case Japanese:
		return "byo-yomi"
	case Canadian:
		return "canadian"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Limits of a time control (CLK-D3). A longer game is played without a
// clock (correspondence play).
const (
	// MaxMain is the longest main time.
	MaxMain = 24 * time.Hour
	// MaxPeriod is the longest increment, byo-yomi period or Canadian block.
	MaxPeriod = time.Hour
	// MaxPeriods is the most Japanese byo-yomi periods.
	MaxPeriods = 60
	// MaxStones is the most stones of a Canadian block.
	MaxStones = 1000
)

// Control is one time control; both players' clocks follow the same one.
// The zero value is no time control.
type Control struct {
	// Kind is the kind of control.
	Kind Kind
	// Main is each player's main time.
	Main time.Duration
	// Increment is the time added after each move (Fischer).
	Increment time.Duration
	// Periods is the number of byo-yomi periods (Japanese).
	Periods int
	// Period is the length of one byo-yomi period (Japanese) or of the block
	// in which Stones stones are to be played (Canadian).
	Period time.Duration
	// Stones is the number of stones of a block (Canadian).
	Stones int
}

// ErrSyntax reports a `--time` value that does not follow the syntax of
// docs/clocks.md (CLK-D2).
var ErrSyntax = errors.New("clock: bad time control")

// syntaxHelp is appended to every parse error.
const syntaxHelp = `(want none, 5m, 10m+5s, 5m+3x30s or 10m+25/5m)`

// Parse reads a time control in the syntax of CLK-D2:
//
//	none or ""      no time control
//	MAIN            absolute: 5m, 1h30m
//	MAIN+INC        Fischer: 10m+5s
//	MAIN+NxPERIOD   Japanese byo-yomi: 5m+3x30s (N periods of PERIOD)
//	MAIN+N/BLOCK    Canadian byo-yomi: 10m+25/5m (N stones in BLOCK)
//
// A duration is whole hours, minutes and seconds (1h30m, 90s, 2m30s); the
// main time of byo-yomi may be 0.
func Parse(s string) (Control, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return Control{}, nil
	}
	fail := func(format string, args ...any) (Control, error) {
		return Control{}, fmt.Errorf("%w %q: %s %s", ErrSyntax, s, fmt.Sprintf(format, args...), syntaxHelp)
	}
	mainText, over, plus := strings.Cut(s, "+")
	main, err := parseDuration(mainText)
	if err != nil {
		return fail("main time: %v", err)
	}
	var c Control
	switch {
	case !plus:
		c = Control{Kind: Absolute, Main: main}
	case over == "":
		return fail("nothing after '+'")
	case strings.ContainsAny(over, "xX"):
		n, period, _ := strings.Cut(strings.ToLower(over), "x")
		periods, err := parseCount(n)
		if err != nil {
			return fail("byo-yomi periods: %v", err)
		}
		p, err := parseDuration(period)
		if err != nil {
			return fail("byo-yomi period: %v", err)
		}
		c = Control{Kind: Japanese, Main: main, Periods: periods, Period: p}
	case strings.Contains(over, "/"):
		n, block, _ := strings.Cut(over, "/")
		stones, err := parseCount(n)
		if err != nil {
			return fail("Canadian stones: %v", err)
		}
		b, err := parseDuration(block)
		if err != nil {
			return fail("Canadian block: %v", err)
		}
		c = Control{Kind: Canadian, Main: main, Stones: stones, Period: b}
	default:
		inc, err := parseDuration(over)
		if err != nil {
			return fail("increment: %v", err)
		}
		c = Control{Kind: Fischer, Main: main, Increment: inc}
	}
	if err := c.Validate(); err != nil {
		return fail("%v", strings.TrimPrefix(err.Error(), "clock: "))
	}
	return c, nil
}

// MustParse is Parse for constants in tests and examples; it panics on an
// error.
func MustParse(s string) Control {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// Validate checks that the control is one Parse could return (CLK-D3).
func (c Control) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("clock: %s", fmt.Sprintf(format, args...))
	}
	whole := func(what string, d time.Duration) error {
		if d%time.Second != 0 {
			return bad("%s %v is not whole seconds", what, d)
		}
		return nil
	}
	for _, f := range []struct {
		what string
		d    time.Duration
	}{{"main time", c.Main}, {"increment", c.Increment}, {"period", c.Period}} {
		if err := whole(f.what, f.d); err != nil {
			return err
		}
		if f.d < 0 {
			return bad("%s %v is negative", f.what, f.d)
		}
	}
	if c.Main > MaxMain {
		return bad("main time %s is over %s (play without a clock instead)", formatDuration(c.Main), formatDuration(MaxMain))
	}
	zero := func(what string, isZero bool) error {
		if !isZero {
			return bad("%s has no %s", c.Kind, what)
		}
		return nil
	}
	switch c.Kind {
	case None:
		if c != (Control{}) {
			return bad("no time control with settings")
		}
		return nil
	case Absolute, Fischer:
		if c.Main <= 0 {
			return bad("%s main time must be more than 0", c.Kind)
		}
		if err := errors.Join(zero("periods", c.Periods == 0), zero("period", c.Period == 0), zero("stones", c.Stones == 0)); err != nil {
			return err
		}
		if c.Kind == Absolute {
			return zero("increment", c.Increment == 0)
		}
		if c.Increment <= 0 {
			return bad("the increment must be more than 0 (write %s for absolute time)", formatDuration(c.Main))
		}
		if c.Increment > MaxPeriod {
			return bad("increment %s is over %s", formatDuration(c.Increment), formatDuration(MaxPeriod))
		}
		return nil
	case Japanese, Canadian:
		if err := zero("increment", c.Increment == 0); err != nil {
			return err
		}
		if c.Period <= 0 {
			return bad("the %s period must be more than 0", c.Kind)
		}
		if c.Period > MaxPeriod {
			return bad("period %s is over %s", formatDuration(c.Period), formatDuration(MaxPeriod))
		}
		if c.Kind == Japanese {
			if c.Periods < 1 || c.Periods > MaxPeriods {
				return bad("%d byo-yomi periods: want 1 to %d", c.Periods, MaxPeriods)
			}
			return zero("stones", c.Stones == 0)
		}
		if c.Stones < 1 || c.Stones > MaxStones {
			return bad("%d stones a block: want 1 to %d", c.Stones, MaxStones)
		}
		return zero("periods", c.Periods == 0)
	}
	return bad("unknown kind %d", uint8(c.Kind))
}

// String writes the control in the syntax Parse reads; Parse(c.String())
// is c for every valid c.
func (c Control) String() string {
	switch c.Kind {
	case None:
		return "none"
	case Absolute:
		return formatDuration(c.Main)
	case Fischer:
		return formatDuration(c.Main) + "+" + formatDuration(c.Increment)
	case Japanese:
		return fmt.Sprintf("%s+%dx%s", formatDuration(c.Main), c.Periods, formatDuration(c.Period))
	case Canadian:
		return fmt.Sprintf("%s+%d/%s", formatDuration(c.Main), c.Stones, formatDuration(c.Period))
	}
	return c.Kind.String()
}

// Describe says the control in words for people ("5 min + 3 × 30 s
// byo-yomi").
func (c Control) Describe() string {
	switch c.Kind {
	case None:
		return "no time limit"
	case Absolute:
		return formatDuration(c.Main) + " absolute"
	case Fischer:
		return fmt.Sprintf("%s + %s a move (Fischer)", formatDuration(c.Main), formatDuration(c.Increment))
	case Japanese:
		return fmt.Sprintf("%s + %d × %s byo-yomi", formatDuration(c.Main), c.Periods, formatDuration(c.Period))
	case Canadian:
		return fmt.Sprintf("%s + %d stones in %s (Canadian)", formatDuration(c.Main), c.Stones, formatDuration(c.Period))
	}
	return c.Kind.String()
}

// IsNone reports whether the control is no time control.
func (c Control) IsNone() bool { return c.Kind == None }

// parseDuration reads whole hours, minutes and seconds: "1h30m", "90s",
// "0". Go's time.ParseDuration is not used because it takes fractions and
// units (ms, µs) that a game clock setting has no use for.
func parseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("missing duration")
	}
	if s == "0" {
		return 0, nil
	}
	var total time.Duration
	rest := s
	last := 4 // units must come in order h, m, s
	for rest != "" {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("%q: want a number before %q", s, rest[:1])
		}
		if i == len(rest) {
			return 0, fmt.Errorf("%q: %s has no unit (h, m or s)", s, rest)
		}
		n, err := strconv.ParseInt(rest[:i], 10, 32)
		if err != nil {
			return 0, fmt.Errorf("%q: %s is too large", s, rest[:i])
		}
		j := i
		for j < len(rest) && (rest[j] < '0' || rest[j] > '9') {
			j++
		}
		var unit time.Duration
		var rank int
		switch strings.ToLower(rest[i:j]) {
		case "h":
			unit, rank = time.Hour, 3
		case "m":
			unit, rank = time.Minute, 2
		case "s":
			unit, rank = time.Second, 1
		default:
			return 0, fmt.Errorf("%q: unknown unit %q (want h, m or s)", s, rest[i:j])
		}
		if rank >= last {
			return 0, fmt.Errorf("%q: units out of order (write hours, then minutes, then seconds)", s)
		}
		last = rank
		total += time.Duration(n) * unit
		if total > 1000*time.Hour {
			return 0, fmt.Errorf("%q is too long", s)
		}
		rest = rest[j:]
	}
	return total, nil
}

// parseCount reads a positive count of periods or stones.
func parseCount(s string) (int, error) {
	if s == "" {
		return 0, errors.New("missing count")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return n, nil
}

// formatDuration writes a duration as parseDuration reads it, dropping
// units that are zero ("1h30m", "45s", "0"); a fraction of a second is
// rounded down.
func formatDuration(d time.Duration) string {
	if d < time.Second {
		return "0"
	}
	var b strings.Builder
	h, m, s := d/time.Hour, (d%time.Hour)/time.Minute, (d%time.Minute)/time.Second
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if s > 0 {
		fmt.Fprintf(&b, "%ds", s)
	}
	return b.String()
}
