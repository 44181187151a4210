package rendezvous

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"time"

	"github.com/ipfs/go-cid"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/multiformats/go-multihash"
)

// dhtKeyDomain is hashed before the code into its DHT key, so that the
// key of a code is kakure's alone.
const dhtKeyDomain = "kakure/invite/dht/v1\n"

// DHTKey returns the DHT key under which the host of code announces
// itself as a provider (NET-D17): a CIDv1 (raw) of the SHA-256 of a
// domain string and the canonical code. The key hides nothing: with 2^24
// codes anyone recovers the code from it in seconds.
func DHTKey(code string) (cid.Cid, error) {
	code, err := ParseCode(code)
	if err != nil {
		return cid.Undef, err
	}
	sum := sha256.Sum256([]byte(dhtKeyDomain + code))
	mh, err := multihash.Encode(sum[:], multihash.SHA2_256)
	if err != nil {
		return cid.Undef, fmt.Errorf("rendezvous: DHT key: %w", err)
	}
	return cid.NewCidV1(cid.Raw, mh), nil
}

// ServeOwnCodes answers the rendezvous protocol on h for the codes h
// hosts itself, found over the DHT (NET-D17): a lookup gets the record
// record(code) returns, signed by h, or not-found; registering and
// unregistering are refused. A guest who found h as a provider of a
// code's key looks the code up at h with Lookup, so the record it gets is
// the one the peer it talks to signed. The returned function stops
// serving.
func ServeOwnCodes(h host.Host, record func(code string) (SignedRecord, bool)) func() {
	h.SetStreamHandler(ProtocolID, func(st network.Stream) {
		if err := st.Scope().SetService(serviceName); err != nil {
			st.Reset()
			return
		}
		if err := st.Scope().ReserveMemory(2*maxMessageSize, network.ReservationPriorityAlways); err != nil {
			st.Reset()
			return
		}
		defer st.Scope().ReleaseMemory(2 * maxMessageSize)
		st.SetDeadline(time.Now().Add(streamTimeout))
		var req request
		if err := readMessage(bufio.NewReader(st), &req); err != nil {
			writeMessage(st, response{Status: statusBadRequest, Message: "unreadable request"})
			st.Reset()
			return
		}
		resp := response{Status: statusRefused, Message: "this peer is no relay: it answers lookups of its own codes only"}
		if req.Op == opLookup {
			code, err := ParseCode(req.Code)
			switch {
			case err != nil:
				resp = response{Status: statusBadRequest, Message: err.Error()}
			default:
				resp = response{Status: statusNotFound}
				if sr, ok := record(code); ok {
					resp = response{Status: statusOK, Record: &sr}
				}
			}
		}
		if err := writeMessage(st, resp); err != nil {
			st.Reset()
			return
		}
		st.Close()
	})
	return func() { h.RemoveStreamHandler(ProtocolID) }
}
