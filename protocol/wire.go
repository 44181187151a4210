package protocol

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// GameProtocol is the libp2p protocol ID of kakure games. The version is
// part of the ID: a peer that speaks another version is told so (T-2).
const GameProtocol = "/kakure/game/1.0.0"

// GameProtocolPrefix is what every version of the game protocol starts
// with; it is used to tell "another version" from "not kakure at all".
const GameProtocolPrefix = "/kakure/game/"

// MaxFrameSize caps one framed message on a game stream. Game messages are
// small; the secure computation of Phantom Go uses its own stream.
const MaxFrameSize = 256 << 10

// ErrFrameTooLarge reports a frame above the cap; the stream is reset.
var ErrFrameTooLarge = errors.New("protocol: message above the size cap")

// writeFrame writes one length-delimited frame: the length as an unsigned
// varint, then the bytes.
func writeFrame(w io.Writer, p []byte) error {
	if len(p) > MaxFrameSize {
		return fmt.Errorf("%w: %d bytes (cap %d)", ErrFrameTooLarge, len(p), MaxFrameSize)
	}
	return writeFrameUnchecked(w, p)
}

// writeFrameUnchecked writes a frame without the cap; only the send path
// uses it, after checking, and tests that play a peer ignoring the cap.
func writeFrameUnchecked(w io.Writer, p []byte) error {
	var head [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(len(p)))
	if _, err := w.Write(append(head[:n:n], p...)); err != nil {
		return fmt.Errorf("protocol: write frame: %w", err)
	}
	return nil
}

// readFrame reads one frame of at most limit bytes. A longer frame is
// refused before its body is read.
func readFrame(r *bufio.Reader, limit int) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("protocol: read frame length: %w", err)
	}
	if n > uint64(limit) {
		return nil, fmt.Errorf("%w: %d bytes announced (cap %d)", ErrFrameTooLarge, n, limit)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		return nil, fmt.Errorf("protocol: read frame body: %w", err)
	}
	return p, nil
}
