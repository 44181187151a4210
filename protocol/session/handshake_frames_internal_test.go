package session

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/kakure/kakure/protocol"
)

// TestMPCD31HandshakeRefusesReportFrames (LIM-D10, MPC-D31): a stream's
// handshake reads its frames with noBulk, which refuses a report frame
// from its header alone: the stream below holds the header and the
// marker only, so a reader that went on would fail on the missing body.
func TestMPCD31HandshakeRefusesReportFrames(t *testing.T) {
	for _, kind := range []byte{protocol.BulkMarker, protocol.ReportMarker} {
		r := bufio.NewReader(bytes.NewReader(append(binary.AppendUvarint(nil, 1<<10), kind)))
		_, _, err := protocol.ReadFrameJSONWith(r, noBulk)
		if !errors.Is(err, protocol.ErrMalformed) || errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("marker %q: error %v, want %v (without reading the body)", kind, err, protocol.ErrMalformed)
		}
	}
}
