package protocol

// The bodies of the messages every variant shares, and their limits.
// Moved from machine.go unchanged (issue 19).

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/clock"
)

// OptionsBody is the wire form of engine.Options.
type OptionsBody struct {
	Variant string  `json:"variant"`
	Size    int     `json:"size"`
	Komi    float64 `json:"komi"`
	// Own are the variants' own options (engine.VariantOption: rules,
	// cards, suicide, perpendicular) that the options set, made from
	// their descriptions (options_wire.go): on the wire each is a field
	// named by its key after komi ("rules":"hamburg", "cards":2,
	// "perpendicular":true), absent when not set. In Go they are one
	// string of key=value lines, so that bodies compare with ==.
	Own string `json:"-"`
	// InviterColor is the inviter's colour, "black" or "white", or absent
	// for nigiri (HC-D2); Handicap is plain Go's handicap (HC-D1).
	InviterColor string `json:"inviter_color,omitempty"`
	Handicap     int    `json:"handicap,omitempty"`
	// Time is the time control in the canonical --time syntax (CLK-D2),
	// absent for none; LagMS the lag allowance a move in milliseconds
	// (CLK-D7), present exactly when Time is.
	Time  string `json:"time,omitempty"`
	LagMS int64  `json:"lag_ms,omitempty"`
	// Lambda is Phantom Go's garblings per try (T-8(b)), absent for one
	// (older invitations: tries not checked).
	Lambda int `json:"lambda,omitempty"`
	// Garbling is Phantom Go's garbling scheme (MPC-D26), absent for
	// half-gates (older invitations).
	Garbling string `json:"garbling,omitempty"`
	// InputOT is the form of Phantom Go's input OTs in a checked game
	// (MPC-D28), absent for the game's one OT extension (MPC-D18; older
	// invitations).
	InputOT string `json:"input_ot,omitempty"`
}

// OptionsToBody writes normalized options in wire form.
func OptionsToBody(o engine.Options) OptionsBody {
	b := OptionsBody{Variant: string(o.Variant), Size: o.Size, Komi: o.Komi, Own: ownOptions(o)}
	b.Handicap, b.Lambda, b.Garbling, b.InputOT = o.Handicap, o.Lambda, o.Garbling, o.InputOT
	if o.InviterColor != engine.Empty {
		b.InviterColor = o.InviterColor.String()
	}
	if !o.Time.IsNone() {
		b.Time, b.LagMS = o.Time.String(), o.Lag.Milliseconds()
	}
	return b
}

// Options reads the wire form back and checks it.
func (b OptionsBody) Options() (engine.Options, error) {
	o := engine.Options{Variant: engine.Variant(b.Variant), Size: b.Size, Komi: b.Komi, KomiSet: true}
	if err := b.readOwnOptions(&o); err != nil {
		return o, err
	}
	o.Handicap, o.Lambda, o.Garbling, o.InputOT = b.Handicap, b.Lambda, b.Garbling, b.InputOT
	if b.Lambda == 1 {
		// One signed invitation has one meaning: one garbling is absent.
		return o, fmt.Errorf("%w: λ = 1 is written by leaving it out", engine.ErrBadOptions)
	}
	if b.Garbling == engine.GarblingHalfGates {
		// Likewise: half-gates is written by leaving it out.
		return o, fmt.Errorf("%w: garbling %s is written by leaving it out", engine.ErrBadOptions, b.Garbling)
	}
	if b.InputOT == engine.InputOTExtension {
		// Likewise: the game's one OT extension is written by leaving it out.
		return o, fmt.Errorf("%w: input OTs %s is written by leaving it out", engine.ErrBadOptions, b.InputOT)
	}
	switch b.InviterColor {
	case "":
	case "black":
		o.InviterColor = engine.Black
	case "white":
		o.InviterColor = engine.White
	default:
		return o, fmt.Errorf("%w: inviter colour %q (black, white or absent for nigiri)", engine.ErrBadOptions, b.InviterColor)
	}
	if b.Time != "" || b.LagMS != 0 {
		// One signed invitation has one meaning: the control in its
		// canonical form, with its lag allowance (CLK-D8).
		c, err := clock.Parse(b.Time)
		if err != nil {
			return o, fmt.Errorf("%w: %v", engine.ErrBadOptions, err)
		}
		if c.IsNone() || c.String() != b.Time || b.LagMS <= 0 {
			return o, fmt.Errorf("%w: time control %q with lag %d ms is not in canonical form", engine.ErrBadOptions, b.Time, b.LagMS)
		}
		o.Time, o.Lag = c, time.Duration(b.LagMS)*time.Millisecond
	}
	return o.Normalize()
}

// InviteBody opens a game: the inviter proposes a variant to the invitee.
type InviteBody struct {
	Version string      `json:"version"`
	Inviter string      `json:"inviter"`
	Invitee string      `json:"invitee"`
	Options OptionsBody `json:"options"`
	// InviterName is the inviter's display name (UI-D30): untrusted text
	// of at most MaxNameLength bytes of UTF-8, shown only beside the
	// inviter's peer ID.
	InviterName string `json:"inviter_name,omitempty"`
	// Tournament names the tournament game this invitation opens (the
	// tournament's ID, the round and the board, docs/tournaments.md
	// TRN-D6), absent for a game of no tournament. The invitee's
	// acceptance signs it too: the record proves which game of which
	// tournament both players agreed to play.
	Tournament *TournamentRef `json:"tournament,omitempty"`
	// Series, when present, makes the game one of a match series: the
	// series agreement and the game's index in it (SER-D2 in
	// docs/series.md). Absent for a single game.
	Series *SeriesBody `json:"series,omitempty"`
	// Broadcast, when present, is the broadcast delay both players'
	// programs keep in what they publish for spectators (SPEC-D10 in
	// docs/spectators.md); absent for none, so that a record without a
	// delay is as it was before the field.
	Broadcast *BroadcastDelay `json:"broadcast,omitempty"`
}

// TournamentRef names one game of a tournament: the tournament's ID (the
// digest of its signed announcement, lowercase hex), the round and the
// board, both from 1 (docs/tournaments.md, TRN-D6).
type TournamentRef struct {
	ID    string `json:"id"`
	Round int    `json:"round"`
	Board int    `json:"board"`
}

// MaxTournamentRounds caps the round and MaxTournamentBoards the board a
// tournament reference may name.
const (
	MaxTournamentRounds = 1000
	MaxTournamentBoards = 10000
)

// Check tells whether the reference is well formed: an ID of 64
// lowercase hex digits, a round and a board from 1 to their caps.
func (r TournamentRef) Check() error {
	if len(r.ID) != 64 {
		return fmt.Errorf("tournament ID of %d characters, want 64 hex digits", len(r.ID))
	}
	for _, c := range r.ID {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return fmt.Errorf("tournament ID %q is not lowercase hex", r.ID)
		}
	}
	if r.Round < 1 || r.Round > MaxTournamentRounds {
		return fmt.Errorf("tournament round %d (1 to %d)", r.Round, MaxTournamentRounds)
	}
	if r.Board < 1 || r.Board > MaxTournamentBoards {
		return fmt.Errorf("tournament board %d (1 to %d)", r.Board, MaxTournamentBoards)
	}
	return nil
}

// String writes the reference as kakure verify prints it.
func (r TournamentRef) String() string {
	return fmt.Sprintf("tournament %s round %d board %d", r.ID, r.Round, r.Board)
}

// AcceptBody accepts an invitation. Name is the invitee's display name,
// as InviteBody.InviterName.
type AcceptBody struct {
	Name string `json:"name,omitempty"`
}

// MaxNameLength caps a display name, in bytes.
const MaxNameLength = 64

// CheckName checks a display name from the wire: valid UTF-8 of at most
// MaxNameLength bytes (what a user interface shows of it is its own
// concern: it strips control characters and markup).
func CheckName(name string) error {
	if len(name) > MaxNameLength {
		return fmt.Errorf("display name of %d bytes (cap %d)", len(name), MaxNameLength)
	}
	if !utf8.ValidString(name) {
		return errors.New("display name is not UTF-8")
	}
	return nil
}

// DeclineBody says why an invitation was declined.
type DeclineBody struct {
	Reason string `json:"reason"`
}

// CommitBody carries one commitment.
type CommitBody struct {
	Commitment commit.Commitment `json:"commitment"`
}

// OpenBody opens one commitment.
type OpenBody struct {
	Opening commit.Opening `json:"opening"`
}

// ChatBody is a chat line.
type ChatBody struct {
	Text string `json:"text"`
}

// MaxChatLength caps a chat line, in bytes.
const MaxChatLength = 2000

// MaxChatLines caps the chat lines of one player in one game: chat is the
// one message a peer may send at any time, and each line is kept in the
// record, so without a cap a peer could grow the other's record (and the
// work of saving it) without end.
const MaxChatLines = 200

// ResultBody states the result the sender computed; both peers must agree.
type ResultBody struct {
	Result string `json:"result"`
}

// ViolationBody is a peer's signed report that the other peer broke a rule.
// Evidence holds the offending frames as received (base64 in JSON).
type ViolationBody struct {
	Accused  Role     `json:"accused"`
	Rule     string   `json:"rule"`
	Detail   string   `json:"detail"`
	Evidence [][]byte `json:"evidence,omitempty"`
}
