package rendezvous

import (
	"crypto/sha256"
	"fmt"

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
		serveStream(st, func(req request) response {
			if req.Op != opLookup {
				return response{Status: statusRefused, Message: "this peer is no relay: it answers lookups of its own codes only"}
			}
			code, err := ParseCode(req.Code)
			if err != nil {
				return response{Status: statusBadRequest, Message: err.Error()}
			}
			if sr, ok := record(code); ok {
				return response{Status: statusOK, Record: &sr}
			}
			return response{Status: statusNotFound}
		})
	})
	return func() { h.RemoveStreamHandler(ProtocolID) }
}
