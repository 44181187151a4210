package phantom

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kakure/kakure/engine"
)

// Event is the kind of a Phantom Go announcement. The zero value is
// no event and is never announced.
type Event uint8

// The announced events.
const (
	// Moved: a stone was played (PG-3).
	Moved Event = iota + 1
	// Illegal: an illegal try; the same player tries again (PG-2).
	Illegal
	// Passed: the player passed (PG-1).
	Passed
)

// String returns the word of the key=value form: "moved", "illegal" or
// "pass".
func (e Event) String() string {
	switch e {
	case Moved:
		return "moved"
	case Illegal:
		return "illegal"
	case Passed:
		return "pass"
	}
	return fmt.Sprintf("PhantomEvent(%d)", uint8(e))
}

// ErrBadAnnouncement reports a Phantom Go announcement that is malformed or
// that says what its rule set does not let its recipient know.
var ErrBadAnnouncement = errors.New("engine: bad phantom announcement")

// Announcement is exactly what one player, To, learns about one try
// by Mover under a rule set (PG-6..PG-8, PG-D1). Fields To is not told hold
// their zero or "unknown" values: Point is NoPoint, Reason is TryNoReason,
// Captured is nil, the atari facts are false.
type Announcement struct {
	Rules engine.PhantomRules
	// Size is the board side, needed to write points.
	Size  int
	Mover engine.Color
	To    engine.Color
	Event Event
	// Point is the point tried, known only to the mover (PG-2, PG-D1);
	// NoPoint for the opponent and for a pass.
	Point engine.Point
	// Reason of an illegal try: told to the mover in every rule set and to
	// the opponent under hamburg only (PG-D1).
	Reason TryReason
	// Captures is the number of stones a move captured; every rule set
	// tells it to both players (a list tells its length).
	Captures int
	// Captured lists the captured points in increasing order when To learns
	// which they were ([Announcement.CapturedPointsKnown]); nil
	// otherwise.
	Captured []engine.Point
	// AtariOpponent and AtariSelf are the PG-5 facts, told under common and
	// hamburg ([Announcement.TellsAtari]); false otherwise.
	AtariOpponent bool
	AtariSelf     bool
}

// Announce returns what player to learns of the outcome o of a try
// under rules on a board of side size:
//
//   - common (PG-6): both players get the event, the exact list of captured
//     points and the atari facts; the opponent is not told why a try was
//     illegal.
//   - hamburg (PG-7): both players get the event, the reason of an illegal
//     try, the number of captured stones (never which) and the atari facts.
//   - kriegspiel (PG-8): both players get the event; the owner of captured
//     stones learns which they were, the capturer only how many; no atari
//     facts.
//
// In every rule set the mover knows its own point and the reason of its
// illegal tries, and the opponent never learns the point (PG-2, PG-D1).
func Announce(rules engine.PhantomRules, size int, o TryOutcome, to engine.Color) Announcement {
	a := Announcement{Rules: rules, Size: size, Mover: o.Mover, To: to, Point: engine.NoPoint}
	mine := to == o.Mover
	switch {
	case o.Pass:
		a.Event = Passed
	case !o.Legal:
		a.Event = Illegal
		if mine {
			a.Point = o.Point
		}
		if mine || rules == engine.RulesHamburg {
			a.Reason = o.Reason
		}
	default:
		a.Event = Moved
		if mine {
			a.Point = o.Point
		}
		a.Captures = len(o.Captured)
		if a.Captures > 0 && a.CapturedPointsKnown() {
			a.Captured = slices.Clone(o.Captured)
		}
		if a.TellsAtari() {
			a.AtariOpponent, a.AtariSelf = o.AtariOpponent, o.AtariSelf
		}
	}
	return a
}

// CapturedPointsKnown reports whether the rule set tells To which stones a
// move captured: always under common, never under hamburg, and under
// kriegspiel to the owner of the captured stones only.
func (a Announcement) CapturedPointsKnown() bool {
	switch a.Rules {
	case engine.RulesCommon:
		return true
	case engine.RulesKriegspiel:
		return a.To != a.Mover
	}
	return false
}

// TellsAtari reports whether the announcement carries the PG-5 atari facts:
// for a move, under common and hamburg.
func (a Announcement) TellsAtari() bool {
	return a.Event == Moved && (a.Rules == engine.RulesCommon || a.Rules == engine.RulesHamburg)
}

// reasonWords are the hamburg words of PG-7 for each reason.
var reasonWords = [...]string{
	TryNoReason:         "",
	TryOccupiedOwn:      "already your own stone",
	TryOccupiedOpponent: "already an opponent's stone",
	TrySuicide:          "suicide",
	TryKo:               "ko",
}

// reasonWords are the words of an illegal try's reason as To reads them:
// PG-7's "your own" and "an opponent's" speak to the mover, so the other
// player reads the stone's colour instead (PG-D7).
func (a Announcement) reasonWords() string {
	if a.To != a.Mover {
		switch a.Reason {
		case TryOccupiedOwn:
			return "already a " + colorName(a.Mover) + " stone"
		case TryOccupiedOpponent:
			return "already a " + colorName(a.Mover.Opponent()) + " stone"
		}
	}
	return reasonWords[a.Reason]
}

func colorName(c engine.Color) string {
	switch c {
	case engine.Black:
		return "Black"
	case engine.White:
		return "White"
	}
	return c.String()
}

// String writes the announcement in the rule set's words, one line, as the
// UI shows it. Sentences are joined with "; ". What only the mover knows is
// added in parentheses after the referee's words. Examples:
//
//	Black has moved
//	Black has moved (D4); Black has captured C3,D4; Black puts White into atari and himself
//	Black has moved; Black captures 2 stones; Black puts himself into atari
//	Illegal move
//	Illegal move (D4): already an opponent's stone
//	Illegal move: ko
//	White passes
func (a Announcement) String() string {
	mover := colorName(a.Mover)
	switch a.Event {
	case Passed:
		return mover + " passes"
	case Illegal:
		s := "Illegal move"
		if a.Point != engine.NoPoint {
			s += " (" + a.Point.Vertex(a.Size) + ")"
		}
		if a.Reason != TryNoReason && int(a.Reason) < len(reasonWords) {
			s += ": " + a.reasonWords()
		}
		return s
	case Moved:
		var sb strings.Builder
		sb.WriteString(mover + " has moved")
		if a.Point != engine.NoPoint {
			sb.WriteString(" (" + a.Point.Vertex(a.Size) + ")")
		}
		if a.Captures > 0 {
			if a.Captured != nil {
				sb.WriteString("; " + mover + " has captured " + engine.FormatVertices(a.Size, a.Captured))
			} else if a.Captures == 1 {
				sb.WriteString("; " + mover + " captures 1 stone")
			} else {
				sb.WriteString("; " + mover + " captures " + strconv.Itoa(a.Captures) + " stones")
			}
		}
		switch {
		case a.AtariOpponent && a.AtariSelf:
			sb.WriteString("; " + mover + " puts " + colorName(a.Mover.Opponent()) + " into atari and himself")
		case a.AtariOpponent:
			sb.WriteString("; " + mover + " puts " + colorName(a.Mover.Opponent()) + " into atari")
		case a.AtariSelf:
			sb.WriteString("; " + mover + " puts himself into atari")
		}
		return sb.String()
	}
	return "no announcement"
}

// KeyValues writes the announcement as one line of space-separated
// key=value fields, the form of GTP kakure-announce and of logs. Fields
// appear in this order, each only when To knows it:
//
//	event=moved|illegal|pass  always
//	mover=black|white         always
//	point=D4                  the tried point, to the mover only
//	reason=ko                 an illegal try's reason (TryReason words)
//	capture-count=2           a move: the number of stones captured
//	captured=C3,D4            a move: the captured points ("-" for none),
//	                          when To learns which
//	atari-opponent=0|1        a move under common or hamburg
//	atari-self=0|1            a move under common or hamburg
//
// For example "event=moved mover=black capture-count=1 captured=C3
// atari-opponent=1 atari-self=0". [ParseAnnouncement] reads it back.
func (a Announcement) KeyValues() string {
	var sb strings.Builder
	sb.WriteString("event=" + a.Event.String())
	sb.WriteString(" mover=" + a.Mover.String())
	if a.Point != engine.NoPoint {
		sb.WriteString(" point=" + a.Point.Vertex(a.Size))
	}
	if a.Reason != TryNoReason {
		sb.WriteString(" reason=" + a.Reason.String())
	}
	if a.Event == Moved {
		sb.WriteString(" capture-count=" + strconv.Itoa(a.Captures))
		if a.CapturedPointsKnown() {
			sb.WriteString(" captured=" + engine.FormatVertices(a.Size, a.Captured))
		}
		if a.TellsAtari() {
			sb.WriteString(" atari-opponent=" + bit(a.AtariOpponent))
			sb.WriteString(" atari-self=" + bit(a.AtariSelf))
		}
	}
	return sb.String()
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// ParseAnnouncement reads the key=value form written by
// [Announcement.KeyValues], for player to under rules on a board of
// side size. Unknown, repeated or missing fields, and fields the rule set
// does not let to know, are errors wrapping ErrBadAnnouncement.
func ParseAnnouncement(rules engine.PhantomRules, size int, to engine.Color, s string) (Announcement, error) {
	a := Announcement{Rules: rules, Size: size, To: to, Point: engine.NoPoint}
	bad := func(format string, args ...any) (Announcement, error) {
		return Announcement{}, fmt.Errorf("%w: %q: %s", ErrBadAnnouncement, s, fmt.Sprintf(format, args...))
	}
	seen := map[string]bool{}
	var hasCount, hasList, hasAtariOpp, hasAtariSelf bool
	for _, field := range strings.Fields(s) {
		key, value, ok := strings.Cut(field, "=")
		if !ok {
			return bad("field %q is not key=value", field)
		}
		if seen[key] {
			return bad("field %q repeated", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "event":
			switch value {
			case "moved":
				a.Event = Moved
			case "illegal":
				a.Event = Illegal
			case "pass":
				a.Event = Passed
			default:
				return bad("unknown event %q", value)
			}
		case "mover":
			if value != "black" && value != "white" {
				return bad("mover %q", value)
			}
			a.Mover, _ = engine.ParseColor(value)
		case "point":
			if a.Point, err = engine.ParseVertex(size, value); err != nil || a.Point == engine.Pass {
				return bad("point %q", value)
			}
		case "reason":
			if a.Reason, err = ParseTryReason(value); err != nil || a.Reason == TryNoReason {
				return bad("reason %q", value)
			}
		case "capture-count":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || n > size*size || strconv.Itoa(n) != value {
				return bad("capture count %q", value)
			}
			a.Captures, hasCount = n, true
		case "captured":
			hasList = true
			if value == "-" {
				break
			}
			for _, v := range strings.Split(value, ",") {
				p, err := engine.ParseVertex(size, v)
				if err != nil || p == engine.Pass {
					return bad("captured point %q", v)
				}
				a.Captured = append(a.Captured, p)
			}
		case "atari-opponent", "atari-self":
			if value != "0" && value != "1" {
				return bad("%s=%q is not 0 or 1", key, value)
			}
			if key == "atari-opponent" {
				a.AtariOpponent, hasAtariOpp = value == "1", true
			} else {
				a.AtariSelf, hasAtariSelf = value == "1", true
			}
		default:
			return bad("unknown field %q", key)
		}
	}
	if a.Event == 0 || a.Mover == engine.Empty {
		return bad("event and mover are required")
	}
	moved := a.Event == Moved
	if hasCount != moved || hasList != (moved && a.CapturedPointsKnown()) {
		return bad("capture fields do not fit a %s announcement under %s", a.Event, rules)
	}
	if hasAtariOpp != a.TellsAtari() || hasAtariSelf != a.TellsAtari() {
		return bad("atari fields do not fit a %s announcement under %s", a.Event, rules)
	}
	if err := a.Validate(); err != nil {
		return Announcement{}, err
	}
	return a, nil
}

// Validate returns nil if the announcement is well formed and says no more
// than its rule set lets To know (PG-6..PG-8, PG-D1), or an error wrapping
// ErrBadAnnouncement that says what is wrong. It checks the form, not the
// truth: whether it fits what To already knows is [View.Apply]'s
// business.
func (a Announcement) Validate() error {
	bad := func(what string) error { return fmt.Errorf("%w: %s", ErrBadAnnouncement, what) }
	switch a.Rules {
	case engine.RulesCommon, engine.RulesHamburg, engine.RulesKriegspiel:
	default:
		return bad(fmt.Sprintf("unknown rule set %q", a.Rules))
	}
	if a.Size < engine.MinSize || a.Size > engine.MaxSize {
		return bad(fmt.Sprintf("board size %d", a.Size))
	}
	if (a.Mover != engine.Black && a.Mover != engine.White) || (a.To != engine.Black && a.To != engine.White) {
		return bad("mover and recipient must be black or white")
	}
	mine := a.To == a.Mover
	onBoard := a.Point >= 0 && int(a.Point) < a.Size*a.Size
	if a.Event != Moved && (a.Captures != 0 || a.Captured != nil || a.AtariOpponent || a.AtariSelf) {
		return bad("captures or atari facts on an event that is not a move")
	}
	switch a.Event {
	case Passed:
		if a.Point != engine.NoPoint || a.Reason != TryNoReason {
			return bad("a pass has no point and no reason")
		}
	case Illegal:
		if mine != onBoard || (!mine && a.Point != engine.NoPoint) {
			return bad("the tried point is told to the mover and only to the mover")
		}
		if tellsReason := mine || a.Rules == engine.RulesHamburg; tellsReason != (a.Reason != TryNoReason) || a.Reason > TryKo {
			return bad("the reason of an illegal try is told to the mover, and to the opponent under hamburg only")
		}
	case Moved:
		if mine != onBoard || (!mine && a.Point != engine.NoPoint) {
			return bad("the point of a move is known to the mover and only to the mover")
		}
		if a.Reason != TryNoReason {
			return bad("a move has no reason")
		}
		if a.Captures < 0 || a.Captures >= a.Size*a.Size {
			return bad("capture count out of range")
		}
		if a.CapturedPointsKnown() {
			if len(a.Captured) != a.Captures {
				return bad("the captured list does not match the count")
			}
			for i, p := range a.Captured {
				if p < 0 || int(p) >= a.Size*a.Size || (i > 0 && a.Captured[i-1] >= p) || p == a.Point {
					return bad("captured points must be distinct points of the board, in increasing order")
				}
			}
		} else if a.Captured != nil {
			return bad(fmt.Sprintf("under %s the %s is not told which stones were captured", a.Rules, recipientRole(a)))
		}
		if !a.TellsAtari() && (a.AtariOpponent || a.AtariSelf) {
			return bad("atari facts are not announced under kriegspiel")
		}
	default:
		return bad(fmt.Sprintf("unknown event %d", a.Event))
	}
	return nil
}

func recipientRole(a Announcement) string {
	if a.To == a.Mover {
		return "capturer"
	}
	return "owner"
}
