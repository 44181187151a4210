package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"testing"
)

// TestT10FrameCaps: message frames are capped at MaxFrameSize and bulk
// frames at MaxBulkSize, each judged before its body is read; an empty
// frame is malformed.
func TestT10FrameCaps(t *testing.T) {
	t.Parallel()
	frameOf := func(body []byte) *bufio.Reader {
		var b bytes.Buffer
		if err := writeFrameUnchecked(&b, body); err != nil {
			t.Fatal(err)
		}
		return bufio.NewReader(&b)
	}
	bulk := func(n int) []byte { return append([]byte{bulkMarker}, make([]byte, n)...) }
	json := func(n int) []byte { return append([]byte("{"), bytes.Repeat([]byte(" "), n-1)...) }
	cases := []struct {
		name     string
		body     []byte
		wantBulk bool
		wantErr  error
	}{
		{"message at the cap", json(MaxFrameSize), false, nil},
		{"message above the cap", json(MaxFrameSize + 1), false, ErrFrameTooLarge},
		{"bulk at the cap", bulk(MaxBulkSize), true, nil},
		{"bulk above the cap", bulk(MaxBulkSize + 1), false, ErrFrameTooLarge},
		{"zeros above the message cap", make([]byte, MaxFrameSize+1), false, ErrFrameTooLarge},
		{"empty", nil, false, ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, isBulk, err := readGameFrame(frameOf(c.body))
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("error %v, want %v", err, c.wantErr)
			}
			if err == nil && (isBulk != c.wantBulk || len(raw) != len(c.body)) {
				t.Errorf("bulk %v len %d, want %v %d", isBulk, len(raw), c.wantBulk, len(c.body))
			}
		})
	}
}
