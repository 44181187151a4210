// The spectator's checks of the broadcast delay (SPEC-D11): the head
// each publication names, admitted as it comes, judged once the message
// at its position was taken or against the record, and the timing of a
// delay in seconds.

package watch

import (
	"fmt"
	"time"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// headCheck is a publication's head to check once the spectator took
// the message at the head's position, or against the record (SPEC-D11):
// what names the publication; after is the position after which its
// moves count, or try the Phantom Go try of an announcement (after its
// outputs).
type headCheck struct {
	what  string
	after uint64
	try   int64
	head  session.PublicationHead
}

// checkTiming checks a live message or header against a delay in
// seconds (SPEC-D11): a publication whose head came before its position
// tells that its message did not exist yet, so that the delay holds
// every later position until Seconds after it; one that comes less
// than half the delay after it (half: for the ways of the network and
// of the publisher's queue) was published too early, and is named.
func (s *Spectator) checkTiming(p session.Publication) []Line {
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

// sameHead tells whether two publications name the same head.
func sameHead(a, b *session.PublicationHead) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// copyHead checks the head of a copy of a message or header taken
// already (SPEC-D11): every head a publisher gives is its claim, checked
// as the first one's, so that a copy cannot slip a false one by.
func (s *Spectator) copyHead(p session.Publication) []Line {
	return s.copiedHead(s.takenHeads[p.Pos], p.Head, positionedHead(p))
}

// copiedHead checks the head of a copy of a publication taken already,
// whose head was taken (SPEC-D11): a head that differs from it is
// admitted as the first one was (admitHead) and checked as soon as it
// can be; h names the publication and places its moves.
func (s *Spectator) copiedHead(taken, head *session.PublicationHead, h headCheck) []Line {
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
func positionedHead(p session.Publication) headCheck {
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
func (s *Spectator) admitHead(head *session.PublicationHead, h headCheck) string {
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
