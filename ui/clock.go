package ui

import (
	"fmt"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
	"github.com/kakure/kakure/protocol"
)

// clockWarning is when a running clock shows its warning and rings the
// bell once: the last 10 s of the main time or of a byo-yomi period or
// Canadian block (CLK-D12).
const clockWarning = 10 * time.Second

// FormatClock writes a duration as a game clock does: "4:32", "1:02:03",
// rounded up to the second so that a clock showing 0:00 has run out.
func FormatClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64((d + time.Second - 1) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// playerClock returns what a player's clock shows at now: the time left in
// the main time or, in overtime, in the period or block, and what is left
// of the overtime ("3×30s", "5 stones"); warn is true in the last 10 s of
// a running clock.
func playerClock(c protocol.ClockView, r protocol.Role, now time.Time) (left time.Duration, overtime string, warn bool) {
	st := c.Clocks[r]
	ctl := c.Control
	elapsed := time.Duration(0)
	running := !c.Stopped && c.Runs[r] && !c.Since.IsZero()
	if running {
		elapsed = now.Sub(c.Since)
	}
	elapsed += c.Used[r] // Phantom Go: the move's illegal tries (CLK-D16)
	if st.Flagged {
		return 0, "flag fell", false
	}
	left = st.Main - elapsed
	switch ctl.Kind {
	case clock.Japanese:
		periods := st.Periods
		if left <= 0 {
			// In the periods: each one used up is lost.
			over, used := -left, 0
			if over > 0 {
				used = int((over - 1) / ctl.Period)
			}
			periods -= used
			left = ctl.Period*time.Duration(used+1) - over
		}
		if st.Main-elapsed <= 0 {
			overtime = fmt.Sprintf("%d×%s left", max(periods, 0), durationWords(ctl.Period))
		} else {
			overtime = fmt.Sprintf("+ %d×%s", periods, durationWords(ctl.Period))
		}
	case clock.Canadian:
		switch {
		case st.Overtime:
			left = st.Block - elapsed
			overtime = fmt.Sprintf("%d stones", st.Stones)
		case left <= 0:
			left = ctl.Period + left
			overtime = fmt.Sprintf("%d stones", ctl.Stones)
		default:
			overtime = fmt.Sprintf("+ %d/%s", ctl.Stones, durationWords(ctl.Period))
		}
	case clock.Fischer:
		overtime = "+" + durationWords(ctl.Increment) + " a move"
	}
	return max(left, 0), overtime, running && left <= clockWarning
}

// durationWords writes a setting's duration ("30s", "5m").
func durationWords(d time.Duration) string {
	return clock.Control{Kind: clock.Absolute, Main: d}.String()
}

// ClockLines returns the side panel's lines of a game's clocks at now
// (CLK-D12): one a player, its time left, its overtime, ◀ on the running
// clock and ⚠ in its last 10 s; none for a game without a clock.
func ClockLines(m *GameModel, now time.Time) []string {
	c := m.View.Clock
	if c == nil {
		return nil
	}
	lines := []string{"Clock: " + c.Control.Describe()}
	switch {
	case c.Adjourned:
		lines[0] += " · adjourned, the clocks stopped"
	case c.AdjournAsked:
		lines[0] += " · " + m.RoleName(c.AdjournBy) + " asks to adjourn"
		if c.AdjournBy != m.View.Role {
			lines[0] += " (^O agrees)"
		}
	}
	for _, col := range []engine.Color{engine.Black, engine.White} {
		r := m.colorRole(col)
		left, over, warn := playerClock(*c, r, now)
		line := fmt.Sprintf("%s %-5s %s", stoneGlyph(col), Name(col), FormatClock(left))
		if over != "" {
			line += " " + over
		}
		if !c.Stopped && c.Runs[r] {
			line += " ◀"
		}
		if warn {
			line += " ⚠"
		}
		lines = append(lines, line)
	}
	return lines
}

// colorRole returns the role that plays c.
func (m *GameModel) colorRole(c engine.Color) protocol.Role {
	if m.View.Color == c {
		return m.View.Role
	}
	return m.View.Role.Other()
}

// clockWarnsMe reports whether the local player's running clock is in
// its last 10 s at now (the bell rings once as it enters them).
func clockWarnsMe(m *GameModel, now time.Time) bool {
	c := m.View.Clock
	if c == nil || m.Over() {
		return false
	}
	_, _, warn := playerClock(*c, m.View.Role, now)
	return warn
}
