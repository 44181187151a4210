package protocol

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// GameProtocol is the libp2p protocol ID of kakure games. The version is
// part of the ID: a peer that speaks another version is told so (T-2).
// It versions what travels on the stream (frames, their kinds and caps);
// the messages the records keep have their own version (Version). 1.1.0
// added the report frame (MPC-D31 in docs/mpc.md), which a program of
// 1.0.0 would drop: the two refuse each other at the first stream.
const GameProtocol = "/kakure/game/1.1.0"

// GameProtocolPrefix is what every version of the game protocol starts
// with; it is used to tell "another version" from "not kakure at all".
const GameProtocolPrefix = "/kakure/game/"

// MaxFrameSize caps one framed message on a game stream. Game messages are
// small; the secure computation of Phantom Go uses its own stream.
const MaxFrameSize = 256 << 10

// ErrFrameTooLarge reports a frame above the cap; the stream is reset.
var ErrFrameTooLarge = errors.New("protocol: message above the size cap")

// WriteFrame writes one frame of a game stream: WriteFrameWithin with the
// game's cap, MaxFrameSize.
func WriteFrame(w io.Writer, p []byte) error { return WriteFrameWithin(w, p, MaxFrameSize) }

// WriteFrameWithin writes p as one frame of kakure's length-delimited framing
// (the length as an unsigned varint, then the bytes), the framing of the
// game streams and of kakure's other stream protocols (protocol/watch's
// backlog and listing of live games, LIM-D12). A frame above limit, the
// cap its reader's ReadFrame enforces, is not written: an error that
// wraps ErrFrameTooLarge says so on the writer's side.
func WriteFrameWithin(w io.Writer, p []byte, limit int) error {
	if len(p) > limit {
		return fmt.Errorf("%w: %d bytes (cap %d)", ErrFrameTooLarge, len(p), limit)
	}
	return WriteFrameUnchecked(w, p)
}

// WriteFrameUnchecked writes a frame without a cap; only tests that play
// a peer ignoring the cap use it.
func WriteFrameUnchecked(w io.Writer, p []byte) error {
	var head [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(len(p)))
	if _, err := w.Write(append(head[:n:n], p...)); err != nil {
		return fmt.Errorf("protocol: write frame: %w", err)
	}
	return nil
}

// ReadFrame reads one frame of kakure's framing (WriteFrameWithin) of
// at most limit bytes. A longer frame is refused before its body is
// read, with an error that wraps ErrFrameTooLarge; a stream that ends
// before the frame's length is io.EOF.
func ReadFrame(r *bufio.Reader, limit int) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("protocol: read frame length: %w", err)
	}
	if n > uint64(limit) {
		return nil, fmt.Errorf("%w: a frame of %d bytes announced (cap %d)", ErrFrameTooLarge, n, limit)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return nil, fmt.Errorf("protocol: read frame body: %w", err)
	}
	return p, nil
}

// MaxBulkSize caps one bulk frame: a large attachment of a message (the
// garbled tables of a Phantom Go try), sent as its own binary frame before
// the signed message that names its hash.
const MaxBulkSize = 8 << 20

// BulkMarker is the first byte of a bulk frame; message frames are JSON
// and start with '{'.
const BulkMarker = 'B'

// MaxReportSize caps one report frame: a signed violation report whose
// evidence does not fit a message frame (a certificate of T-8 of a large
// board or λ, MPC-D31 in docs/mpc.md), sent as its own frame. Its bytes
// are counted against the attachment budget before they are allocated,
// as a bulk frame's.
const MaxReportSize = MaxBulkSize

// ReportMarker is the first byte of a report frame: the marker, then the
// JSON frame of a violation message.
const ReportMarker = 'R'

// FrameKind is what a frame of a game stream is, from its first byte: a
// message frame (JSON), a bulk frame (an attachment) or a report frame (a
// violation message above MaxFrameSize).
type FrameKind uint8

// The kinds of frames.
const (
	FrameMessage FrameKind = iota
	FrameBulk
	FrameReport
)

// readGameFrame reads one frame of a game stream: a JSON frame of at most
// MaxFrameSize bytes, a bulk frame (bulkMarker, then the data) of at most
// MaxBulkSize data bytes, or a report frame (reportMarker, then a JSON
// frame) of at most MaxReportSize. The cap is chosen from the frame's
// first byte before the body is read.
func readGameFrame(r *bufio.Reader) (raw []byte, kind FrameKind, err error) {
	return readGameFrameWith(r, nil)
}

// readGameFrameWith is readGameFrame with admit (if not nil) called once
// the frame's length and kind are known, before its body is allocated; an
// error it returns is returned and the body is not read.
func readGameFrameWith(r *bufio.Reader, admit func(n uint64, kind FrameKind) error) (raw []byte, kind FrameKind, err error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, FrameMessage, io.EOF
		}
		return nil, FrameMessage, fmt.Errorf("protocol: read frame length: %w", err)
	}
	if n == 0 {
		return nil, FrameMessage, fmt.Errorf("%w: empty frame", ErrMalformed)
	}
	first, err := r.Peek(1)
	if err != nil {
		return nil, FrameMessage, fmt.Errorf("protocol: read frame body: %w", err)
	}
	limit := uint64(MaxFrameSize)
	switch first[0] {
	case BulkMarker:
		limit, kind = MaxBulkSize+1, FrameBulk
	case ReportMarker:
		limit, kind = MaxReportSize+1, FrameReport
	}
	if n > limit {
		return nil, FrameMessage, fmt.Errorf("%w: %d bytes announced (cap %d)", ErrFrameTooLarge, n, limit)
	}
	if admit != nil {
		if err := admit(n, kind); err != nil {
			return nil, kind, err
		}
	}
	raw = make([]byte, n)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, FrameMessage, fmt.Errorf("protocol: read frame body: %w", err)
	}
	return raw, kind, nil
}

// WriteBulkFrame writes data as a bulk frame.
func WriteBulkFrame(w io.Writer, data []byte) error {
	if len(data) > MaxBulkSize {
		return fmt.Errorf("%w: attachment of %d bytes (cap %d)", ErrFrameTooLarge, len(data), MaxBulkSize)
	}
	return WriteFrameUnchecked(w, append([]byte{BulkMarker}, data...))
}

// WriteReportFrame writes the JSON frame of a violation message as a
// report frame.
func WriteReportFrame(w io.Writer, raw []byte) error {
	if len(raw) > MaxReportSize {
		return fmt.Errorf("%w: report of %d bytes (cap %d)", ErrFrameTooLarge, len(raw), MaxReportSize)
	}
	return WriteFrameUnchecked(w, append([]byte{ReportMarker}, raw...))
}

// Hello is the first frame each side sends on a stream: the game, and how
// many messages of each role the sender holds, so that the other side
// sends what is missing.
type Hello struct {
	Game GameID    `json:"game"`
	Have [2]uint64 `json:"have"`
}

// Frame is what travels on a game stream.
type Frame struct {
	Hello *Hello   `json:"hello,omitempty"`
	Msg   *Message `json:"msg,omitempty"`
	Ping  bool     `json:"ping,omitempty"`
	// Bulk is the data of a bulk frame (never JSON).
	Bulk []byte `json:"-"`
	// Report tells that the frame came as a report frame: a violation
	// message above MaxFrameSize (MPC-D31).
	Report bool `json:"-"`
}

// EncodeFrame returns the JSON of frame f, the body of a frame on a game
// stream (WriteFrame adds its length).
func EncodeFrame(f Frame) ([]byte, error) { return json.Marshal(f) }

// noReports refuses a report frame before its body is read: a reader of
// single frames (the judge's evidence) takes message frames only.
func noReports(_ uint64, kind FrameKind) error {
	if kind == FrameReport {
		return fmt.Errorf("%w: a report frame", ErrMalformed)
	}
	return nil
}

// ReadFrameJSON reads and decodes one frame; a report frame is refused.
func ReadFrameJSON(r *bufio.Reader) (Frame, []byte, error) {
	return ReadFrameJSONWith(r, noReports)
}

// ReadFrameJSONWith is readFrameJSON with admit (if not nil) called with
// the frame's length and kind before its body is allocated and read; an
// error it returns is returned. The raw bytes of a report frame are its
// JSON, without the marker.
func ReadFrameJSONWith(r *bufio.Reader, admit func(n uint64, kind FrameKind) error) (Frame, []byte, error) {
	raw, kind, err := readGameFrameWith(r, admit)
	if err != nil {
		return Frame{}, raw, err
	}
	switch kind {
	case FrameBulk:
		return Frame{Bulk: raw[1:]}, nil, nil
	case FrameReport:
		raw = raw[1:]
	}
	var f Frame
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Frame{}, raw, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	f.Report = kind == FrameReport
	return f, raw, nil
}
