package protocol

// Match series between two peers (docs/series.md, SER-D1..SER-D8): N
// games under one agreement that the inviter writes and the invitee
// accepts by signing the first game's invitation chain.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// The colour rules of a series (SER-D1).
const (
	// SeriesAlternate gives the inviter Black in the games of even
	// index (0, 2, …) and White in the others.
	SeriesAlternate = "alternate"
	// SeriesNigiri leaves each game's colours to its coin toss (T-4).
	SeriesNigiri = "nigiri"
)

// MaxSeriesGames caps the games of one series (SER-D1).
const MaxSeriesGames = 99

// SeriesAgreement is what the two players of a series agree on (SER-D1):
// its ID (random), the two peers, the options of every game (clock
// included, without the inviter's colour, which Colours gives each
// game), the number of games and the colour rule. Its JSON form is the
// compact one encoding/json writes, fields in this order; Digest is the
// SHA-256 of that form.
type SeriesAgreement struct {
	ID      string      `json:"id"`
	Inviter string      `json:"inviter"`
	Invitee string      `json:"invitee"`
	Options OptionsBody `json:"options"`
	Games   int         `json:"games"`
	Colours string      `json:"colours"`
}

// SeriesBody is the series part of an invitation (SER-D2): the whole
// agreement and the index of this game in it, 0 for the first.
type SeriesBody struct {
	Agreement SeriesAgreement `json:"agreement"`
	Index     int             `json:"index"`
}

// Digest is the SHA-256 of the agreement's JSON form, in hex: what
// identifies the exact agreement a series ID stands for (SER-D1).
func (a SeriesAgreement) Digest() string {
	data, err := json.Marshal(a)
	if err != nil { // a struct of strings and numbers
		panic(err)
	}
	d := sha256.Sum256(data)
	return hex.EncodeToString(d[:])
}

// GameOptions returns the options of game index of the series: the
// agreement's, with the inviter's colour that the colour rule gives it
// (SER-D1).
func (a SeriesAgreement) GameOptions(index int) OptionsBody {
	b := a.Options
	if a.Colours == SeriesAlternate {
		b.InviterColor = "black"
		if index%2 == 1 {
			b.InviterColor = "white"
		}
	}
	return b
}

// Check checks that the agreement is well formed (SER-D1): an ID of 32
// lowercase hex digits, two distinct peer IDs, 1 to MaxSeriesGames
// games, a known colour rule, options without the inviter's colour and
// whose games the options' own checks accept with each colour the rule
// gives.
func (a SeriesAgreement) Check() error {
	if len(a.ID) != 32 || a.ID != hexLower(a.ID) {
		return fmt.Errorf("protocol: series ID %q is not 32 lowercase hex digits", a.ID)
	}
	in, err := ParsePeerID(a.Inviter)
	if err != nil {
		return fmt.Errorf("protocol: series inviter: %w", err)
	}
	out, err := ParsePeerID(a.Invitee)
	if err != nil {
		return fmt.Errorf("protocol: series invitee: %w", err)
	}
	if in == out {
		return errors.New("protocol: series between a peer and itself")
	}
	if a.Games < 1 || a.Games > MaxSeriesGames {
		return fmt.Errorf("protocol: series of %d games (1 to %d)", a.Games, MaxSeriesGames)
	}
	if a.Colours != SeriesAlternate && a.Colours != SeriesNigiri {
		return fmt.Errorf("protocol: series colour rule %q (%s or %s)", a.Colours, SeriesAlternate, SeriesNigiri)
	}
	if a.Options.InviterColor != "" {
		return errors.New("protocol: series options choose the inviter's colour: the colour rule does")
	}
	for i := range min(a.Games, 2) {
		if _, err := a.GameOptions(i).Options(); err != nil {
			return fmt.Errorf("protocol: series game %d: %w", i+1, err)
		}
	}
	return nil
}

// hexLower returns s if it is lowercase hex, else "".
func hexLower(s string) string {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return ""
		}
	}
	return s
}

// CheckInvite checks the series part of invitation inv (SER-D2): a well
// formed agreement between the invitation's two peers, an index within
// it, and the invitation's options those the agreement gives the game of
// that index (colour included).
func (s SeriesBody) CheckInvite(inv InviteBody) error {
	a := s.Agreement
	if err := a.Check(); err != nil {
		return err
	}
	if a.Inviter != inv.Inviter || a.Invitee != inv.Invitee {
		return errors.New("protocol: the series agreement names other peers than the invitation")
	}
	if s.Index < 0 || s.Index >= a.Games {
		return fmt.Errorf("protocol: series game index %d of a series of %d games", s.Index, a.Games)
	}
	if want := a.GameOptions(s.Index); inv.Options != want {
		return fmt.Errorf("protocol: the invitation's options are not those the series agreement gives game %d of %d (%s)", s.Index+1, a.Games, describeOptionsDiff(inv.Options, want))
	}
	return nil
}

// describeOptionsDiff names the first option where got and want differ.
func describeOptionsDiff(got, want OptionsBody) string {
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return fmt.Sprintf("invitation %s, agreement %s", g, w)
}
