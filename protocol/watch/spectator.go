// Package watch lets third parties watch kakure games: each player's
// program publishes the public part of its games on a GossipSub topic
// of its own, and a spectator verifies every publication before it shows
// it (docs/spec/trust.md SPEC-1..SPEC-6, docs/spectators.md).
package watch

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// Status says how far a spectator checked what a line shows (SPEC-3).
type Status int

// The statuses of a line.
const (
	// Verified: signed by its sender, in sequence, chained, and taken by
	// the rules.
	Verified Status = iota
	// Signed: signed, in sequence and chained; the rules could not be
	// run on it (a message before it was withheld).
	Signed
	// Unverified: not checked yet (a withheld message's header, an
	// announcement); the record at the end checks it.
	Unverified
	// Refused: a publication the spectator refused; the text names it
	// and why. It changed nothing the spectator shows.
	Refused
	// Verdict: the checks of the record at the end and `kakure
	// verify`'s verdict.
	Verdict
	// Notice: what the spectator was told of the watch itself, such as
	// a backlog refused (SPEC-D8); nothing of the game.
	Notice
)

// String names the status as the text output shows it.
func (s Status) String() string {
	switch s {
	case Verified:
		return "verified"
	case Signed:
		return "signed"
	case Unverified:
		return "not verified"
	case Refused:
		return "REFUSED"
	case Verdict:
		return "verdict"
	case Notice:
		return "notice"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Line is one thing a spectator shows: a public event, a refusal or a
// line of the verdict.
type Line struct {
	Status Status
	Text   string
}

// String writes the line as `kakure watch` prints it.
func (l Line) String() string { return "[" + l.Status.String() + "] " + l.Text }

// Item is one message of the game as a spectator took it: Whole when
// its body was published, otherwise only its header.
type Item struct {
	Pos   uint64
	From  protocol.Role
	Seq   uint64
	Kind  protocol.Kind
	Hash  protocol.Hash
	Whole bool
}

// maxHeld caps the publications a spectator holds that came before their
// turn (SPEC-D3).
const maxHeld = 4096

// maxRecord caps the size of a record a spectator joins (SPEC-D6).
const maxRecord = 64 << 20

// Spectator is the state of one watched game, built from publications
// only, each checked before it is taken (SPEC-3, SPEC-4). It has no
// network: Take gets each publication's author and bytes.
type Spectator struct {
	publisher peer.ID
	game      protocol.GameID

	peers     [2]protocol.PeerID
	havePeers bool
	variant   engine.Variant
	// next is the position expected next; held the publications that
	// came before it.
	// early are the publications that came, while the spectator waits
	// for the publisher's next game, before its invitation.
	early     []session.Publication
	next      uint64
	held      map[uint64][]session.Publication
	heldCount int
	// items are the messages taken, by position; count, last and hashes
	// each role's chain.
	items  []Item
	count  [2]uint64
	last   [2]protocol.Hash
	hashes [2][]protocol.Hash
	// machine replays the game's rules while every message so far was
	// published whole; nil after a withheld one.
	machine *protocol.Machine
	// announcements are Phantom Go's public announcements by try.
	announcements map[uint64]string
	parts         [][]byte
	partsCount    int
	// record is the record, once its parts came, until it is checked.
	record *protocol.Transcript
	done   bool
	ok     bool
	// fromBacklog holds the hashes of the messages and headers a
	// backlog carried (SPEC-D8).
	fromBacklog map[protocol.Hash]bool

	// delay is the invitation's broadcast delay (SPEC-D10); moves
	// counts the moves of the items taken; heads are the heads not
	// checked yet (SPEC-D11).
	delay protocol.BroadcastDelay
	moves protocol.BroadcastMoves
	heads []headCheck
	// takenHeads are the heads of the messages and headers taken, by
	// position.
	takenHeads map[uint64]*session.PublicationHead
	// announcedHeads are the heads of the announcements taken, by try.
	announcedHeads map[uint64]*session.PublicationHead
	// now is the spectator's clock (time.Now); lastLive is when the
	// latest live publication came and the head it named, for the check
	// of a delay in seconds; inBacklog is set while a backlog's
	// publication is taken (no time of its own).
	now       func() time.Time
	lastLive  time.Time
	lastHead  uint64
	haveLast  bool
	inBacklog bool
	// delayBroken: a publication broke the broadcast delay.
	delayBroken bool
}

// NewSpectator starts watching game as publisher publishes it; with the
// zero game, the next game whose invitation the publisher publishes.
func NewSpectator(publisher peer.ID, game protocol.GameID) *Spectator {
	return &Spectator{publisher: publisher, game: game, held: map[uint64][]session.Publication{},
		machine: protocol.NewMachine(game), announcements: map[uint64]string{}, fromBacklog: map[protocol.Hash]bool{},
		now: time.Now, takenHeads: map[uint64]*session.PublicationHead{},
		announcedHeads: map[uint64]*session.PublicationHead{}}
}

// SetClock sets the clock of the check of a delay in seconds (tests).
func (s *Spectator) SetClock(now func() time.Time) { s.now = now }

// Delay returns the broadcast delay of the watched game's invitation
// (SPEC-D10), zero before it came or for none.
func (s *Spectator) Delay() protocol.BroadcastDelay { return s.delay }

// DelayBroken tells whether a publication broke the broadcast delay
// (SPEC-D11).
func (s *Spectator) DelayBroken() bool { return s.delayBroken }

// TakeBacklog takes a publication of the publisher's backlog (SPEC-D8)
// as Take takes a live one, with the same checks; a refusal names the
// backlog.
func (s *Spectator) TakeBacklog(author peer.ID, data []byte) []Line {
	if p, err := session.UnmarshalPublication(data); err == nil && author == s.publisher && (p.Message != nil || p.Withheld != nil) {
		s.fromBacklog[publicationHash(p)] = true
	}
	s.inBacklog = true
	lines := s.Take(author, data)
	s.inBacklog = false
	for i, l := range lines {
		if l.Status == Refused && !strings.HasPrefix(l.Text, backlogPrefix) {
			lines[i].Text = backlogPrefix + l.Text
		}
	}
	return lines
}

// backlogPrefix starts a refusal of a backlog's publication.
const backlogPrefix = "the publisher's backlog: "

// Behind tells whether the spectator lacks publications before some it
// holds, or before the record it holds, and from which position
// (SPEC-D8).
func (s *Spectator) Behind() (from uint64, behind bool) {
	return s.next, s.heldCount > 0 || s.Waiting()
}

// Items returns the messages taken so far, in the publisher's order.
func (s *Spectator) Items() []Item { return append([]Item(nil), s.items...) }

// Announcements returns the public announcements taken so far, by try.
func (s *Spectator) Announcements() map[uint64]string {
	out := make(map[uint64]string, len(s.announcements))
	for k, v := range s.announcements {
		out[k] = v
	}
	return out
}

// Done tells whether the record was taken and checked, and whether
// `kakure verify` found it a finished game with no violation (ok).
func (s *Spectator) Done() (done, ok bool) { return s.done, s.ok }

// Game returns the game watched (zero until a next game's invitation).
func (s *Spectator) Game() protocol.GameID { return s.game }

// Peers returns the players' peer IDs by role, once the invitation came
// (ok).
func (s *Spectator) Peers() (peers [2]protocol.PeerID, ok bool) { return s.peers, s.havePeers }

// Machine returns the spectator's replay of the rules, nil once a
// message was withheld.
func (s *Spectator) Machine() *protocol.Machine { return s.machine }

// Take checks one publication by author and returns what it shows: the
// events it adds (and those of publications held until now), or one
// line naming why it is refused. A publication of another game of the
// publisher is ignored (nil).
func (s *Spectator) Take(author peer.ID, data []byte) []Line {
	if author != s.publisher {
		return []Line{{Refused, fmt.Sprintf("a publication by %s, not by the publisher %s", author, s.publisher)}}
	}
	p, err := session.UnmarshalPublication(data)
	if err != nil {
		return []Line{{Refused, fmt.Sprintf("an unreadable publication: %v", err)}}
	}
	if p.Game != s.game {
		if s.game != (protocol.GameID{}) {
			return nil
		}
		if (p.Message == nil && p.Withheld == nil) || p.Game == (protocol.GameID{}) {
			// An announcement or a record part: perhaps of the next
			// game, come before its invitation; the newest maxHeld are
			// kept (the publisher's other games come here too).
			if len(s.early) >= maxHeld {
				s.early = s.early[1:]
			}
			s.early = append(s.early, p)
			return nil
		}
		// Watching the publisher's next game: that of this invitation,
		// or of this message of a game the spectator subscribed too late
		// to see begin, whose start the backlog brings (SPEC-D33: held
		// until then, Behind says from where).
		s.game, s.machine = p.Game, protocol.NewMachine(p.Game)
		lines := s.dispatch(p)
		for _, q := range s.early {
			if q.Game == s.game {
				lines = append(lines, s.dispatch(q)...)
			}
		}
		s.early = nil
		return lines
	}
	early := s.checkTiming(p)
	return append(early, s.dispatch(p)...)
}

// dispatch takes a publication of the game watched.
func (s *Spectator) dispatch(p session.Publication) []Line {
	switch {
	case p.Announcement != nil:
		return s.takeAnnouncement(*p.Announcement, p.Head)
	case p.Record != nil:
		return s.takeRecordPart(*p.Record)
	}
	return s.takePositioned(p)
}

// takePositioned takes a message or a header at its position, holds it
// if it came early, and then takes the held ones that follow (SPEC-D3).
func (s *Spectator) takePositioned(p session.Publication) []Line {
	switch {
	case p.Pos < s.next:
		if h := publicationHash(p); h == s.items[p.Pos].Hash && (p.Message != nil) == s.items[p.Pos].Whole {
			return s.copyHead(p) // a copy
		}
		why := s.why(p)
		if why == "" {
			why = "not the one taken"
		}
		return []Line{{Refused, fmt.Sprintf("%s: a different publication at position %d, which holds %s%s: %s", describe(p), p.Pos, describeItem(s.items[p.Pos]), s.source(s.items[p.Pos]), why)}}
	case p.Pos > s.next:
		for _, old := range s.held[p.Pos] {
			if publicationHash(old) == publicationHash(p) && (old.Message != nil) == (p.Message != nil) && sameHead(old.Head, p.Head) {
				return nil // a copy
			}
		}
		if s.heldCount >= maxHeld {
			return []Line{{Refused, fmt.Sprintf("%s: position %d is too far ahead of %d", describe(p), p.Pos, s.next)}}
		}
		s.held[p.Pos] = append(s.held[p.Pos], p)
		s.heldCount++
		return nil
	}
	lines := []Line{s.takeNext(p)}
	for {
		// The publications held for the next position, in the order
		// they came: the first that checks is taken; the others are
		// copies or refused.
		cands, ok := s.held[s.next]
		if !ok {
			break
		}
		delete(s.held, s.next)
		s.heldCount -= len(cands)
		before := s.next
		for _, c := range cands {
			if s.next != before {
				lines = append(lines, s.takePositioned(c)...)
				continue
			}
			lines = append(lines, s.takeNext(c))
		}
		if s.next == before {
			break
		}
	}
	lines = append(lines, s.checkHeads()...)
	return append(lines, s.checkPendingRecord()...)
}

// publicationHash is the hash of the message a publication names.
func publicationHash(p session.Publication) protocol.Hash {
	switch {
	case p.Message != nil:
		return p.Message.Hash()
	case p.Withheld != nil:
		return p.Withheld.Hash
	}
	return protocol.Hash{}
}

// describe names the message a publication carries.
func describe(p session.Publication) string {
	switch {
	case p.Message != nil:
		return fmt.Sprintf("the %s's message %d (%s)", p.Message.From, p.Message.Seq, p.Message.Kind)
	case p.Withheld != nil:
		return fmt.Sprintf("the %s's withheld message %d (%s)", p.Withheld.From, p.Withheld.Seq, p.Withheld.Kind)
	}
	return "a publication"
}

// source says that a backlog carried an item's message, if one did.
func (s *Spectator) source(it Item) string {
	if s.fromBacklog[it.Hash] {
		return " (from the backlog)"
	}
	return ""
}

// describeItem names the message an item is.
func describeItem(it Item) string {
	return fmt.Sprintf("the %s's message %d (%s)", it.From, it.Seq, it.Kind)
}

// takeNext checks the message or header at the next position and takes
// it (SPEC-3).
func (s *Spectator) takeNext(p session.Publication) Line {
	refuse := func(format string, args ...any) Line {
		return Line{Refused, describe(p) + " at position " + fmt.Sprint(p.Pos) + ": " + fmt.Sprintf(format, args...)}
	}
	var (
		from    protocol.Role
		seq     uint64
		prev    protocol.Hash
		ack     int64
		ackHash protocol.Hash
		kind    protocol.Kind
		hash    protocol.Hash
	)
	if m := p.Message; m != nil {
		from, seq, prev, ack, ackHash, kind, hash = m.From, m.Seq, m.Prev, m.Ack, m.AckHash, m.Kind, m.Hash()
	} else {
		w := p.Withheld
		from, seq, prev, ack, ackHash, kind, hash = w.From, w.Seq, w.Prev, w.Ack, w.AckHash, w.Kind, w.Hash
	}
	if why := s.why(p); why != "" {
		return refuse("%s", why)
	}
	if !s.havePeers {
		// The invitation names both peers (SPEC-D5: a spectator needs it
		// to check signatures).
		if p.Message == nil || kind != protocol.KindInvite || from != protocol.Inviter || seq != 0 {
			return refuse("the game's first message must be the invitation")
		}
		var b protocol.InviteBody
		if err := json.Unmarshal(p.Message.Body, &b); err != nil {
			return refuse("an unreadable invitation: %v", err)
		}
		var peers [2]protocol.PeerID
		for i, s := range []string{b.Inviter, b.Invitee} {
			id, err := protocol.ParsePeerID(s)
			if err != nil {
				return refuse("the invitation names no peer: %v", err)
			}
			peers[i] = id
		}
		if peers[0] != protocol.PeerID(s.publisher) && peers[1] != protocol.PeerID(s.publisher) {
			return refuse("the invitation names two other peers than the publisher")
		}
		if err := p.Message.VerifySignature(peers[0]); err != nil {
			return refuse("%v", err)
		}
		o, err := b.Options.Options()
		if err != nil {
			return refuse("the invitation's options: %v", err)
		}
		if b.Broadcast != nil {
			s.delay = *b.Broadcast
		}
		s.peers, s.havePeers, s.variant = peers, true, o.Variant
	}
	if why := s.admitHead(p.Head, positionedHead(p)); why != "" {
		return refuse("%s", why)
	}
	if why := s.why(p); why != "" {
		return refuse("%s", why)
	}
	if seq != s.count[from] {
		return refuse("out of order: the %s's message %d is due", from, s.count[from])
	}
	if prev != s.last[from] {
		return refuse("it does not chain to the %s's message %d", from, int64(seq)-1)
	}
	other := from.Other()
	switch {
	case ack < -1 || ack >= int64(s.count[other]):
		return refuse("it acknowledges the %s's message %d, of %d", other, ack, s.count[other])
	case ack >= 0 && s.hashes[other][ack] != ackHash:
		return refuse("its acknowledgement names another %s's message %d", other, ack)
	case ack < 0 && !ackHash.IsZero():
		return refuse("an acknowledgement hash without an acknowledgement")
	}
	status := Unverified
	text := fmt.Sprintf("%s %d %s", from, seq, kind)
	if m := p.Message; m != nil {
		status = Signed
		if s.machine != nil {
			if _, err := s.machine.Apply(m); err != nil {
				return refuse("the rules refuse it: %v", err)
			}
			status = Verified
		}
		text += " " + shorten(string(m.Body))
	} else {
		s.machine = nil
		text += " (withheld)"
	}
	s.items = append(s.items, Item{Pos: p.Pos, From: from, Seq: seq, Kind: kind, Hash: hash, Whole: p.Message != nil})
	s.count[from]++
	s.last[from] = hash
	s.hashes[from] = append(s.hashes[from], hash)
	s.moves.Add(s.variant, kind)
	s.next++
	if !s.delay.IsZero() {
		h := positionedHead(p)
		h.head = *p.Head
		s.heads = append(s.heads, h)
		s.takenHeads[p.Pos] = p.Head
	}
	return Line{status, text}
}

// why returns what is wrong with a message or header whatever its
// place: another game, an unknown role, a kind published otherwise than
// SPEC-1 says, a bad signature; "" if none of these.
func (s *Spectator) why(p session.Publication) string {
	var (
		game protocol.GameID
		from protocol.Role
		kind protocol.Kind
	)
	if m := p.Message; m != nil {
		game, from, kind = m.Game, m.From, m.Kind
	} else {
		game, from, kind = p.Withheld.Game, p.Withheld.From, p.Withheld.Kind
	}
	switch {
	case game != s.game:
		return fmt.Sprintf("a message of another game (%s)", game)
	case from != protocol.Inviter && from != protocol.Invitee:
		return fmt.Sprintf("a message from an unknown role %d", from)
	case !s.havePeers:
		return ""
	case p.Message != nil && !session.PublicKind(s.variant, kind):
		// A publisher that publishes what SPEC-1 withholds: shown
		// nowhere.
		return fmt.Sprintf("published whole, which SPEC-1 withholds in %s", s.variant)
	case p.Message == nil && session.PublicKind(s.variant, kind):
		return fmt.Sprintf("withheld, which SPEC-1 publishes whole in %s", s.variant)
	case p.Message != nil:
		if err := p.Message.VerifySignature(s.peers[from]); err != nil {
			return err.Error()
		}
	}
	return ""
}

// shorten cuts a body to what one line shows.
func shorten(body string) string {
	const most = 160
	if len(body) <= most {
		return body
	}
	return body[:most] + "…"
}

// takeAnnouncement takes a Phantom Go public announcement: shown as not
// verified until the record (SPEC-3).
func (s *Spectator) takeAnnouncement(a session.PublicAnnouncement, head *session.PublicationHead) []Line {
	h := announcedHead(a.Try)
	if old, ok := s.announcements[a.Try]; ok {
		if old == a.Text {
			// A copy: its head is checked too, as a message's
			// (SPEC-D11).
			return s.copiedHead(s.announcedHeads[a.Try], head, h)
		}
		return []Line{{Refused, fmt.Sprintf("a second announcement of try %d, %q, after %q", a.Try, a.Text, old)}}
	}
	if s.havePeers && s.variant != engine.VariantPhantom {
		return []Line{{Refused, fmt.Sprintf("an announcement of try %d in a game of %s", a.Try, s.variant)}}
	}
	if why := s.admitHead(head, h); why != "" {
		return []Line{{Refused, h.what + ": " + why}}
	}
	if !s.delay.IsZero() {
		h.head = *head
		s.heads = append(s.heads, h)
		s.announcedHeads[a.Try] = head
	}
	s.announcements[a.Try] = a.Text
	lines := append([]Line{{Unverified, fmt.Sprintf("try %d: %s", a.Try, a.Text)}}, s.checkHeads()...)
	return append(lines, s.checkPendingRecord()...)
}
