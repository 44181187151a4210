package protocol

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"testing"
)

// TestT10FrameCaps: message frames are capped at MaxFrameSize, bulk
// frames at MaxBulkSize and report frames (MPC-D31) at MaxReportSize,
// each judged before its body is read; an empty frame is malformed.
func TestT10FrameCaps(t *testing.T) {
	t.Parallel()
	frameOf := func(body []byte) *bufio.Reader {
		var b bytes.Buffer
		if err := WriteFrameUnchecked(&b, body); err != nil {
			t.Fatal(err)
		}
		return bufio.NewReader(&b)
	}
	bulk := func(n int) []byte { return append([]byte{BulkMarker}, make([]byte, n)...) }
	report := func(n int) []byte { return append([]byte{ReportMarker}, make([]byte, n)...) }
	json := func(n int) []byte { return append([]byte("{"), bytes.Repeat([]byte(" "), n-1)...) }
	cases := []struct {
		name     string
		body     []byte
		wantKind FrameKind
		wantErr  error
	}{
		{"message at the cap", json(MaxFrameSize), FrameMessage, nil},
		{"message above the cap", json(MaxFrameSize + 1), FrameMessage, ErrFrameTooLarge},
		{"bulk at the cap", bulk(MaxBulkSize), FrameBulk, nil},
		{"bulk above the cap", bulk(MaxBulkSize + 1), FrameMessage, ErrFrameTooLarge},
		{"report at the cap", report(MaxReportSize), FrameReport, nil},
		{"report above the cap", report(MaxReportSize + 1), FrameMessage, ErrFrameTooLarge},
		{"zeros above the message cap", make([]byte, MaxFrameSize+1), FrameMessage, ErrFrameTooLarge},
		{"empty", nil, FrameMessage, ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, kind, err := readGameFrame(frameOf(c.body))
			if !errors.Is(err, c.wantErr) {
				t.Fatalf("error %v, want %v", err, c.wantErr)
			}
			if err == nil && (kind != c.wantKind || len(raw) != len(c.body)) {
				t.Errorf("kind %v len %d, want %v %d", kind, len(raw), c.wantKind, len(c.body))
			}
		})
	}
}

// TestMPCD31ReportFrameRefusedFromItsHeader (LIM-D10, MPC-D31): a report
// frame is judged from its header alone. One announced above
// MaxReportSize, or one the admit callback refuses (the attachment
// budget, a game without certificates, the judge's
// reader of single frames), is refused without its body being read or
// allocated: the stream below holds the header and the marker only, so
// a reader that went on would fail on the missing body instead, and the
// bytes allocated stay far below the announced size. (A stream's
// handshake, which refuses report frames too: session's
// TestMPCD31HandshakeRefusesReportFrames.)
func TestMPCD31ReportFrameRefusedFromItsHeader(t *testing.T) {
	headerOnly := func(n uint64) *bufio.Reader {
		return bufio.NewReader(bytes.NewReader(append(binary.AppendUvarint(nil, n), ReportMarker)))
	}
	budget := errors.New("over the budget")
	cases := []struct {
		name    string
		n       uint64
		read    func(r *bufio.Reader) error
		wantErr error
	}{
		{"above the cap", MaxReportSize + 2, func(r *bufio.Reader) error {
			_, _, err := readGameFrameWith(r, func(uint64, FrameKind) error { t.Error("admit called above the cap"); return nil })
			return err
		}, ErrFrameTooLarge},
		{"over the budget", MaxReportSize, func(r *bufio.Reader) error {
			_, _, err := readGameFrameWith(r, func(n uint64, kind FrameKind) error {
				if kind != FrameReport || n != MaxReportSize {
					t.Errorf("admit(%d, %v), want a report frame of %d", n, kind, MaxReportSize)
				}
				return budget
			})
			return err
		}, budget},
		{"as evidence", MaxReportSize, func(r *bufio.Reader) error {
			_, _, err := ReadFrameJSON(r)
			return err
		}, ErrMalformed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := c.read(headerOnly(c.n))
			runtime.ReadMemStats(&after)
			if !errors.Is(err, c.wantErr) || errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("error %v, want %v (without reading the body)", err, c.wantErr)
			}
			// Other tests' goroutines allocate meanwhile: the bound is
			// half the frame, far above them and below the body.
			if grew := after.TotalAlloc - before.TotalAlloc; grew >= MaxReportSize/2 {
				t.Errorf("%d bytes allocated for a refused report frame of %d", grew, c.n)
			}
		})
	}
}
