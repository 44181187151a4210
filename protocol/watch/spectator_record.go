// The spectator's record: its parts joined, and the whole checked as
// `kakure verify` does and against every publication taken (SPEC-4,
// SPEC-D6, SPEC-D7).

package watch

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kakure/kakure/protocol/phantomrules"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// takeRecordPart joins the parts of the record and checks the whole
// record once it is complete (SPEC-4, SPEC-D6).
func (s *Spectator) takeRecordPart(r session.RecordPart) []Line {
	if s.done {
		return nil
	}
	if r.Parts <= 0 || r.Part < 0 || r.Part >= r.Parts || r.Parts*session.RecordPartSize > maxRecord {
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
		if t.Messages[i].Kind == phantomrules.KindOutputs {
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
		want, err := session.PublicAnnouncements(t)
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
