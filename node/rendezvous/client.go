package rendezvous

import (
	"bufio"
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Register registers sr, a record signed by h's own key (see Sign), on
// the rendezvous server of relay, which h dials if it is not connected.
// Errors wrap ErrTaken when another peer holds the code, ErrRefused when
// the relay is full, ErrBadRecord when it rejects the record.
func Register(ctx context.Context, h host.Host, relay peer.ID, sr SignedRecord) error {
	_, err := roundTrip(ctx, h, relay, request{Op: opRegister, Record: &sr})
	return err
}

// Lookup asks the rendezvous server of relay who hosts code and checks
// the answer: a record for that very code, signed by the peer it names,
// not expired. It returns the record and the peer's ID and addresses.
// Errors wrap ErrBadCode for a code that is not one, ErrNotFound when
// nobody hosts it, ErrBadRecord for an answer that does not check.
func Lookup(ctx context.Context, h host.Host, relay peer.ID, code string) (Record, peer.AddrInfo, error) {
	code, err := ParseCode(code)
	if err != nil {
		return Record{}, peer.AddrInfo{}, err
	}
	resp, err := roundTrip(ctx, h, relay, request{Op: opLookup, Code: code})
	if err != nil {
		return Record{}, peer.AddrInfo{}, err
	}
	if resp.Record == nil {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: the relay answered without a record", ErrBadRecord)
	}
	rec, info, err := resp.Record.Open(time.Now())
	if err != nil {
		return Record{}, peer.AddrInfo{}, err
	}
	if rec.Code != code {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: the relay answered %q with a record for %q", ErrBadRecord, code, rec.Code)
	}
	return rec, info, nil
}

// Unregister withdraws h's code from the rendezvous server of relay.
// Withdrawing a code nobody holds is not an error.
func Unregister(ctx context.Context, h host.Host, relay peer.ID, code string) error {
	code, err := ParseCode(code)
	if err != nil {
		return err
	}
	_, err = roundTrip(ctx, h, relay, request{Op: opUnregister, Code: code})
	return err
}

// roundTrip sends req to relay on a new stream and returns the response,
// or the error its status stands for.
func roundTrip(ctx context.Context, h host.Host, relay peer.ID, req request) (response, error) {
	st, err := h.NewStream(ctx, relay, ProtocolID)
	if err != nil {
		return response{}, fmt.Errorf("rendezvous: opening a stream to relay %s: %w", relay, err)
	}
	deadline := time.Now().Add(streamTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	st.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { st.Reset() })
	defer stop()
	if err := writeMessage(st, req); err != nil {
		st.Reset()
		return response{}, fmt.Errorf("rendezvous: sending to relay %s: %w", relay, err)
	}
	st.CloseWrite()
	var resp response
	if err := readMessage(bufio.NewReader(st), &resp); err != nil {
		st.Reset()
		if ctx.Err() != nil {
			return response{}, ctx.Err()
		}
		return response{}, fmt.Errorf("rendezvous: reading the answer of relay %s: %w", relay, err)
	}
	st.Close()
	return resp, resp.err()
}
