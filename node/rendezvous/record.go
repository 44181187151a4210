package rendezvous

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// MaxTTL is the longest a record may live: a host that keeps its code
// longer registers it again before it expires.
const MaxTTL = time.Hour

// MaxAddrs is the most addresses a record may carry.
const MaxAddrs = 32

// clockSkew is how far in the future a record's expiry may be beyond
// MaxTTL, for clocks that disagree a little.
const clockSkew = 5 * time.Minute

// ErrBadRecord means a record is malformed, badly signed, expired or
// lives longer than MaxTTL.
var ErrBadRecord = errors.New("rendezvous: bad record")

// signatureDomain is prefixed to a record's bytes before signing, so that
// a record signature can never be taken for a signature of anything else
// made with the same key.
const signatureDomain = "kakure/rendezvous/record/v1\n"

// Record says that the peer Peer, reachable at Addrs, hosts the invite
// code Code until Expires.
type Record struct {
	Code    string   `json:"code"`
	Peer    string   `json:"peer"`
	Addrs   []string `json:"addrs"`
	Expires int64    `json:"expires"` // Unix seconds
}

// SignedRecord is a Record as sent on the wire: its JSON bytes, exactly as
// signed, and the signature of the peer it names.
type SignedRecord struct {
	Record    json.RawMessage `json:"record"`
	Signature []byte          `json:"sig"`
}

// Sign returns the record saying that the holder of key hosts code at
// addrs until expires.
func Sign(key crypto.PrivKey, code string, addrs []ma.Multiaddr, expires time.Time) (SignedRecord, error) {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return SignedRecord{}, fmt.Errorf("rendezvous: signing key: %w", err)
	}
	if len(addrs) > MaxAddrs {
		addrs = addrs[:MaxAddrs]
	}
	rec := Record{Code: code, Peer: id.String(), Addrs: make([]string, len(addrs)), Expires: expires.Unix()}
	for i, a := range addrs {
		rec.Addrs[i] = a.String()
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return SignedRecord{}, fmt.Errorf("rendezvous: encoding record: %w", err)
	}
	sig, err := key.Sign(append([]byte(signatureDomain), b...))
	if err != nil {
		return SignedRecord{}, fmt.Errorf("rendezvous: signing record: %w", err)
	}
	return SignedRecord{Record: b, Signature: sig}, nil
}

// Open checks sr at time now: a well-formed record for a code in canonical
// form, signed by the key of the peer it names, not expired and living at
// most MaxTTL. It returns the record and the peer it describes. Errors
// wrap ErrBadRecord.
func (sr SignedRecord) Open(now time.Time) (Record, peer.AddrInfo, error) {
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(sr.Record))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: %v", ErrBadRecord, err)
	}
	if canon, err := ParseCode(rec.Code); err != nil || canon != rec.Code {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: code %q is not in canonical form", ErrBadRecord, rec.Code)
	}
	id, err := peer.Decode(rec.Peer)
	if err != nil {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: peer ID: %v", ErrBadRecord, err)
	}
	pub, err := id.ExtractPublicKey()
	if err != nil {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: peer ID %s holds no public key: %v", ErrBadRecord, id, err)
	}
	ok, err := pub.Verify(append([]byte(signatureDomain), sr.Record...), sr.Signature)
	if err != nil || !ok {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: the signature is not %s's", ErrBadRecord, id)
	}
	expires := time.Unix(rec.Expires, 0)
	if !expires.After(now) {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: expired at %s", ErrBadRecord, expires.UTC().Format(time.RFC3339))
	}
	if expires.After(now.Add(MaxTTL + clockSkew)) {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: it lives longer than %s", ErrBadRecord, MaxTTL)
	}
	if len(rec.Addrs) == 0 || len(rec.Addrs) > MaxAddrs {
		return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: %d addresses (1 to %d allowed)", ErrBadRecord, len(rec.Addrs), MaxAddrs)
	}
	info := peer.AddrInfo{ID: id, Addrs: make([]ma.Multiaddr, 0, len(rec.Addrs))}
	for _, s := range rec.Addrs {
		a, err := ma.NewMultiaddr(s)
		if err != nil {
			return Record{}, peer.AddrInfo{}, fmt.Errorf("%w: address %q: %v", ErrBadRecord, s, err)
		}
		info.Addrs = append(info.Addrs, a)
	}
	return rec, info, nil
}
