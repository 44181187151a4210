package ot

// The messages of the OT extension: the headers of a batch's request
// and reply, and their parsing.

import (
	"encoding/binary"
	"fmt"
)

// RequestHeader returns the batch number and the count m of a request,
// checking its kind and its size (RequestSizeKappa(κ, m), κ the one its
// kind names); it does not run the consistency check.
func RequestHeader(request []byte) (uint32, int, error) {
	kappa := RequestColumns(request)
	if kappa == 0 {
		return 0, 0, fmt.Errorf("%w: a request of %d bytes", ErrMessage, len(request))
	}
	batch := binary.BigEndian.Uint32(request[3:])
	m, _, _, err := parseRequest(request, batch, kappa)
	return batch, m, err
}

// RequestColumns returns the number of columns κ of a request as its
// kind names it, Kappa or KappaMAC, or 0 when it is not a request.
func RequestColumns(request []byte) int {
	if len(request) < batchHeader || request[0] != msgMagic || request[1] != msgVersion {
		return 0
	}
	switch request[2] {
	case kindRequest:
		return Kappa
	case kindRequestMAC:
		return KappaMAC
	}
	return 0
}

// batchHeader is magic, version, kind, batch number (u32) and count (u32).
const batchHeader = 3 + 4 + 4

func batchMsgHeader(kind byte, batch uint32, m int) []byte {
	h := make([]byte, batchHeader)
	h[0], h[1], h[2] = msgMagic, msgVersion, kind
	binary.BigEndian.PutUint32(h[3:], batch)
	binary.BigEndian.PutUint32(h[7:], uint32(m))
	return h
}

func replyHeader(batch uint32, m int) []byte {
	h := batchMsgHeader(kindReply, batch, m)
	return append(make([]byte, 0, ReplySize(m)), h...)
}

// parseBatchHeader checks the header of a batch message and returns its
// count.
func parseBatchHeader(msg []byte, kind byte, batch uint32) (int, error) {
	if len(msg) < batchHeader || msg[0] != msgMagic || msg[1] != msgVersion || msg[2] != kind {
		return 0, fmt.Errorf("%w: bad OT extension header", ErrMessage)
	}
	if got := binary.BigEndian.Uint32(msg[3:]); got != batch {
		return 0, fmt.Errorf("%w: batch %d, expected %d", ErrMessage, got, batch)
	}
	m := binary.BigEndian.Uint32(msg[7:])
	if m == 0 || m > MaxBatch {
		return 0, fmt.Errorf("%w: batch of %d OTs", ErrMessage, m)
	}
	return int(m), nil
}

// requestKind is the kind of the requests of an extension of kappa
// columns.
func requestKind(kappa int) byte {
	if kappa == KappaMAC {
		return kindRequestMAC
	}
	return kindRequest
}

// parseRequest checks a request of an extension of kappa columns and
// returns its count, its columns (columnBytes(m) bytes each) and its
// check values x ‖ t.
func parseRequest(msg []byte, batch uint32, kappa int) (int, []byte, []byte, error) {
	m, err := parseBatchHeader(msg, requestKind(kappa), batch)
	if err != nil {
		return 0, nil, nil, err
	}
	if len(msg) != RequestSizeKappa(kappa, m) {
		return 0, nil, nil, fmt.Errorf("%w: request of %d bytes for %d OTs", ErrMessage, len(msg), m)
	}
	end := batchHeader + kappa*columnBytes(m)
	return m, msg[batchHeader:end], msg[end:], nil
}

func checkReply(msg []byte, batch uint32, want int) error {
	m, err := parseBatchHeader(msg, kindReply, batch)
	if err != nil {
		return err
	}
	if m != want || len(msg) != ReplySize(m) {
		return fmt.Errorf("%w: reply of %d bytes for %d OTs, expected %d", ErrMessage, len(msg), m, want)
	}
	return nil
}
