package bot

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Level is how much a bot thinks before each decision. Playouts is the
// budget of random games per decision on a 9×9 board; bots scale it to the
// board (PlayoutsFor) and to the cost of their variant's playouts
// (docs/bots.md, BOT-D2). Time, when positive, also stops the thinking
// after that long, whatever budget is left; a level without Time makes a
// bot's choices depend only on its seed and what it knows (BOT-D1).
type Level struct {
	Playouts int
	Time     time.Duration
	// NoResign keeps the bot from resigning a hopeless game, and
	// NoEarlyPass from passing while a move is left that is not its own
	// eye (BOT-D6): both are for analysis, where the game is to be
	// played out ("resign=off", "pass=late" in ParseLevel).
	NoResign    bool
	NoEarlyPass bool
	// Wait, when positive, is the least time the bot takes over a
	// decision: having chosen sooner, it waits (it does not think longer)
	// until Wait has passed since the decision began, within what the
	// game's clock allows (BOT-D8, "wait=" in ParseLevel).
	Wait time.Duration
}

// WithinTime returns l with its time limit no more than budget: budget
// when l has none or a longer one (a clock's budget, CLK-D11, GTP-D4).
func (l Level) WithinTime(budget time.Duration) Level {
	if l.Time <= 0 || budget < l.Time {
		l.Time = budget
	}
	return l
}

// Levels are the numbered levels 1 (fastest, weakest) to 5 (strongest,
// slowest); Levels[0] is unused. DefaultLevel is Levels[3].
var Levels = [...]Level{
	1: {Playouts: 300},
	2: {Playouts: 1500},
	3: {Playouts: 6000},
	4: {Playouts: 20000},
	5: {Playouts: 60000},
}

// DefaultLevel is the level bots use unless told otherwise: it answers
// well within 2 s per move on 9×9 (docs/bots.md has the timings).
var DefaultLevel = Levels[3]

// levelNames are the names ParseLevel accepts besides the numbers.
var levelNames = map[string]int{"beginner": 1, "easy": 2, "medium": 3, "hard": 4, "strong": 5}

// ErrBadLevel reports a level string ParseLevel cannot read.
var ErrBadLevel = errors.New("bot: bad level")

// ParseLevel reads a level: a number 1–5, a name (beginner, easy, medium,
// hard, strong), or a comma-separated list of playouts=N and time=DURATION
// (Go duration syntax, e.g. "playouts=50000,time=2s"). Time alone thinks
// until the time is up (with a budget of 10⁹ playouts). Either may be
// followed by resign=off and pass=late (BOT-D6), e.g. "3,resign=off", and
// by wait=DURATION (BOT-D8), e.g. "1,wait=2s": a weak bot that answers
// at a human's pace.
func ParseLevel(s string) (Level, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	parts := strings.Split(s, ",")
	var l Level
	named := false
	first := strings.TrimSpace(parts[0])
	if n, err := strconv.Atoi(first); err == nil {
		if n < 1 || n >= len(Levels) {
			return Level{}, fmt.Errorf("%w: level %d (want 1 to %d)", ErrBadLevel, n, len(Levels)-1)
		}
		l, named, parts = Levels[n], true, parts[1:]
	} else if n, ok := levelNames[first]; ok {
		l, named, parts = Levels[n], true, parts[1:]
	}
	for _, part := range parts {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Level{}, fmt.Errorf("%w: %q (want 1-5, a name, or playouts=N,time=DURATION, then resign=off, pass=late, wait=DURATION)", ErrBadLevel, s)
		}
		switch key {
		case "playouts":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > 1e9 || named {
				return Level{}, fmt.Errorf("%w: playouts=%s (want 1 to 10⁹, without a numbered level)", ErrBadLevel, value)
			}
			l.Playouts = n
		case "time":
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 || d > time.Hour || named {
				return Level{}, fmt.Errorf("%w: time=%s (want a duration up to 1h, without a numbered level)", ErrBadLevel, value)
			}
			l.Time = d
		case "wait":
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 || d > time.Hour {
				return Level{}, fmt.Errorf("%w: wait=%s (want a duration up to 1h)", ErrBadLevel, value)
			}
			l.Wait = d
		case "resign":
			switch value {
			case "off":
				l.NoResign = true
			case "on":
				l.NoResign = false
			default:
				return Level{}, fmt.Errorf("%w: resign=%s (on or off)", ErrBadLevel, value)
			}
		case "pass":
			switch value {
			case "late":
				l.NoEarlyPass = true
			case "early":
				l.NoEarlyPass = false
			default:
				return Level{}, fmt.Errorf("%w: pass=%s (early or late)", ErrBadLevel, value)
			}
		default:
			return Level{}, fmt.Errorf("%w: unknown key %q (playouts, time, resign, pass or wait)", ErrBadLevel, key)
		}
	}
	if l.Playouts == 0 {
		if l.Time == 0 {
			return Level{}, fmt.Errorf("%w: %q", ErrBadLevel, s)
		}
		l.Playouts = 1e9
	}
	return l, nil
}

// String writes the level as ParseLevel reads it.
func (l Level) String() string {
	flags := ""
	if l.NoResign {
		flags += ",resign=off"
	}
	if l.NoEarlyPass {
		flags += ",pass=late"
	}
	if l.Wait > 0 {
		flags += ",wait=" + l.Wait.String()
	}
	base := l
	base.NoResign, base.NoEarlyPass, base.Wait = false, false, 0
	for i := 1; i < len(Levels); i++ {
		if Levels[i] == base {
			return strconv.Itoa(i) + flags
		}
	}
	s := "playouts=" + strconv.Itoa(l.Playouts)
	if l.Time > 0 {
		s += ",time=" + l.Time.String()
	}
	return s + flags
}

// PlayoutsFor returns the playout budget for a board of side size, scaled
// so that thinking time stays about the same on every size: a 19×19
// playout costs about 2.5 times a 9×9 one, a 13×13 one about 1.6 times
// (BOT-D2). It is at least 16, and at most the level's budget.
func (l Level) PlayoutsFor(size int) int {
	points := float64(size * size)
	scale := math.Min(1, math.Pow(81/points, 0.6))
	n := int(float64(l.Playouts) * scale)
	return min(l.Playouts, max(16, n))
}

// deadline returns when thinking that starts now must stop, or the zero
// time for no limit.
func (l Level) deadline() time.Time {
	if l.Time <= 0 {
		return time.Time{}
	}
	return time.Now().Add(l.Time)
}

// pastDeadline reports whether the deadline d (zero: none) has passed.
func pastDeadline(d time.Time) bool { return !d.IsZero() && time.Now().After(d) }
