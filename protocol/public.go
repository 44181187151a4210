package protocol

import (
	"encoding/json"
	"fmt"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
)

// Publisher takes what a player's program publishes of its games for
// spectators (SPEC-2). Publish is called with the game's lock held: it
// must not block, nor call back into the game (SPEC-5).
type Publisher interface {
	Publish(p Publication)
}

// Publication is one item a player's program publishes about one of its
// games (SPEC-2, docs/spectators.md SPEC-D1): exactly one of Message,
// Withheld, Announcement and Record is set.
type Publication struct {
	Game GameID `json:"game"`
	// Pos is the message's position in the publisher's transcript, for
	// Message and Withheld (SPEC-D3).
	Pos uint64 `json:"pos"`
	// Message is a message of the game whose body SPEC-1 makes public,
	// exactly as it was signed.
	Message *Message `json:"message,omitempty"`
	// Withheld is the header of a message whose body SPEC-1 withholds.
	Withheld *WithheldMessage `json:"withheld,omitempty"`
	// Announcement is the public part of a Phantom Go referee's
	// announcement.
	Announcement *PublicAnnouncement `json:"announcement,omitempty"`
	// Record is a part of the record of the finished game (SPEC-D6).
	Record *RecordPart `json:"record,omitempty"`
}

// WithheldMessage is a message without its body and signature: what a
// spectator is told of a message SPEC-1 withholds. Hash is the message's
// hash (Message.Hash), which the sender's next message names as Prev.
type WithheldMessage struct {
	Game    GameID `json:"game"`
	From    Role   `json:"from"`
	Seq     uint64 `json:"seq"`
	Prev    Hash   `json:"prev"`
	Ack     int64  `json:"ack"`
	AckHash Hash   `json:"ack_hash"`
	Kind    Kind   `json:"kind"`
	Hash    Hash   `json:"hash"`
}

// Withhold returns the header of m that a spectator is told when SPEC-1
// withholds its body.
func Withhold(m *Message) WithheldMessage {
	return WithheldMessage{Game: m.Game, From: m.From, Seq: m.Seq, Prev: m.Prev, Ack: m.Ack,
		AckHash: m.AckHash, Kind: m.Kind, Hash: m.Hash()}
}

// PublicAnnouncement is what everyone may know of one Phantom Go try
// (SPEC-1): its number and the referee's words of it, without the point
// tried or what one player alone is told.
type PublicAnnouncement struct {
	Try  uint64 `json:"try"`
	Text string `json:"text"`
}

// RecordPart is part Part (from 0) of Parts of a finished game's record
// file (SPEC-D6).
type RecordPart struct {
	Part  int    `json:"part"`
	Parts int    `json:"parts"`
	Data  []byte `json:"data"`
}

// RecordPartSize is the most record bytes one publication carries.
const RecordPartSize = 256 << 10

// publicEverywhere are the kinds whose bodies are public in every
// variant: they say nothing of a hidden value (SPEC-1).
var publicEverywhere = map[Kind]bool{
	KindInvite: true, KindAccept: true, KindDecline: true, KindTossCommit: true, KindTossReveal: true,
	KindResign: true, KindChat: true, KindResult: true, KindTimeout: true, KindTimeoutRefuse: true,
	KindAdjournRequest: true, KindAdjournAccept: true, KindAbandon: true,
	KindUndoRequest: true, KindUndoAccept: true, KindUndoDecline: true, KindMark: true, KindAgree: true,
}

// spectatorKinds tells, per variant, whether a kind other than the
// publicEverywhere ones is public (SPEC-1). A variant without an entry
// withholds them all: publication fails closed.
var spectatorKinds = map[engine.Variant]func(Kind) bool{
	engine.VariantGo:      func(Kind) bool { return true },
	engine.VariantBridge:  func(Kind) bool { return true },
	engine.VariantHMG:     func(k Kind) bool { return k != KindViolation },
	engine.VariantGomoku:  func(k Kind) bool { return k != KindViolation },
	engine.VariantFGo:     func(k Kind) bool { return k != KindViolation },
	engine.VariantPhantom: func(Kind) bool { return false },
}

// PublicKind tells whether a message of kind k in a game of variant v is
// published whole to spectators (SPEC-1); otherwise only its header is.
func PublicKind(v engine.Variant, k Kind) bool {
	if publicEverywhere[k] {
		return true
	}
	f, ok := spectatorKinds[v]
	return ok && f(k)
}

// PublicOf returns the publication of message m at position pos of a
// game of variant v: m itself or its header (SPEC-1).
func PublicOf(v engine.Variant, pos int, m *Message) Publication {
	p := Publication{Game: m.Game, Pos: uint64(pos)}
	if PublicKind(v, m.Kind) {
		c := *m
		p.Message = &c
	} else {
		w := Withhold(m)
		p.Withheld = &w
	}
	return p
}

// PublicAnnouncementText returns the words everyone may read of a
// Phantom Go announcement, whichever player it was made to (SPEC-1): the
// referee's words to the mover's opponent, without the captured points
// under kriegspiel (which only their owner is told).
func PublicAnnouncementText(a phantom.Announcement) string {
	a.To = a.Mover.Opponent()
	a.Point = engine.NoPoint
	if a.Rules != engine.RulesHamburg {
		a.Reason = phantom.TryNoReason
	}
	if a.Rules != engine.RulesCommon {
		a.Captured = nil
	}
	return a.String()
}

// PublicAnnouncements returns the public announcements of the tries of
// a finished Phantom Go game whose record t holds (SPEC-4): replayed
// through the rules, the audit gives every try's outcome. It returns an
// error when the record is not of Phantom Go or holds no audit.
func PublicAnnouncements(t *Transcript) ([]PublicAnnouncement, error) {
	m := NewMachine(t.Game)
	for i := range t.Messages {
		msg := t.Messages[i]
		if _, err := m.Apply(&msg); err != nil {
			break
		}
	}
	pr, ok := m.variant.(*phantomRules)
	if !ok {
		return nil, fmt.Errorf("protocol: public announcements: the record is not of a Phantom Go game")
	}
	if pr.replay == nil {
		return nil, fmt.Errorf("protocol: public announcements: the record holds no audit of the game")
	}
	out := make([]PublicAnnouncement, len(pr.replay.Announcements))
	for i, a := range pr.replay.Announcements {
		out[i] = PublicAnnouncement{Try: uint64(i), Text: PublicAnnouncementText(a[0])}
	}
	return out, nil
}

// publishing is a game's state of publication (SPEC-2): nil for a game
// that publishes nothing.
type publishing struct {
	to Publisher
	// next is the position of the transcript's first message not
	// published yet: this peer's own messages wait there until their
	// save is durable (SPEC-D32), and the messages after them behind.
	next int
	// record is set once the finished record was published.
	record bool
}

// publishMessage is told of the message at position pos of the game's
// transcript as it is appended: the other peer's message is published at
// once when nothing waits before it; this peer's own waits for its
// durable save (publishSaved), so that a message a crash loses before it
// reached the disk was never published: the program, resumed, may sign
// another in its place, which spectators would take for a second
// message at the same place (SPEC-D32). The game's lock is held (or the
// game is not yet shared).
func (g *Game) publishMessage(pos int, m *Message) {
	p := g.pub
	if p == nil || m.From == g.role || pos != p.next {
		return
	}
	g.publishSaved()
}

// publishSaved publishes the messages of the transcript not published
// yet, which the record file now holds (its save durable when it ends
// with one of this peer's messages), and the record when the game is
// over. The game's lock is held (or the game is not yet shared).
func (g *Game) publishSaved() {
	p := g.pub
	if p == nil {
		return
	}
	for ; p.next < len(g.tr.Messages); p.next++ {
		p.to.Publish(PublicOf(g.m.Options.Variant, p.next, &g.tr.Messages[p.next]))
	}
	if g.m.Phase == PhaseDone && !p.record && p.next > 0 {
		p.record = true
		data, err := g.tr.encode()
		if err != nil {
			g.svc.cfg.Logger.Warn("the record is not published", "game", g.id, "err", err)
			return
		}
		publishRecord(p.to, g.id, data)
	}
}

// publishRecord publishes a finished game's record in parts (SPEC-D6).
func publishRecord(to Publisher, game GameID, data []byte) {
	parts := (len(data) + RecordPartSize - 1) / RecordPartSize
	for i := 0; i < parts; i++ {
		end := min(len(data), (i+1)*RecordPartSize)
		to.Publish(Publication{Game: game, Record: &RecordPart{Part: i, Parts: parts, Data: data[i*RecordPartSize : end]}})
	}
}

// publishAnnouncement publishes the public part of a Phantom Go
// announcement this player was told of try.
func (g *Game) publishAnnouncement(try uint64, a phantom.Announcement) {
	if p := g.pub; p != nil {
		p.to.Publish(Publication{Game: g.id, Announcement: &PublicAnnouncement{Try: try, Text: PublicAnnouncementText(a)}})
	}
}

// MarshalPublication encodes a publication as it goes on the topic.
func MarshalPublication(p Publication) ([]byte, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("protocol: publication: %w", err)
	}
	return b, nil
}

// UnmarshalPublication reads a publication strictly: unknown fields and
// trailing data are errors, and exactly one item must be set.
func UnmarshalPublication(data []byte) (Publication, error) {
	var p Publication
	if err := decodeBody(data, &p); err != nil {
		return p, fmt.Errorf("protocol: publication: %w", err)
	}
	n := 0
	for _, set := range []bool{p.Message != nil, p.Withheld != nil, p.Announcement != nil, p.Record != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return p, fmt.Errorf("%w: publication: %d items, want 1", ErrMalformed, n)
	}
	return p, nil
}
