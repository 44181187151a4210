// Package watch lets third parties watch kakure games: each player's
// program publishes the public part of its games on a GossipSub topic
// of its own, and a spectator verifies every publication before it shows
// it (docs/spec/trust.md SPEC-1..SPEC-6, docs/spectators.md).
package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
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

	peers     [2]peer.ID
	havePeers bool
	variant   engine.Variant
	// next is the position expected next; held the publications that
	// came before it.
	// early are the publications that came, while the spectator waits
	// for the publisher's next game, before its invitation.
	early     []protocol.Publication
	next      uint64
	held      map[uint64][]protocol.Publication
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
	takenHeads map[uint64]*protocol.PublicationHead
	// announcedHeads are the heads of the announcements taken, by try.
	announcedHeads map[uint64]*protocol.PublicationHead
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

// headCheck is a publication's head to check once the spectator took
// the message at the head's position, or against the record (SPEC-D11):
// what names the publication; after is the position after which its
// moves count, or try the Phantom Go try of an announcement (after its
// outputs).
type headCheck struct {
	what  string
	after uint64
	try   int64
	head  protocol.PublicationHead
}

// NewSpectator starts watching game as publisher publishes it; with the
// zero game, the next game whose invitation the publisher publishes.
func NewSpectator(publisher peer.ID, game protocol.GameID) *Spectator {
	return &Spectator{publisher: publisher, game: game, held: map[uint64][]protocol.Publication{},
		machine: protocol.NewMachine(game), announcements: map[uint64]string{}, fromBacklog: map[protocol.Hash]bool{},
		now: time.Now, takenHeads: map[uint64]*protocol.PublicationHead{},
		announcedHeads: map[uint64]*protocol.PublicationHead{}}
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
	if p, err := protocol.UnmarshalPublication(data); err == nil && author == s.publisher && (p.Message != nil || p.Withheld != nil) {
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
func (s *Spectator) Peers() (peers [2]peer.ID, ok bool) { return s.peers, s.havePeers }

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
	p, err := protocol.UnmarshalPublication(data)
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

// checkTiming checks a live message or header against a delay in
// seconds (SPEC-D11): a publication whose head came before its position
// tells that its message did not exist yet, so that the delay holds
// every later position until Seconds after it; one that comes less
// than half the delay after it (half: for the ways of the network and
// of the publisher's queue) was published too early, and is named.
func (s *Spectator) checkTiming(p protocol.Publication) []Line {
	if s.inBacklog || s.delay.Seconds == 0 || p.Head == nil || (p.Message == nil && p.Withheld == nil) || p.Pos < s.next {
		return nil
	}
	now := s.now()
	var lines []Line
	if s.haveLast && !p.Head.End && p.Pos > s.lastHead {
		if gap := now.Sub(s.lastLive); gap < s.delay.Duration()/2 {
			s.delayBroken = true
			lines = append(lines, Line{Refused, fmt.Sprintf("%s at position %d came %s after a publication released before it existed: the broadcast delay is %s (SPEC-D11)",
				describe(p), p.Pos, gap.Round(time.Millisecond), s.delay.Duration())})
		}
	}
	if !s.haveLast || now.After(s.lastLive) {
		s.lastLive, s.lastHead, s.haveLast = now, p.Head.Pos, true
	}
	return lines
}

// dispatch takes a publication of the game watched.
func (s *Spectator) dispatch(p protocol.Publication) []Line {
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
func (s *Spectator) takePositioned(p protocol.Publication) []Line {
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

// sameHead tells whether two publications name the same head.
func sameHead(a, b *protocol.PublicationHead) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// copyHead checks the head of a copy of a message or header taken
// already (SPEC-D11): every head a publisher gives is its claim, checked
// as the first one's, so that a copy cannot slip a false one by.
func (s *Spectator) copyHead(p protocol.Publication) []Line {
	return s.copiedHead(s.takenHeads[p.Pos], p.Head, positionedHead(p))
}

// copiedHead checks the head of a copy of a publication taken already,
// whose head was taken (SPEC-D11): a head that differs from it is
// admitted as the first one was (admitHead) and checked as soon as it
// can be; h names the publication and places its moves.
func (s *Spectator) copiedHead(taken, head *protocol.PublicationHead, h headCheck) []Line {
	if s.delay.IsZero() || sameHead(taken, head) {
		return nil
	}
	if why := s.admitHead(head, h); why != "" {
		return []Line{{Refused, h.what + ": " + why}}
	}
	h.head = *head
	s.heads = append(s.heads, h)
	return s.checkHeads()
}

// positionedHead is the check of the head of a message or header at its
// position: its moves count after it.
func positionedHead(p protocol.Publication) headCheck {
	return headCheck{what: describe(p) + " at position " + fmt.Sprint(p.Pos), after: p.Pos, try: -1}
}

// announcedHead is the check of the head of Phantom Go's announcement
// of a try: its moves count after the try's outputs.
func announcedHead(try uint64) headCheck {
	return headCheck{what: fmt.Sprintf("the announcement of try %d", try), try: int64(try)}
}

// admitHead tells why the head a publication names is refused as soon
// as it comes, in a game with a broadcast delay (SPEC-D11), or "": a
// publication must name a head, and a message or header's head may not
// come before its position (an announcement's is placed by its try's
// outputs, once they are taken). With no delay, heads are not checked.
// The first publication and every copy are admitted by this one rule.
func (s *Spectator) admitHead(head *protocol.PublicationHead, h headCheck) string {
	switch {
	case s.delay.IsZero():
		return ""
	case head == nil:
		return fmt.Sprintf("no head, in a game with %s (SPEC-D11)", s.delay.Describe())
	case h.try < 0 && head.Pos < h.after:
		return fmt.Sprintf("its head, position %d, comes before it (SPEC-D11)", head.Pos)
	}
	return ""
}

// publicationHash is the hash of the message a publication names.
func publicationHash(p protocol.Publication) protocol.Hash {
	switch {
	case p.Message != nil:
		return p.Message.Hash()
	case p.Withheld != nil:
		return p.Withheld.Hash
	}
	return protocol.Hash{}
}

// describe names the message a publication carries.
func describe(p protocol.Publication) string {
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

func describeItem(it Item) string {
	return fmt.Sprintf("the %s's message %d (%s)", it.From, it.Seq, it.Kind)
}

// takeNext checks the message or header at the next position and takes
// it (SPEC-3).
func (s *Spectator) takeNext(p protocol.Publication) Line {
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
		var peers [2]peer.ID
		for i, s := range []string{b.Inviter, b.Invitee} {
			id, err := peer.Decode(s)
			if err != nil {
				return refuse("the invitation names no peer: %v", err)
			}
			peers[i] = id
		}
		if peers[0] != s.publisher && peers[1] != s.publisher {
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

// checkHeads checks the heads whose position the spectator took
// (SPEC-D11): the message there must be the one the head names, and the
// delay's moves must lie between the publication and its head, unless
// the game was over. A head that fails names the publication.
func (s *Spectator) checkHeads() []Line {
	var lines []Line
	kept := s.heads[:0]
	for _, h := range s.heads {
		if h.head.Pos >= s.next || h.head.End {
			kept = append(kept, h)
			continue
		}
		hash := s.items[h.head.Pos].Hash
		if l, bad := s.judgeHead(h, hash, &s.moves); bad {
			lines = append(lines, l)
		}
	}
	s.heads = kept
	return lines
}

// judgeHead checks one head against the hash of the message at its
// position and the moves counted up to it.
func (s *Spectator) judgeHead(h headCheck, hash protocol.Hash, moves *protocol.BroadcastMoves) (Line, bool) {
	bad := func(format string, args ...any) (Line, bool) {
		s.delayBroken = true
		return Line{Refused, h.what + ": " + fmt.Sprintf(format, args...) + " (the broadcast delay, SPEC-D11)"}, true
	}
	if hash != h.head.Hash {
		return bad("its head names a message at position %d that is not the one there", h.head.Pos)
	}
	if h.head.End {
		return Line{}, false
	}
	after := h.after
	if h.try >= 0 {
		at, ok := moves.MoveAt(int(h.try))
		if !ok || at > h.head.Pos {
			return bad("published before try %d was played", h.try)
		}
		after = at
	}
	if n := moves.UpTo(h.head.Pos) - moves.UpTo(after); n < s.delay.Moves {
		return bad("published when %d moves followed it, the delay being %d", n, s.delay.Moves)
	}
	return Line{}, false
}

// why returns what is wrong with a message or header whatever its
// place: another game, an unknown role, a kind published otherwise than
// SPEC-1 says, a bad signature; "" if none of these.
func (s *Spectator) why(p protocol.Publication) string {
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
	case p.Message != nil && !protocol.PublicKind(s.variant, kind):
		// A publisher that publishes what SPEC-1 withholds: shown
		// nowhere.
		return fmt.Sprintf("published whole, which SPEC-1 withholds in %s", s.variant)
	case p.Message == nil && protocol.PublicKind(s.variant, kind):
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
func (s *Spectator) takeAnnouncement(a protocol.PublicAnnouncement, head *protocol.PublicationHead) []Line {
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

// takeRecordPart joins the parts of the record and checks the whole
// record once it is complete (SPEC-4, SPEC-D6).
func (s *Spectator) takeRecordPart(r protocol.RecordPart) []Line {
	if s.done {
		return nil
	}
	if r.Parts <= 0 || r.Part < 0 || r.Part >= r.Parts || r.Parts*protocol.RecordPartSize > maxRecord {
		return []Line{{Refused, fmt.Sprintf("a record part %d of %d", r.Part, r.Parts)}}
	}
	if s.parts == nil {
		s.parts, s.partsCount = make([][]byte, r.Parts), 0
	}
	if len(s.parts) != r.Parts {
		return []Line{{Refused, fmt.Sprintf("a record part of %d parts, after parts of %d", r.Parts, len(s.parts))}}
	}
	if old := s.parts[r.Part]; old != nil {
		if !bytes.Equal(old, r.Data) {
			return []Line{{Refused, fmt.Sprintf("a different record part %d", r.Part)}}
		}
		return nil
	}
	s.parts[r.Part] = r.Data
	s.partsCount++
	if s.partsCount < len(s.parts) {
		return nil
	}
	data := bytes.Join(s.parts, nil)
	s.parts, s.partsCount = nil, 0
	t, err := protocol.ParseTranscript(data)
	if err != nil {
		return []Line{{Refused, fmt.Sprintf("the record: %v", err)}}
	}
	s.record = t
	return s.checkPendingRecord()
}

// checkPendingRecord checks the record once the messages before it were
// taken: GossipSub may bring the record before the last of them.
func (s *Spectator) checkPendingRecord() []Line {
	if s.record == nil || s.done || s.next < uint64(len(s.record.Messages)) {
		return nil
	}
	if s.havePeers && s.variant == engine.VariantPhantom && len(s.announcements) < s.tries(s.record) {
		// The announcements released with the record at the end of a
		// game with a broadcast delay may come after it (SPEC-D11):
		// waited for as the messages are, Finish checks without them.
		return nil
	}
	return s.checkRecord(s.record)
}

// tries counts the tries of a Phantom Go record: one outputs message
// each.
func (s *Spectator) tries(t *protocol.Transcript) int {
	n := 0
	for i := range t.Messages {
		if t.Messages[i].Kind == protocol.KindPhantomOutputs {
			n++
		}
	}
	return n
}

// Finish checks the record now if it came, even though messages before
// it are missing (dropped on the way, SPEC-D7): the record checks them.
func (s *Spectator) Finish() []Line {
	if s.record == nil || s.done {
		return nil
	}
	var lines []Line
	if missing := uint64(len(s.record.Messages)) - min(s.next, uint64(len(s.record.Messages))); missing > 0 {
		lines = append(lines, Line{Verdict, fmt.Sprintf("%d messages of the record were not seen live", missing)})
	}
	if s.havePeers && s.variant == engine.VariantPhantom {
		// Announcements lost on the way, or published by a program
		// that stopped before it resumed (SPEC-D32).
		if missing := s.tries(s.record) - len(s.announcements); missing > 0 {
			lines = append(lines, Line{Verdict, fmt.Sprintf("%d announcements of the record were not seen live", missing)})
		}
	}
	return append(lines, s.checkRecord(s.record)...)
}

// Record returns the game's record once it came and was checked (nil
// before).
func (s *Spectator) Record() *protocol.Transcript {
	if !s.done {
		return nil
	}
	return s.record
}

// Waiting tells whether the record came and waits for messages before
// it.
func (s *Spectator) Waiting() bool { return s.record != nil && !s.done }

// checkRecord checks the record of the finished game: as `kakure verify`
// does, and against every publication taken (SPEC-4).
func (s *Spectator) checkRecord(t *protocol.Transcript) []Line {
	if t.Game != s.game {
		return []Line{{Refused, fmt.Sprintf("the record of another game (%s)", t.Game)}}
	}
	if s.havePeers && t.Peers != s.peers {
		return []Line{{Refused, "the record names other peers than the invitation"}}
	}
	var lines []Line
	mismatch := false
	for _, it := range s.items {
		if it.Pos >= uint64(len(t.Messages)) {
			continue // after the end of the game: not in the record
		}
		m := &t.Messages[it.Pos]
		if m.From != it.From || m.Seq != it.Seq || m.Hash() != it.Hash {
			mismatch = true
			lines = append(lines, Line{Refused, fmt.Sprintf("the publication at position %d (%s%s) is not the record's message there (the %s's message %d, %s)",
				it.Pos, describeItem(it), s.source(it), m.From, m.Seq, m.Kind)})
		}
	}
	if len(s.announcements) > 0 || (s.havePeers && s.variant == engine.VariantPhantom) {
		want, err := protocol.PublicAnnouncements(t)
		if err != nil {
			lines = append(lines, Line{Verdict, fmt.Sprintf("the announcements cannot be checked: %v", err)})
		} else {
			for try, text := range s.announcements {
				switch {
				case try >= uint64(len(want)):
					mismatch = true
					lines = append(lines, Line{Refused, fmt.Sprintf("the announcement of try %d, %q: the record's audit has %d tries", try, text, len(want))})
				case want[try].Text != text:
					mismatch = true
					lines = append(lines, Line{Refused, fmt.Sprintf("the announcement of try %d, %q: the record's audit gives %q", try, text, want[try].Text)})
				}
			}
			if !mismatch {
				lines = append(lines, Line{Verdict, fmt.Sprintf("the %d announcements seen of %d tries are the audited record's", len(s.announcements), len(want))})
			}
		}
	}
	if !mismatch {
		lines = append(lines, Line{Verdict, fmt.Sprintf("the %d messages seen are the record's", len(s.items))})
	}
	lines = append(lines, s.checkHeadsAgainst(t)...)
	rep := protocol.Verify(t)
	text, ok := rep.Describe(t.Peers)
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		lines = append(lines, Line{Verdict, l})
	}
	s.done, s.ok, s.record = true, ok && !mismatch && !s.delayBroken, t
	return lines
}

// checkHeadsAgainst checks the heads not checked yet against the record
// (SPEC-D11): a head at the game's end must name its last message or a
// later one; any other, a message of the record, with the delay's moves
// between the publication and it.
func (s *Spectator) checkHeadsAgainst(t *protocol.Transcript) []Line {
	if s.delay.IsZero() {
		return nil
	}
	var moves protocol.BroadcastMoves
	for i := range t.Messages {
		moves.Add(s.variant, t.Messages[i].Kind)
	}
	var lines []Line
	last := uint64(len(t.Messages))
	for _, h := range s.heads {
		switch {
		case h.head.End && (last == 0 || h.head.Pos < last-1):
			s.delayBroken = true
			lines = append(lines, Line{Refused, fmt.Sprintf("%s: released as after the game's end, with its head at position %d, but the record ends at %d (the broadcast delay, SPEC-D11)", h.what, h.head.Pos, int64(last)-1)})
		case h.head.Pos >= last && h.head.End:
			// After the end: messages the record does not hold.
		case h.head.Pos >= last:
			s.delayBroken = true
			lines = append(lines, Line{Refused, fmt.Sprintf("%s: its head names position %d, beyond the record's end (the broadcast delay, SPEC-D11)", h.what, h.head.Pos)})
		default:
			if l, bad := s.judgeHead(h, t.Messages[h.head.Pos].Hash(), &moves); bad {
				lines = append(lines, l)
			}
		}
	}
	s.heads = nil
	if !s.delayBroken {
		lines = append(lines, Line{Verdict, fmt.Sprintf("every publication kept %s", s.delay.Describe())})
	}
	return lines
}
