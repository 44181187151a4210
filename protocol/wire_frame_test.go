package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestLIMD12ReadFrameCap: a frame WriteFrameWithin wrote reads back whole up to
// the reader's limit; one byte over, WriteFrameWithin refuses to write it and
// ReadFrame refuses it from its length, before its body came (the body
// here never comes); a stream that ends between frames is io.EOF. The
// watch's backlog and listing frame with these (LIM-D12).
func TestLIMD12ReadFrameCap(t *testing.T) {
	const limit = 100
	var b bytes.Buffer
	for _, n := range []int{0, 1, limit} {
		if err := WriteFrameWithin(&b, bytes.Repeat([]byte{'x'}, n), limit); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(&b)
	for _, n := range []int{0, 1, limit} {
		p, err := ReadFrame(r, limit)
		if err != nil || len(p) != n {
			t.Fatalf("a frame of %d bytes read back as %d bytes: %v", n, len(p), err)
		}
	}
	if _, err := ReadFrame(r, limit); !errors.Is(err, io.EOF) {
		t.Errorf("the end of the stream between frames: %v, want io.EOF", err)
	}
	// Only the length of a frame over the limit: refused without its body.
	b.Reset()
	if err := WriteFrameWithin(&b, bytes.Repeat([]byte{'x'}, limit+1), limit); !errors.Is(err, ErrFrameTooLarge) || b.Len() != 0 {
		t.Errorf("WriteFrameWithin of %d bytes, limit %d: %v and %d bytes written, want ErrFrameTooLarge and nothing", limit+1, limit, err, b.Len())
	}
	if err := WriteFrameUnchecked(&b, bytes.Repeat([]byte{'x'}, limit+1)); err != nil {
		t.Fatal(err)
	}
	head := b.Bytes()[:1]
	_, err := ReadFrame(bufio.NewReader(bytes.NewReader(head)), limit)
	if !errors.Is(err, ErrFrameTooLarge) || !strings.Contains(err.Error(), "a frame of 101 bytes") {
		t.Errorf("a frame of %d bytes, limit %d: %v, want ErrFrameTooLarge naming its size", limit+1, limit, err)
	}
}
