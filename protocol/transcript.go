package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// RecordFormat names the record file format (docs/record.md).
const RecordFormat = "kakure-record/1"

// Transcript is the hash-chained, signed record of one game (T-3): the two
// peers' message chains, interleaved in the order the keeper processed them.
type Transcript struct {
	Game     GameID
	Peers    [2]PeerID
	Messages []Message

	// count[r] is how many messages of role r are in Messages; last[r]
	// the hash of r's newest one.
	count [2]uint64
	last  [2]Hash
	// encoded caches the JSON of each message, so that saving the record
	// after every message does not encode the whole game again.
	encoded [][]byte
	// OnAppend, when set, is told every message appended and its
	// position (a game that publishes for spectators, SPEC-2).
	OnAppend func(pos int, m *Message)
}

// NewTranscript starts an empty transcript for a game between the inviter
// and the invitee.
func NewTranscript(game GameID, inviter, invitee PeerID) *Transcript {
	return &Transcript{Game: game, Peers: [2]PeerID{inviter, invitee}}
}

// Next returns the sequence number and previous-hash a new message of role
// r must carry.
func (t *Transcript) Next(r Role) (seq uint64, prev Hash) { return t.count[r], t.last[r] }

// Count returns how many messages of role r the transcript holds.
func (t *Transcript) Count(r Role) uint64 { return t.count[r] }

// AckFor returns the acknowledgement a new message of role r carries: the
// newest message of the other role, or -1 and the zero hash.
func (t *Transcript) AckFor(r Role) (int64, Hash) {
	o := r.Other()
	return int64(t.count[o]) - 1, t.last[o]
}

// Errors of the transcript checks. ErrDuplicate is not a violation: an
// identical copy of a message already held (a retransmission) is dropped.
var (
	ErrDuplicate    = errors.New("protocol: duplicate message")
	ErrWrongGame    = errors.New("protocol: message of another game")
	ErrReplay       = errors.New("protocol: replayed old message")
	ErrEquivocation = errors.New("protocol: two different messages with the same sequence number")
	ErrGap          = errors.New("protocol: message out of order (sequence gap)")
	ErrBrokenChain  = errors.New("protocol: previous-message hash does not match")
	ErrBadAck       = errors.New("protocol: acknowledgement names no message we sent")
	ErrBadRole      = errors.New("protocol: message from an unknown role")
)

// Check tells whether m may be appended: it names this game and a known
// role, is signed by that role's peer, has the next sequence number, chains
// to the sender's previous message and acknowledges a message that exists.
// It does not change the transcript.
func (t *Transcript) Check(m *Message) error {
	if m.From != Inviter && m.From != Invitee {
		return fmt.Errorf("%w: %d", ErrBadRole, m.From)
	}
	if m.Game != t.Game {
		return fmt.Errorf("%w: %s", ErrWrongGame, m.Game)
	}
	if err := m.VerifySignature(t.Peers[m.From]); err != nil {
		return err
	}
	if !canonical(m.Body) {
		return fmt.Errorf("%w: body is not in canonical JSON form", ErrMalformed)
	}
	next := t.count[m.From]
	switch {
	case m.Seq < next:
		old := t.find(m.From, m.Seq)
		if old != nil && old.Hash() == m.Hash() {
			return fmt.Errorf("%w: %s message %d", ErrDuplicate, m.From, m.Seq)
		}
		return fmt.Errorf("%w: %s sent message %d twice with different content", ErrEquivocation, m.From, m.Seq)
	case m.Seq > next:
		return fmt.Errorf("%w: got %d, want %d", ErrGap, m.Seq, next)
	}
	if m.Prev != t.last[m.From] {
		return fmt.Errorf("%w: message %d", ErrBrokenChain, m.Seq)
	}
	other := m.From.Other()
	if m.Ack < -1 || m.Ack >= int64(t.count[other]) {
		return fmt.Errorf("%w: ack %d, %s has sent %d", ErrBadAck, m.Ack, other, t.count[other])
	}
	if m.Ack >= 0 {
		if acked := t.find(other, uint64(m.Ack)); acked == nil || acked.Hash() != m.AckHash {
			return fmt.Errorf("%w: ack hash of message %d does not match", ErrBadAck, m.Ack)
		}
	} else if !m.AckHash.IsZero() {
		return fmt.Errorf("%w: ack hash without ack", ErrBadAck)
	}
	if prevAck := t.lastAck(m.From); m.Ack < prevAck {
		return fmt.Errorf("%w: ack went back from %d to %d", ErrBadAck, prevAck, m.Ack)
	}
	return nil
}

// find returns role r's message with sequence number seq, or nil.
func (t *Transcript) find(r Role, seq uint64) *Message {
	for i := range t.Messages {
		if m := &t.Messages[i]; m.From == r && m.Seq == seq {
			return m
		}
	}
	return nil
}

// Find returns role r's message with sequence number seq, or nil.
func (t *Transcript) Find(r Role, seq uint64) *Message { return t.find(r, seq) }

// lastAck returns the acknowledgement carried by role r's newest message.
func (t *Transcript) lastAck(r Role) int64 {
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].From == r {
			return t.Messages[i].Ack
		}
	}
	return -1
}

// Append checks m and adds it.
func (t *Transcript) Append(m Message) error {
	if err := t.Check(&m); err != nil {
		return err
	}
	t.AppendChecked(m)
	return nil
}

// AppendChecked adds a message that Check has just accepted (or that this
// peer has just signed itself), without checking it again.
func (t *Transcript) AppendChecked(m Message) {
	t.Messages = append(t.Messages, m)
	t.encoded = append(t.encoded, nil)
	t.count[m.From]++
	t.last[m.From] = m.Hash()
	if t.OnAppend != nil {
		t.OnAppend(len(t.Messages)-1, &t.Messages[len(t.Messages)-1])
	}
}

// Clone returns an independent copy of the transcript.
func (t *Transcript) Clone() *Transcript {
	c := *t
	c.Messages = append([]Message(nil), t.Messages...)
	c.encoded = append([][]byte(nil), t.encoded...)
	c.OnAppend = nil
	return &c
}

// encode returns the record file's bytes as a finished record: its
// head, one message per line, and the closing line (see storage.go).
func (t *Transcript) encode() ([]byte, error) {
	head, err := RecordHead(t)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head)
	for i := range t.Messages {
		line, err := t.MessageLine(i)
		if err != nil {
			return nil, err
		}
		b.Write(line)
	}
	b.WriteString(RecordClose)
	return b.Bytes(), nil
}

// RecordFile is the JSON form of a transcript on disk.
type RecordFile struct {
	Format   string    `json:"format"`
	Game     GameID    `json:"game"`
	Peers    [2]string `json:"peers"`
	Messages []Message `json:"messages"`
}

// MarshalJSON writes the record format of docs/record.md.
func (t *Transcript) MarshalJSON() ([]byte, error) { return t.encode() }

// ParseTranscript reads a record and re-checks every message in order, so
// that a damaged or forged file is reported, never used. It reads both
// forms of docs/record.md: the finished JSON document and the log of an
// unfinished game, whose torn last line (a crash while it was written;
// it was never sent) is left out.
func ParseTranscript(data []byte) (*Transcript, error) {
	t, _, err := ParseRecord(data)
	return t, err
}

// RecordState is what reading a record file tells its writer: the
// length of its valid part and whether it ends with the closing line.
type RecordState struct {
	Valid  int64
	Closed bool
	torn   int
}

// ParseRecord reads a record, either form.
func ParseRecord(data []byte) (*Transcript, RecordState, error) {
	if json.Valid(data) {
		t, err := parseRecordDocument(data)
		return t, RecordState{Valid: int64(len(data)), Closed: true}, err
	}
	return parseRecordLog(data)
}

// parseRecordDocument reads a record that is one JSON document.
func parseRecordDocument(data []byte) (*Transcript, error) {
	// A key twice anywhere (in a message as well as in a body) would let
	// two readers read two records from one file.
	if err := noDuplicateKeys(data); err != nil {
		return nil, fmt.Errorf("protocol: record: %w", err)
	}
	var f RecordFile
	if err := UnmarshalStrict(data, &f); err != nil {
		return nil, fmt.Errorf("protocol: record: %w", err)
	}
	// A record always holds its invitation: no "messages" at all is
	// damage too.
	if f.Messages == nil {
		return nil, fmt.Errorf("protocol: record: no messages")
	}
	t, err := newTranscriptOfFile(f)
	if err != nil {
		return nil, err
	}
	for i, m := range f.Messages {
		if err := t.appendRead(i, m); err != nil {
			return t, err
		}
	}
	return t, nil
}

// newTranscriptOfFile starts the transcript a record's head describes.
func newTranscriptOfFile(f RecordFile) (*Transcript, error) {
	if f.Format != RecordFormat {
		return nil, fmt.Errorf("protocol: record: format %q, want %q", f.Format, RecordFormat)
	}
	var peers [2]PeerID
	for i, s := range f.Peers {
		id, err := ParsePeerID(s)
		if err != nil {
			return nil, fmt.Errorf("protocol: record: peer %d: %w", i, err)
		}
		peers[i] = id
	}
	return NewTranscript(f.Game, peers[0], peers[1]), nil
}

// appendRead checks and appends message i of a record being read. The
// body is checked as it stands in the file: the exact bytes that were
// signed, in their one canonical form (no white space, no key twice).
func (t *Transcript) appendRead(i int, m Message) error {
	if err := t.Append(m); err != nil {
		return fmt.Errorf("protocol: record: message %d (%s %d %s): %w", i, m.From, m.Seq, m.Kind, err)
	}
	return nil
}

// ErrNoGame reports a record log whose first message never reached the
// disk whole: the invitation was never sent, there is no game.
var ErrNoGame = errors.New("protocol: record: the log holds no message (its first was torn)")

// parseRecordLog reads the log of an unfinished game: the head line
// (the document up to its list of messages), one line per message (the
// first after a space, the others after a comma) and perhaps the closing
// line. Bytes after the last newline are a torn tail and left out; any
// complete line must be whole.
func parseRecordLog(data []byte) (*Transcript, RecordState, error) {
	lines, valid := SplitLog(data)
	st := RecordState{Valid: int64(valid), torn: len(data) - valid}
	if len(lines) == 0 {
		return nil, st, ErrNoGame
	}
	head := lines[0]
	const open = `"messages":[`
	if !bytes.HasSuffix(head, []byte(open)) {
		return nil, st, fmt.Errorf("protocol: record: the first line is not a record's head")
	}
	if err := noDuplicateKeys(append(bytes.Clone(head[:len(head)-len(open)]), `"messages":[]}`...)); err != nil {
		return nil, st, fmt.Errorf("protocol: record: head: %w", err)
	}
	var f RecordFile
	if err := UnmarshalStrict(append(bytes.Clone(head[:len(head)-len(open)]), `"messages":[]}`...), &f); err != nil {
		return nil, st, fmt.Errorf("protocol: record: head: %w", err)
	}
	t, err := newTranscriptOfFile(f)
	if err != nil {
		return nil, st, err
	}
	if len(lines) == 1 {
		return nil, st, ErrNoGame
	}
	for i, line := range lines[1:] {
		if string(line) == strings.TrimSuffix(RecordClose, "\n") && i == len(lines)-2 && i > 0 {
			st.Closed = true
			break
		}
		sep := byte(',')
		if i == 0 {
			sep = ' '
		}
		if len(line) == 0 || line[0] != sep {
			return t, st, fmt.Errorf("protocol: record: line %d: does not start with %q", i+2, sep)
		}
		var m Message
		if err := noDuplicateKeys(line[1:]); err != nil {
			return t, st, fmt.Errorf("protocol: record: message %d: %w", i, err)
		}
		if err := UnmarshalStrict(line[1:], &m); err != nil {
			return t, st, fmt.Errorf("protocol: record: message %d: %w", i, err)
		}
		if err := t.appendRead(i, m); err != nil {
			return t, st, err
		}
	}
	return t, st, nil
}

// UnmarshalStrict decodes a file this program wrote (a record, a secrets
// file) into v like json.Unmarshal, but refuses keys v does not have: a
// damaged key ("messages" with a byte changed) would otherwise read as a
// file without that key, its value silently lost (T-3, T-11).
func UnmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the end")
	}
	return nil
}

// RecordHead is the first line of a record, up to the list of messages.
func RecordHead(t *Transcript) ([]byte, error) {
	head, err := json.Marshal(RecordFile{Format: RecordFormat, Game: t.Game,
		Peers: [2]string{t.Peers[0].String(), t.Peers[1].String()}})
	if err != nil {
		return nil, fmt.Errorf("protocol: encode record: %w", err)
	}
	// head ends with "messages":null} — replace that with the list.
	const tail = `"messages":null}`
	if !bytes.HasSuffix(head, []byte(tail)) {
		return nil, fmt.Errorf("protocol: encode record: unexpected header %s", head)
	}
	return append(head[:len(head)-len(tail)], `"messages":[`+"\n"...), nil
}

// RecordClose is the last line of a finished record: with it the log is
// the JSON document of docs/record.md.
const RecordClose = "]}\n"

// MessageLine returns the line of message i: " " and the message for the
// first, "," and the message for the others, and a newline.
func (t *Transcript) MessageLine(i int) ([]byte, error) {
	if t.encoded[i] == nil {
		enc, err := json.Marshal(&t.Messages[i])
		if err != nil {
			return nil, fmt.Errorf("protocol: encode record: message %d: %w", i, err)
		}
		t.encoded[i] = enc
	}
	sep := byte(',')
	if i == 0 {
		sep = ' '
	}
	line := make([]byte, 0, len(t.encoded[i])+2)
	line = append(line, sep)
	line = append(line, t.encoded[i]...)
	return append(line, '\n'), nil
}

// SplitLog splits data into complete lines (each without its newline)
// and the torn tail after the last newline.
func SplitLog(data []byte) (lines [][]byte, valid int) {
	for valid < len(data) {
		i := bytes.IndexByte(data[valid:], '\n')
		if i < 0 {
			break
		}
		lines = append(lines, data[valid:valid+i])
		valid += i + 1
	}
	return lines, valid
}
