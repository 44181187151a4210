// Package tournament turns signed entries, a signed announcement and the
// signed records of games into pairings and a standings table that anyone
// holding the same files computes byte for byte (docs/tournaments.md,
// TRN-D1..), and the records of match series into their scores
// (docs/series.md, SER-D9). It is pure and deterministic: no network, no disk, no clock;
// the caller reads the files and writes the output.
package tournament

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

// The formats of the two signed documents (TRN-D1, TRN-D2).
const (
	EntryFormat        = "kakure-tournament-entry/1"
	AnnouncementFormat = "kakure-tournament/1"
)

// The signing domains: an entry's or an announcement's signature covers
// its domain and then the exact bytes of its body, so that no other use
// of the identity key (a game's messages: "kakure/message/v1") can be
// taken for one (TRN-D1, TRN-D2).
const (
	entryDomain        = "kakure/tournament/entry/v1"
	announcementDomain = "kakure/tournament/announcement/v1"
	idDomain           = "kakure/tournament/id/v1"
	seedDomain         = "kakure/tournament/seed/v1"
)

// The pairing systems (TRN-D4, TRN-D5).
const (
	SystemRoundRobin = "round-robin"
	SystemSwiss      = "swiss"
)

// Caps on what an announcement may hold.
const (
	// MaxParticipants caps the entries of one announcement.
	MaxParticipants = 1000
	// MaxTextLength caps a call, a tournament's name and a display name,
	// in bytes.
	MaxTextLength = protocol.MaxNameLength
)

// ErrBadDocument reports an entry or an announcement that cannot be read
// or whose signature does not verify.
var ErrBadDocument = errors.New("tournament: bad document")

// Entry is the body of a participant's signed entry (TRN-D1): "I, Peer,
// enter the tournament called Call, under the display name Name".
type Entry struct {
	Format string `json:"format"`
	Call   string `json:"call"`
	Peer   string `json:"peer"`
	Name   string `json:"name,omitempty"`
}

// SignedEntry is an entry as its participant signed it: the exact bytes
// of the body and the signature by the peer's identity key.
type SignedEntry struct {
	Entry     json.RawMessage `json:"entry"`
	Signature []byte          `json:"signature"`
}

// Announcement is the body of an organizer's signed announcement
// (TRN-D2).
type Announcement struct {
	Format string `json:"format"`
	// Call is the call for entries every entry names; Name the
	// tournament's display name.
	Call      string `json:"call"`
	Name      string `json:"name,omitempty"`
	Organizer string `json:"organizer"`
	// Options are the variant and options of every game, the clock
	// included (Time, LagMS); no colour and no handicap: the pairings
	// give the colours (TRN-D6).
	Options protocol.OptionsBody `json:"options"`
	System  string               `json:"system"`
	Rounds  int                  `json:"rounds"`
	Entries []SignedEntry        `json:"entries"`
}

// SignedAnnouncement is an announcement as its organizer signed it.
type SignedAnnouncement struct {
	Announcement json.RawMessage `json:"announcement"`
	Signature    []byte          `json:"signature"`
}

// checkText checks a call, a name: UTF-8 of at most MaxTextLength bytes
// without control characters.
func checkText(what, s string) error {
	if len(s) > MaxTextLength {
		return fmt.Errorf("%s of %d bytes (cap %d)", what, len(s), MaxTextLength)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not UTF-8", what)
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("%s holds a control character", what)
		}
	}
	return nil
}

// decodeExact reads raw into v strictly and checks that raw is exactly
// what encoding/json writes of v: one signed document has one meaning
// (no unknown or repeated keys, no other spelling of the same values).
func decodeExact(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	again, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if !bytes.Equal(again, raw) {
		return errors.New("not in the one canonical form (compact, as encoding/json writes it, keys in order)")
	}
	return nil
}

// signingBytes is the domain, its length first, then the body.
func signingBytes(domain string, body []byte) []byte {
	var b bytes.Buffer
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(domain)))
	b.Write(n[:])
	b.WriteString(domain)
	b.Write(body)
	return b.Bytes()
}

// verifyBy checks sig over body under domain with the key in the peer ID
// who (an Ed25519 peer ID holds its public key, as for game messages).
func verifyBy(who string, domain string, body, sig []byte) error {
	id, err := peer.Decode(who)
	if err != nil {
		return fmt.Errorf("%q is not a peer ID: %v", who, err)
	}
	pub, err := id.ExtractPublicKey()
	if err != nil {
		return fmt.Errorf("no public key in peer ID %s: %v", id, err)
	}
	ok, err := pub.Verify(signingBytes(domain, body), sig)
	if err != nil || !ok {
		return fmt.Errorf("the signature is not %s's", id)
	}
	return nil
}

// SignEntry writes and signs the entry of the holder of key into the
// tournament called call, under the display name name.
func SignEntry(key crypto.PrivKey, call, name string) (SignedEntry, error) {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return SignedEntry{}, fmt.Errorf("tournament: entry: %w", err)
	}
	e := Entry{Format: EntryFormat, Call: call, Peer: id.String(), Name: name}
	if err := e.check(); err != nil {
		return SignedEntry{}, fmt.Errorf("%w: entry: %v", ErrBadDocument, err)
	}
	raw, err := json.Marshal(e)
	if err != nil {
		return SignedEntry{}, fmt.Errorf("tournament: entry: %w", err)
	}
	sig, err := key.Sign(signingBytes(entryDomain, raw))
	if err != nil {
		return SignedEntry{}, fmt.Errorf("tournament: sign the entry: %w", err)
	}
	return SignedEntry{Entry: raw, Signature: sig}, nil
}

func (e Entry) check() error {
	if e.Format != EntryFormat {
		return fmt.Errorf("format %q, want %q", e.Format, EntryFormat)
	}
	if e.Call == "" {
		return errors.New("no call")
	}
	if err := checkText("call", e.Call); err != nil {
		return err
	}
	return checkText("display name", e.Name)
}

// Verify reads the entry and checks its signature by the peer it names
// (TRN-D1).
func (s SignedEntry) Verify() (Entry, error) {
	var e Entry
	if err := decodeExact(s.Entry, &e); err != nil {
		return e, fmt.Errorf("%w: entry: %v", ErrBadDocument, err)
	}
	if err := e.check(); err != nil {
		return e, fmt.Errorf("%w: entry: %v", ErrBadDocument, err)
	}
	if err := verifyBy(e.Peer, entryDomain, s.Entry, s.Signature); err != nil {
		return e, fmt.Errorf("%w: entry: %v", ErrBadDocument, err)
	}
	return e, nil
}

// ParseEntry reads an entry file and verifies it.
func ParseEntry(data []byte) (SignedEntry, Entry, error) {
	var s SignedEntry
	if err := decodeExact(bytes.TrimSpace(data), &s); err != nil {
		return s, Entry{}, fmt.Errorf("%w: entry file: %v", ErrBadDocument, err)
	}
	e, err := s.Verify()
	return s, e, err
}

// Participant is one player of a tournament, as the announcement lists
// it.
type Participant struct {
	// Peer is the peer ID the entry names (as written, when it is not
	// one).
	Peer string
	// Name is the display name of the entry: untrusted text.
	Name string
	// Seed orders the participants (TRN-D3): the digest of the
	// tournament's ID and the peer ID.
	Seed [32]byte
	// Unentered, when not empty, says why the announcement holds no
	// valid signed entry of this participant (TRN-D2): none of its
	// games counts.
	Unentered string
}

// Tournament is a verified announcement: its ID and its participants in
// seed order.
type Tournament struct {
	// ID is the tournament's ID, the digest of the announcement's signed
	// bytes in lowercase hex (TRN-D2).
	ID   string
	Body Announcement
	// Signed is the announcement as signed, to write it out again.
	Signed SignedAnnouncement
	// Participants are in seed order (TRN-D3).
	Participants []Participant
	// GameOptions are the options of every game of the tournament: the
	// announced ones with the black player inviting (TRN-D6).
	GameOptions engine.Options
	index       map[string]int
}

// Announce writes and signs an announcement of key's holder from the
// entries given (each verified first; an entry of another call, or a
// second one of the same peer, is refused).
func Announce(key crypto.PrivKey, a Announcement) (SignedAnnouncement, error) {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return SignedAnnouncement{}, fmt.Errorf("tournament: announcement: %w", err)
	}
	a.Format, a.Organizer = AnnouncementFormat, id.String()
	if a.Entries == nil {
		a.Entries = []SignedEntry{}
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return SignedAnnouncement{}, fmt.Errorf("tournament: announcement: %w", err)
	}
	sig, err := key.Sign(signingBytes(announcementDomain, raw))
	if err != nil {
		return SignedAnnouncement{}, fmt.Errorf("tournament: sign the announcement: %w", err)
	}
	s := SignedAnnouncement{Announcement: raw, Signature: sig}
	t, err := s.Open()
	if err != nil {
		return s, err
	}
	if err := t.Complete(); err != nil {
		return s, err
	}
	return s, nil
}

// ParseAnnouncement reads an announcement file and opens it.
func ParseAnnouncement(data []byte) (*Tournament, error) {
	var s SignedAnnouncement
	if err := decodeExact(bytes.TrimSpace(data), &s); err != nil {
		return nil, fmt.Errorf("%w: announcement file: %v", ErrBadDocument, err)
	}
	return s.Open()
}

// Marshal writes the signed announcement as a file holds it.
func (s SignedAnnouncement) Marshal() ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	return append(b, '\n'), nil
}

// Marshal writes the signed entry as a file holds it.
func (s SignedEntry) Marshal() ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	return append(b, '\n'), nil
}

// TournamentID is the ID of the tournament whose announcement body is
// raw (TRN-D2).
func TournamentID(raw []byte) string {
	sum := sha256.Sum256(signingBytes(idDomain, raw))
	return hex.EncodeToString(sum[:])
}

// Open verifies the organizer's signature and the announcement's form,
// and each entry. A bad signature of the organizer, a bad form or bad
// options is an error; an entry that does not verify, names another
// call or a peer already entered leaves its participant listed but
// Unentered, which Complete reports (TRN-D2).
func (s SignedAnnouncement) Open() (*Tournament, error) {
	var a Announcement
	if err := decodeExact(s.Announcement, &a); err != nil {
		return nil, fmt.Errorf("%w: announcement: %v", ErrBadDocument, err)
	}
	if a.Format != AnnouncementFormat {
		return nil, fmt.Errorf("%w: announcement format %q, want %q", ErrBadDocument, a.Format, AnnouncementFormat)
	}
	if err := verifyBy(a.Organizer, announcementDomain, s.Announcement, s.Signature); err != nil {
		return nil, fmt.Errorf("%w: announcement: %v", ErrBadDocument, err)
	}
	for _, text := range [][2]string{{"call", a.Call}, {"tournament name", a.Name}} {
		if err := checkText(text[0], text[1]); err != nil {
			return nil, fmt.Errorf("%w: announcement: %v", ErrBadDocument, err)
		}
	}
	if a.Call == "" {
		return nil, fmt.Errorf("%w: announcement without a call", ErrBadDocument)
	}
	if a.Options.InviterColor != "" || a.Options.Handicap != 0 {
		return nil, fmt.Errorf("%w: announcement options name a colour or a handicap: the pairings give the colours (TRN-D6)", ErrBadDocument)
	}
	gameOptions := a.Options
	gameOptions.InviterColor = "black"
	o, err := gameOptions.Options()
	if err != nil {
		return nil, fmt.Errorf("%w: announcement options: %v", ErrBadDocument, err)
	}
	if protocol.OptionsToBody(o) != gameOptions {
		return nil, fmt.Errorf("%w: announcement options are not in normal form", ErrBadDocument)
	}
	n := len(a.Entries)
	if n < 2 || n > MaxParticipants {
		return nil, fmt.Errorf("%w: %d entries (2 to %d)", ErrBadDocument, n, MaxParticipants)
	}
	switch a.System {
	case SystemRoundRobin:
		if want := roundRobinRounds(n); a.Rounds != want {
			return nil, fmt.Errorf("%w: a round robin of %d players has %d rounds, not %d", ErrBadDocument, n, want, a.Rounds)
		}
	case SystemSwiss:
		if a.Rounds < 1 || a.Rounds > n-1 || a.Rounds > protocol.MaxTournamentRounds {
			return nil, fmt.Errorf("%w: a Swiss tournament of %d players has 1 to %d rounds, not %d", ErrBadDocument, n, n-1, a.Rounds)
		}
	default:
		return nil, fmt.Errorf("%w: system %q (%s or %s)", ErrBadDocument, a.System, SystemRoundRobin, SystemSwiss)
	}
	t := &Tournament{ID: TournamentID(s.Announcement), Body: a, Signed: s, GameOptions: o, index: map[string]int{}}
	idBytes, _ := hex.DecodeString(t.ID)
	for i, se := range a.Entries {
		e, err := se.Verify()
		p := Participant{Peer: e.Peer, Name: e.Name}
		switch {
		case err != nil:
			p.Unentered = err.Error()
		case e.Call != a.Call:
			p.Unentered = fmt.Sprintf("its entry is for the call %q, not %q", e.Call, a.Call)
		}
		if p.Peer == "" {
			p.Peer = fmt.Sprintf("(entry %d)", i+1)
		}
		if _, dup := t.index[p.Peer]; dup {
			return nil, fmt.Errorf("%w: announcement lists %s twice", ErrBadDocument, p.Peer)
		}
		t.index[p.Peer] = i
		p.Seed = sha256.Sum256(signingBytes(seedDomain, append(append([]byte(nil), idBytes...), p.Peer...)))
		p.Unentered = strings.TrimPrefix(p.Unentered, ErrBadDocument.Error()+": ")
		t.Participants = append(t.Participants, p)
	}
	slices.SortFunc(t.Participants, func(x, y Participant) int { return bytes.Compare(x.Seed[:], y.Seed[:]) })
	for i, p := range t.Participants {
		t.index[p.Peer] = i
	}
	return t, nil
}

// Complete returns an error naming every participant without a valid
// signed entry: the participants' own programs play no game of such an
// announcement (TRN-D2).
func (t *Tournament) Complete() error {
	var bad []string
	for _, p := range t.Participants {
		if p.Unentered != "" {
			bad = append(bad, fmt.Sprintf("%s: %s", p.Peer, p.Unentered))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: participants without a valid signed entry (TRN-D2): %s", ErrBadDocument, strings.Join(bad, "; "))
	}
	return nil
}

// Seat returns the index of peer p in the seed order, or -1.
func (t *Tournament) Seat(p string) int {
	i, ok := t.index[p]
	if !ok {
		return -1
	}
	return i
}

// roundRobinRounds is the number of rounds of a round robin of n
// players: n-1, or n with a bye a round when n is odd.
func roundRobinRounds(n int) int {
	if n%2 == 1 {
		return n
	}
	return n - 1
}
