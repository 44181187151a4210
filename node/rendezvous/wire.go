package rendezvous

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/libp2p/go-libp2p/core/protocol"
)

// ProtocolID is the rendezvous protocol: one request and one response on
// a stream, each a JSON object preceded by its length as an unsigned
// varint.
const ProtocolID = protocol.ID("/kakure/rendezvous/1.0.0")

// maxMessageSize bounds every message read: a record with MaxAddrs long
// addresses and its signature fit easily.
const maxMessageSize = 16 << 10

// Operations of a request.
const (
	opRegister   = "register"
	opLookup     = "lookup"
	opUnregister = "unregister"
)

// Statuses of a response.
const (
	statusOK         = "ok"
	statusNotFound   = "not-found"
	statusTaken      = "taken"
	statusBadRequest = "bad-request"
	statusRefused    = "refused"
)

// request is what a client sends.
type request struct {
	Op     string        `json:"op"`
	Code   string        `json:"code,omitempty"`   // lookup, unregister
	Record *SignedRecord `json:"record,omitempty"` // register
}

// response is what the server answers.
type response struct {
	Status  string        `json:"status"`
	Message string        `json:"message,omitempty"`
	Record  *SignedRecord `json:"record,omitempty"` // lookup
}

var (
	// ErrNotFound means no peer hosts the code on this relay (or its
	// record expired).
	ErrNotFound = errors.New("rendezvous: no peer hosts this invite code")
	// ErrTaken means another peer holds the code on this relay.
	ErrTaken = errors.New("rendezvous: the invite code is taken")
	// ErrRefused means the relay refused the request: it holds too many
	// codes, or the request was not allowed (unregistering another
	// peer's code).
	ErrRefused = errors.New("rendezvous: the relay refused the request")
)

// err returns the error a response stands for.
func (r response) err() error {
	switch r.Status {
	case statusOK:
		return nil
	case statusNotFound:
		return ErrNotFound
	case statusTaken:
		return ErrTaken
	case statusRefused:
		return fmt.Errorf("%w: %s", ErrRefused, r.Message)
	case statusBadRequest:
		return fmt.Errorf("%w: the relay says: %s", ErrBadRecord, r.Message)
	default:
		return fmt.Errorf("rendezvous: unknown status %q from the relay: %s", r.Status, r.Message)
	}
}

// writeMessage writes v as a length-prefixed JSON object.
func writeMessage(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(b) > maxMessageSize {
		return fmt.Errorf("rendezvous: message of %d bytes exceeds %d", len(b), maxMessageSize)
	}
	buf := binary.AppendUvarint(make([]byte, 0, len(b)+3), uint64(len(b)))
	_, err = w.Write(append(buf, b...))
	return err
}

// readMessage reads one length-prefixed JSON object into v, refusing
// messages longer than maxMessageSize and unknown fields.
func readMessage(r *bufio.Reader, v any) error {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return err
	}
	if n > maxMessageSize {
		return fmt.Errorf("rendezvous: message of %d bytes exceeds %d", n, maxMessageSize)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
