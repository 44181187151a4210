package protocol

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ipfs/go-cid"
	"github.com/mr-tron/base58/base58"
	"github.com/multiformats/go-multicodec"
	mh "github.com/multiformats/go-multihash"
)

// PeerID is a peer's identity as messages and records name it: the bytes
// of a libp2p peer ID (a multihash), read and written without libp2p, so
// that replaying and judging a game needs no network stack. The session
// converts at its boundary with a plain conversion, PeerID(id) and
// peer.ID(p). It is written exactly as libp2p writes a peer ID and reads
// what libp2p reads (REC-D17, docs/record.md).
type PeerID string

// String returns the ID in base58btc, as libp2p's peer.ID does
// (12D3KooW… for an Ed25519 identity).
func (id PeerID) String() string { return base58.Encode([]byte(id)) }

// MarshalText writes the ID as String does.
func (id PeerID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads an ID as ParsePeerID does.
func (id *PeerID) UnmarshalText(b []byte) error {
	p, err := ParsePeerID(string(b))
	if err != nil {
		return err
	}
	*id = p
	return nil
}

// MarshalJSON writes the ID as a JSON string of String's text, as libp2p
// does.
func (id PeerID) MarshalJSON() ([]byte, error) { return json.Marshal(id.String()) }

// UnmarshalJSON reads a JSON string as ParsePeerID does.
func (id *PeerID) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	p, err := ParsePeerID(s)
	*id = p
	return err
}

// ParsePeerID reads a peer ID in every form libp2p's peer.Decode reads,
// to the same bytes, and refuses what it refuses with the same words: the
// base58btc multihash (what String writes, starting with 1 or Qm) and the
// multibase CID of the libp2p-key codec (REC-D17).
func ParsePeerID(s string) (PeerID, error) {
	if strings.HasPrefix(s, "Qm") || strings.HasPrefix(s, "1") {
		m, err := mh.FromB58String(s)
		if err != nil {
			return "", fmt.Errorf("failed to parse peer ID: %s", err)
		}
		return PeerID(m), nil
	}
	c, err := cid.Decode(s)
	if err != nil {
		return "", fmt.Errorf("failed to parse peer ID: %s", err)
	}
	if code := multicodec.Code(c.Type()); code != multicodec.Libp2pKey {
		return "", fmt.Errorf("can't convert CID of type %q to a peer ID", code)
	}
	return PeerID(c.Hash()), nil
}

// ed25519IDPrefix begins every Ed25519 peer ID: an identity multihash
// (0x00) of 0x24 bytes, the libp2p public-key protobuf of type Ed25519
// (08 01) with 32 bytes of key (12 20). The key follows.
var ed25519IDPrefix = []byte{0x00, 0x24, 0x08, 0x01, 0x12, 0x20}

// errNotEd25519 says why an ID holds no key that can verify a message.
var errNotEd25519 = errors.New("not an Ed25519 identity (00 24 08 01 12 20 and a 32-byte key, T-1)")

// publicKey returns the Ed25519 public key the ID holds. Kakure's
// identities are Ed25519 keys (T-1), written in the ID in the one form
// libp2p writes; any other ID (another key type, a hashed key, another
// encoding of the same key) holds none (REC-D18).
func (id PeerID) publicKey() (ed25519.PublicKey, error) {
	b := []byte(id)
	if len(b) != len(ed25519IDPrefix)+ed25519.PublicKeySize || !bytes.HasPrefix(b, ed25519IDPrefix) {
		return nil, errNotEd25519
	}
	return ed25519.PublicKey(b[len(ed25519IDPrefix):]), nil
}

// Signer signs the signing bytes of a message with the sender's identity
// key: libp2p's crypto.PrivKey is one, so the session hands over the
// host's key as it is.
type Signer interface {
	Sign(data []byte) ([]byte, error)
}
