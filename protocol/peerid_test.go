package protocol_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ipfs/go-cid"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multibase"
	mh "github.com/multiformats/go-multihash"

	"github.com/kakure/kakure/protocol"
)

// libp2p's private keys sign messages as they are (a session hands the
// host's key to the game).
var _ protocol.Signer = crypto.PrivKey(nil)

// seededReader is a deterministic source of key material for the tests.
type seededReader struct{ r *rand.ChaCha8 }

func (s seededReader) Read(p []byte) (int, error) { return s.r.Read(p) }

func newSeeded(seed byte) seededReader { return seededReader{rand.NewChaCha8([32]byte{seed})} }

// testKeys returns libp2p keys of every type kakure may meet: Ed25519 (the
// only one kakure makes, T-1) and the others a foreign program could use.
func testKeys(t *testing.T) map[string]crypto.PrivKey {
	t.Helper()
	keys := map[string]crypto.PrivKey{}
	src := newSeeded(7)
	for _, k := range []struct {
		name string
		typ  int
		bits int
	}{{"ed25519 a", crypto.Ed25519, 0}, {"ed25519 b", crypto.Ed25519, 0}, {"secp256k1", crypto.Secp256k1, 0}, {"ecdsa", crypto.ECDSA, 0}, {"rsa", crypto.RSA, 2048}} {
		priv, _, err := crypto.GenerateKeyPairWithReader(k.typ, k.bits, src)
		if err != nil {
			t.Fatalf("%s key: %v", k.name, err)
		}
		keys[k.name] = priv
	}
	return keys
}

// TestRECD17PeerIDTextIsLibp2ps: the core's PeerID is written exactly as
// libp2p writes a peer ID (String, text and JSON: records, reports and
// golden files hold it) and reads every string libp2p's peer.Decode reads,
// to the same bytes, refusing what it refuses with the same words: the
// base58btc multihash forms and the CID forms (base32, base36) of IDs of
// every key type.
func TestRECD17PeerIDTextIsLibp2ps(t *testing.T) {
	var good []string
	for name, k := range testKeys(t) {
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p := protocol.PeerID(id)
		if p.String() != id.String() {
			t.Errorf("%s: String %q, libp2p %q", name, p, id)
		}
		for _, m := range []struct {
			what       string
			core, lib2 func() ([]byte, error)
		}{
			{"text", p.MarshalText, id.MarshalText},
			{"JSON", func() ([]byte, error) { return json.Marshal(p) }, func() ([]byte, error) { return json.Marshal(id) }},
			{"JSON in a list", func() ([]byte, error) { return json.Marshal([2]protocol.PeerID{p, ""}) }, func() ([]byte, error) { return json.Marshal([2]peer.ID{id, ""}) }},
			{"JSON map key", func() ([]byte, error) { return json.Marshal(map[protocol.PeerID]int{p: 1}) }, func() ([]byte, error) { return json.Marshal(map[peer.ID]int{id: 1}) }},
		} {
			a, errA := m.core()
			b, errB := m.lib2()
			if string(a) != string(b) || (errA == nil) != (errB == nil) {
				t.Errorf("%s: %s %s (%v), libp2p %s (%v)", name, m.what, a, errA, b, errB)
			}
		}
		c := peer.ToCid(id)
		b36, err := c.StringOfBase(multibase.Base36)
		if err != nil {
			t.Fatal(err)
		}
		other, err := c.StringOfBase(multibase.Base16)
		if err != nil {
			t.Fatal(err)
		}
		good = append(good, id.String(), c.String(), b36, other)
	}
	ed := good[0]
	dagPB := cid.NewCidV1(cid.DagProtobuf, mh.Multihash(mustDecode(t, ed))).String()
	bad := []string{
		"", "1", "Q", "Qm", "hello", "0OIl", "z" + ed, ed[:len(ed)-1], ed + "1", strings.ToLower(ed),
		dagPB, "bafzaaaa", "k51", "f0172",
		// A multihash whose varint is not minimal, or whose length is wrong.
		"1" + ed[1:5] + "1111", "QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG" + "1",
	}
	for _, s := range append(good, bad...) {
		want, wantErr := peer.Decode(s)
		got, err := protocol.ParsePeerID(s)
		if string(got) != string(want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("ParsePeerID(%q) = %x, %v; libp2p %x, %v", s, got, err, want, wantErr)
		}
		var fromText protocol.PeerID
		errText := fromText.UnmarshalText([]byte(s))
		var fromJSON protocol.PeerID
		errJSON := json.Unmarshal([]byte(`"`+s+`"`), &fromJSON)
		if fromText != got || fromJSON != got || (errText == nil) != (err == nil) || (errJSON == nil) != (err == nil) {
			t.Errorf("%q: UnmarshalText %x (%v), UnmarshalJSON %x (%v), ParsePeerID %x (%v)", s, fromText, errText, fromJSON, errJSON, got, err)
		}
	}
	for _, good := range good {
		if _, err := protocol.ParsePeerID(good); err != nil {
			t.Errorf("a good ID %q refused: %v", good, err)
		}
	}
}

func mustDecode(t *testing.T, s string) []byte {
	t.Helper()
	id, err := peer.Decode(s)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(id)
}

// TestRECD18OnlyTheSendersEd25519KeySigns: the core checks a signature
// with crypto/ed25519 against the key inside the sender's ID (an identity
// multihash of the libp2p key protobuf 08 01 12 20 || key, T-1), and
// refuses as a bad signature, naming the message or the ID as before: a
// message signed by another key, a flipped byte of the signature or the
// body, a malformed ID (empty, cut, one byte more, a wrong length byte, a
// hashed ID), the signer's own key labelled as another key type or in a
// non-identity multihash, and IDs of other key types even when their own
// key signed (kakure identities are Ed25519).
func TestRECD18OnlyTheSendersEd25519KeySigns(t *testing.T) {
	keys := testKeys(t)
	sign := func(k crypto.PrivKey) protocol.Message {
		m := protocol.Message{Game: protocol.GameID{9}, From: protocol.Inviter, Seq: 3, Ack: -1, Kind: protocol.KindMove, Body: json.RawMessage(`{"x":1}`)}
		if err := m.Sign(k); err != nil {
			t.Fatal(err)
		}
		return m
	}
	idOf := func(k crypto.PrivKey) protocol.PeerID {
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return protocol.PeerID(id)
	}
	alice := idOf(keys["ed25519 a"])
	m := sign(keys["ed25519 a"])
	if err := m.VerifySignature(alice); err != nil {
		t.Fatalf("the signer's own ID: %v", err)
	}
	key := []byte(alice)[6:]
	retyped := func(prefix ...byte) protocol.PeerID { return protocol.PeerID(append(prefix, key...)) }
	for _, c := range []struct {
		name   string
		m      func() protocol.Message
		sender protocol.PeerID
		says   string
	}{
		{"signed by another key", func() protocol.Message { return sign(keys["ed25519 b"]) }, alice, "move message 3 from inviter"},
		{"the other's ID", func() protocol.Message { return m }, idOf(keys["ed25519 b"]), "move message 3 from inviter"},
		{"a flipped byte of the signature", func() protocol.Message { b := m; b.Sig = append([]byte(nil), m.Sig...); b.Sig[10] ^= 0x20; return b }, alice, "move message 3"},
		{"a flipped byte of the body", func() protocol.Message { b := m; b.Body = json.RawMessage(`{"x":3}`); return b }, alice, "move message 3"},
		{"a signature cut short", func() protocol.Message { b := m; b.Sig = m.Sig[:63]; return b }, alice, "move message 3"},
		{"no ID", func() protocol.Message { return m }, "", "no public key in peer ID"},
		{"the ID cut", func() protocol.Message { return m }, alice[:len(alice)-1], "no public key in peer ID"},
		{"the ID one byte longer", func() protocol.Message { return m }, alice + "\x00", "no public key in peer ID"},
		{"a wrong length byte", func() protocol.Message { return m }, protocol.PeerID([]byte{0x00, 0x23}) + alice[2:], "no public key in peer ID"},
		{"the key labelled secp256k1", func() protocol.Message { return m }, retyped(0x00, 0x24, 0x08, 0x02, 0x12, 0x20), "no public key in peer ID"},
		{"the key in a sha2-256 multihash", func() protocol.Message { return m }, retyped(0x12, 0x24, 0x08, 0x01, 0x12, 0x20), "no public key in peer ID"},
		{"the key under another protobuf field", func() protocol.Message { return m }, retyped(0x00, 0x24, 0x08, 0x01, 0x1a, 0x20), "no public key in peer ID"},
		{"a secp256k1 ID signed by its key", func() protocol.Message { return sign(keys["secp256k1"]) }, idOf(keys["secp256k1"]), "no public key in peer ID"},
		{"an ECDSA ID signed by its key", func() protocol.Message { return sign(keys["ecdsa"]) }, idOf(keys["ecdsa"]), "no public key in peer ID"},
		{"an RSA ID signed by its key", func() protocol.Message { return sign(keys["rsa"]) }, idOf(keys["rsa"]), "no public key in peer ID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := c.m()
			err := bad.VerifySignature(c.sender)
			if !errors.Is(err, protocol.ErrBadSignature) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("%v, want a bad signature that says %q", err, c.says)
			}
			if strings.Contains(c.says, "peer ID") && !strings.Contains(err.Error(), c.sender.String()) {
				t.Errorf("%v does not name the ID %s", err, c.sender)
			}
		})
	}
	if err := m.VerifySignature(alice); err != nil {
		t.Errorf("the signer's own ID after the bad ones: %v", err)
	}
}
