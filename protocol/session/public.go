package session

import (
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/phantomrules"

	"encoding/json"
	"fmt"
	"sync"
	"time"

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
	Game protocol.GameID `json:"game"`
	// Pos is the message's position in the publisher's transcript, for
	// Message and Withheld (SPEC-D3).
	Pos uint64 `json:"pos"`
	// Message is a message of the game whose body SPEC-1 makes public,
	// exactly as it was signed.
	Message *protocol.Message `json:"message,omitempty"`
	// Withheld is the header of a message whose body SPEC-1 withholds.
	Withheld *WithheldMessage `json:"withheld,omitempty"`
	// Announcement is the public part of a Phantom Go referee's
	// announcement.
	Announcement *PublicAnnouncement `json:"announcement,omitempty"`
	// Record is a part of the record of the finished game (SPEC-D6).
	Record *RecordPart `json:"record,omitempty"`
	// Head, in a game with a broadcast delay (SPEC-D10), names the
	// newest message of the publisher's transcript when it released a
	// message, a header or an announcement (SPEC-D11); absent in a game
	// without one, and on a record part.
	Head *PublicationHead `json:"head,omitempty"`
}

// PublicationHead names the newest message of a publisher's transcript
// when it released a publication held for the broadcast delay: its
// position and hash (SPEC-D11). End says that the game was over then:
// the delay no longer holds. A publisher cannot name a message before it
// exists (its hash covers the other player's signatures), so a spectator
// that checks the head against the message it takes at that position,
// or the record's, knows that the message existed when the publication
// was released.
type PublicationHead struct {
	Pos  uint64        `json:"pos"`
	Hash protocol.Hash `json:"hash"`
	End  bool          `json:"end,omitempty"`
}

// WithheldMessage is a message without its body and signature: what a
// spectator is told of a message SPEC-1 withholds. Hash is the message's
// hash (Message.Hash), which the sender's next message names as Prev.
type WithheldMessage struct {
	Game    protocol.GameID `json:"game"`
	From    protocol.Role   `json:"from"`
	Seq     uint64          `json:"seq"`
	Prev    protocol.Hash   `json:"prev"`
	Ack     int64           `json:"ack"`
	AckHash protocol.Hash   `json:"ack_hash"`
	Kind    protocol.Kind   `json:"kind"`
	Hash    protocol.Hash   `json:"hash"`
}

// Withhold returns the header of m that a spectator is told when SPEC-1
// withholds its body.
func Withhold(m *protocol.Message) WithheldMessage {
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
var publicEverywhere = map[protocol.Kind]bool{
	protocol.KindInvite: true, protocol.KindAccept: true, protocol.KindDecline: true, protocol.KindTossCommit: true, protocol.KindTossReveal: true,
	protocol.KindResign: true, protocol.KindChat: true, protocol.KindResult: true, protocol.KindTimeout: true, protocol.KindTimeoutRefuse: true,
	protocol.KindAdjournRequest: true, protocol.KindAdjournAccept: true, protocol.KindAbandon: true,
	protocol.KindUndoRequest: true, protocol.KindUndoAccept: true, protocol.KindUndoDecline: true, protocol.KindMark: true, protocol.KindAgree: true,
}

// spectatorKinds tells, per variant, whether a kind other than the
// publicEverywhere ones is public (SPEC-1). A variant without an entry
// withholds them all: publication fails closed.
var spectatorKinds = map[engine.Variant]func(protocol.Kind) bool{
	engine.VariantGo:      func(protocol.Kind) bool { return true },
	engine.VariantBridge:  func(protocol.Kind) bool { return true },
	engine.VariantHMG:     func(k protocol.Kind) bool { return k != protocol.KindViolation },
	engine.VariantGomoku:  func(k protocol.Kind) bool { return k != protocol.KindViolation },
	engine.VariantFGo:     func(k protocol.Kind) bool { return k != protocol.KindViolation },
	engine.VariantPhantom: func(protocol.Kind) bool { return false },
}

// PublicKind tells whether a message of kind k in a game of variant v is
// published whole to spectators (SPEC-1); otherwise only its header is.
func PublicKind(v engine.Variant, k protocol.Kind) bool {
	if publicEverywhere[k] {
		return true
	}
	f, ok := spectatorKinds[v]
	return ok && f(k)
}

// PublicOf returns the publication of message m at position pos of a
// game of variant v: m itself or its header (SPEC-1).
func PublicOf(v engine.Variant, pos int, m *protocol.Message) Publication {
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
func PublicAnnouncements(t *protocol.Transcript) ([]PublicAnnouncement, error) {
	m := protocol.NewMachine(t.Game)
	for i := range t.Messages {
		msg := t.Messages[i]
		if _, err := m.Apply(&msg); err != nil {
			break
		}
	}
	pr, ok := m.Rules.(*phantomrules.Rules)
	if !ok {
		return nil, fmt.Errorf("protocol: public announcements: the record is not of a Phantom Go game")
	}
	if pr.Replay == nil {
		return nil, fmt.Errorf("protocol: public announcements: the record holds no audit of the game")
	}
	out := make([]PublicAnnouncement, len(pr.Replay.Announcements))
	for i, a := range pr.Replay.Announcements {
		out[i] = PublicAnnouncement{Try: uint64(i), Text: PublicAnnouncementText(a[0])}
	}
	return out, nil
}

// publishing is a game's state of publication (SPEC-2): nil for a game
// that publishes nothing. With a broadcast delay (SPEC-D10, SPEC-D11) it
// holds each publication until the delay passed; its own lock guards it,
// since the timer of a delay in seconds releases publications outside
// the game's lock.
type publishing struct {
	to Publisher
	// now is the clock of the delay in seconds (time.Now).
	now func() time.Time

	// next is the position of the transcript's first message not
	// published yet: this peer's own messages wait there until their
	// save is durable (SPEC-D32), and the messages after them behind.
	// The game's lock guards it.
	next int

	mu sync.Mutex
	// delay is the invitation's broadcast delay, variant its variant,
	// once the invitation was taken.
	delay   protocol.BroadcastDelay
	variant engine.Variant
	// record is set once the finished record was published; ended once
	// the game was over (everything is released at once).
	record bool
	ended  bool
	// held are the publications not released yet, in order; moves
	// counts the moves of the messages taken; newest names the newest
	// message.
	held   []heldPublication
	moves  protocol.BroadcastMoves
	newest PublicationHead
	timer  *time.Timer
}

// heldPublication is a publication held for the broadcast delay: after
// is the position of the newest message when it was made (the moves
// that count are those after it), or for a Phantom Go announcement try
// is its try (the moves that count are those after the try's outputs,
// which may come after the announcement; -1 otherwise); at is when it
// was made.
type heldPublication struct {
	p     Publication
	after int
	try   int
	at    time.Time
}

// newPublishing starts a game's publication to to.
func newPublishing(to Publisher) *publishing {
	return &publishing{to: to, now: time.Now}
}

// publishMessage is told of the message at position pos of the game's
// transcript as it is appended: the other peer's message is published at
// once when nothing waits before it; this peer's own waits for its
// durable save (publishSaved), so that a message a crash loses before it
// reached the disk was never published: the program, resumed, may sign
// another in its place, which spectators would take for a second
// message at the same place (SPEC-D32). The game's lock is held (or the
// game is not yet shared).
func (g *Game) publishMessage(pos int, m *protocol.Message) {
	p := g.pub
	if p == nil || m.From == g.role || pos != p.next {
		return
	}
	g.publishSaved()
}

// publishSaved publishes the messages of the transcript not published
// yet, which the record file now holds (its save durable when it ends
// with one of this peer's messages), each held for the broadcast delay
// (SPEC-D10), and the record when the game is over. The game's lock is
// held (or the game is not yet shared).
func (g *Game) publishSaved() {
	p := g.pub
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for ; p.next < len(g.tr.Messages); p.next++ {
		p.take(g.m, p.next, &g.tr.Messages[p.next])
	}
	if g.m.Phase == protocol.PhaseDone && !p.record && p.next > 0 {
		p.record = true
		// The game is over: nothing is left to relay, everything held
		// goes now, then the record (SPEC-D10).
		p.ended = true
		p.newest.End = true
		p.release()
		data, err := g.tr.MarshalJSON()
		if err != nil {
			g.svc.cfg.Logger.Warn("the record is not published", "game", g.id, "err", err)
			return
		}
		publishRecord(p.to, g.id, data)
		return
	}
	p.release()
}

// take holds the message m at position pos for publication, counting the
// moves the broadcast delay counts (BroadcastMove); m's machine gives the
// invitation's delay and the variant. p.mu is held.
func (p *publishing) take(m *protocol.Machine, pos int, msg *protocol.Message) {
	if pos == 0 {
		p.delay, p.variant = m.Broadcast, m.Options.Variant
	}
	p.moves.Add(p.variant, msg.Kind)
	p.newest = PublicationHead{Pos: uint64(pos), Hash: msg.Hash()}
	p.hold(PublicOf(p.variant, pos, msg), pos, -1)
}

// hold queues q, made when the newest message was at position after. The
// lock is held.
func (p *publishing) hold(q Publication, after, try int) {
	if p.delay.IsZero() {
		p.to.Publish(q)
		return
	}
	p.held = append(p.held, heldPublication{p: q, after: after, try: try, at: p.now()})
}

// release publishes the held publications whose delay passed, in order,
// each with the newest message as its head (SPEC-D11), and sets the
// timer of the next one. The lock is held.
func (p *publishing) release() {
	now := p.now()
	n := 0
	for _, h := range p.held {
		if !p.ended {
			after := h.after
			if h.try >= 0 {
				at, ok := p.moves.MoveAt(h.try)
				if !ok {
					break
				}
				after = int(at)
			}
			if p.moves.Since(after) < p.delay.Moves {
				break
			}
			if now.Sub(h.at) < p.delay.Duration() {
				break
			}
		}
		q := h.p
		head := p.newest
		q.Head = &head
		p.to.Publish(q)
		n++
	}
	p.held = append(p.held[:0], p.held[n:]...)
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	if len(p.held) > 0 && p.delay.Seconds > 0 {
		wait := p.held[0].at.Add(p.delay.Duration()).Sub(now)
		p.timer = time.AfterFunc(max(wait, 0), func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.release()
		})
	}
}

// stop stops the timer of the delay in seconds: the game is closed.
func (p *publishing) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
}

// publishRecord publishes a finished game's record in parts (SPEC-D6).
func publishRecord(to Publisher, game protocol.GameID, data []byte) {
	parts := (len(data) + RecordPartSize - 1) / RecordPartSize
	for i := 0; i < parts; i++ {
		end := min(len(data), (i+1)*RecordPartSize)
		to.Publish(Publication{Game: game, Record: &RecordPart{Part: i, Parts: parts, Data: data[i*RecordPartSize : end]}})
	}
}

// publishAnnouncement publishes the public part of a Phantom Go
// announcement this player was told of try; with a broadcast delay, it is
// held as the newest message is (SPEC-D11).
func (g *Game) publishAnnouncement(try uint64, a phantom.Announcement) {
	p := g.pub
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hold(Publication{Game: g.id, Announcement: &PublicAnnouncement{Try: try, Text: PublicAnnouncementText(a)}}, p.moves.Len()-1, int(try))
	p.release()
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
	if err := protocol.DecodeBody(data, &p); err != nil {
		return p, fmt.Errorf("protocol: publication: %w", err)
	}
	n := 0
	for _, set := range []bool{p.Message != nil, p.Withheld != nil, p.Announcement != nil, p.Record != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return p, fmt.Errorf("%w: publication: %d items, want 1", protocol.ErrMalformed, n)
	}
	return p, nil
}
