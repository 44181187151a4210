package protocol

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/kakure/kakure/internal/memo"
)

// GameID names one game; the inviter draws it at random.
type GameID [16]byte

// NewGameID returns a fresh random game ID.
func NewGameID() (GameID, error) {
	var id GameID
	if _, err := rand.Read(id[:]); err != nil {
		return id, fmt.Errorf("protocol: game ID: %w", err)
	}
	return id, nil
}

// String returns the ID in hex.
func (id GameID) String() string { return hex.EncodeToString(id[:]) }

// MarshalText writes the ID in hex.
func (id GameID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads the ID from hex.
func (id *GameID) UnmarshalText(b []byte) error { return decodeHexFixed(id[:], b, "game ID") }

// ParseGameID reads a game ID written by String.
func ParseGameID(s string) (GameID, error) {
	var id GameID
	err := id.UnmarshalText([]byte(s))
	return id, err
}

// Hash is a SHA-256 digest of a message's signed content.
type Hash [32]byte

// IsZero reports whether h is the zero hash (no previous message).
func (h Hash) IsZero() bool { return h == Hash{} }

// String returns the hash in hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// MarshalText writes the hash in hex.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads the hash from hex.
func (h *Hash) UnmarshalText(b []byte) error { return decodeHexFixed(h[:], b, "hash") }

func decodeHexFixed(dst, src []byte, what string) error {
	if hex.DecodedLen(len(src)) != len(dst) {
		return fmt.Errorf("protocol: %s: want %d hex digits, got %d", what, 2*len(dst), len(src))
	}
	if _, err := hex.Decode(dst, src); err != nil {
		return fmt.Errorf("protocol: %s: %w", what, err)
	}
	return nil
}

// Role is a peer's place in a game: the inviter is role 0, the invitee
// role 1. Colours are drawn later by the coin toss; roles never change.
type Role uint8

// The two roles.
const (
	Inviter Role = 0
	Invitee Role = 1
)

// Other returns the other role.
func (r Role) Other() Role { return 1 - r }

// String names the role.
func (r Role) String() string {
	if r == Inviter {
		return "inviter"
	}
	return "invitee"
}

// Kind names what a message says; Body's shape depends on it.
type Kind string

// Message is one signed message of a game. Each peer numbers its own
// messages from 0 (Seq) and chains them (Prev is the hash of its previous
// message), and acknowledges the other peer's messages (Ack and AckHash
// name the last one it had received when it sent this one; Ack is -1 before
// the first). The two chains together are the transcript (T-3).
type Message struct {
	Game    GameID          `json:"game"`
	From    Role            `json:"from"`
	Seq     uint64          `json:"seq"`
	Prev    Hash            `json:"prev"`
	Ack     int64           `json:"ack"`
	AckHash Hash            `json:"ack_hash"`
	Kind    Kind            `json:"kind"`
	Body    json.RawMessage `json:"body"`
	Sig     []byte          `json:"sig"`
}

// signingDomain separates kakure message signatures from every other use of
// the identity key.
const signingDomain = "kakure/message/v1"

// SigningBytes returns the exact bytes the signature covers: every field but
// the signature, each length-prefixed, after a domain tag.
func (m *Message) SigningBytes() []byte {
	var b bytes.Buffer
	field := func(p []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		b.Write(n[:])
		b.Write(p)
	}
	u64 := func(v uint64) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], v)
		field(n[:])
	}
	field([]byte(signingDomain))
	field(m.Game[:])
	field([]byte{byte(m.From)})
	u64(m.Seq)
	field(m.Prev[:])
	u64(uint64(m.Ack))
	field(m.AckHash[:])
	field([]byte(m.Kind))
	field(m.Body)
	return b.Bytes()
}

// Hash returns the hash of the signed content; the next message of the
// same sender carries it as Prev.
func (m *Message) Hash() Hash { return sha256.Sum256(m.SigningBytes()) }

// Sign signs the message with key (the sender's identity key).
func (m *Message) Sign(key Signer) error {
	sig, err := key.Sign(m.SigningBytes())
	if err != nil {
		return fmt.Errorf("protocol: sign %s: %w", m.Kind, err)
	}
	m.Sig = sig
	return nil
}

// ErrBadSignature reports a message whose signature does not verify with
// the sender's peer ID.
var ErrBadSignature = errors.New("protocol: bad signature")

// VerifySignature checks the signature with crypto/ed25519 against the
// public key the sender's peer ID holds (REC-D18).
// A signature already verified in this process (the same sender, signed
// bytes and signature) is not verified again (verified).
func (m *Message) VerifySignature(sender PeerID) error {
	signed := m.SigningBytes()
	key := signatureKey(sender, signed, m.Sig)
	if _, ok := verified.Get(key); ok {
		return nil
	}
	pub, err := sender.publicKey()
	if err != nil {
		return fmt.Errorf("%w: no public key in peer ID %s: %v", ErrBadSignature, sender, err)
	}
	if !ed25519.Verify(pub, signed, m.Sig) {
		return fmt.Errorf("%w: %s message %d from %s", ErrBadSignature, m.Kind, m.Seq, m.From)
	}
	verified.Put(key, struct{}{})
	return nil
}

// verified remembers the signatures this process has verified, by the
// SHA-256 of the sender, the signed bytes and the signature: a message is
// verified when it arrives and again when it is appended to the record
// (Transcript.Check), a record's messages again when it is loaded, a
// judged report's evidence again when judged; an Ed25519 verification
// costs some fifty times the hash. Only successes are kept, so a changed
// byte anywhere is verified afresh (and refused). It keeps the latest
// 1<<15 (some 64 bytes each).
var verified = memo.Cache[struct{}]{Max: 1 << 15}

// signatureKey is verified's key of a signature sig of signed by sender.
func signatureKey(sender PeerID, signed, sig []byte) [32]byte {
	return memo.Key("kakure/verified-signature", []byte(sender), signed, sig)
}

// EncodeBody marshals a message body in the one canonical form (compact,
// as encoding/json writes it), which is what is signed.
func EncodeBody(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("protocol: encode body: %w", err)
	}
	return b, nil
}

// ErrMalformed reports a message that cannot be read.
var ErrMalformed = errors.New("protocol: malformed message")

// DecodeBody reads a body strictly: unknown fields and trailing data are
// errors, so that one signed message has one meaning.
func DecodeBody(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: body: %v", ErrMalformed, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: body: trailing data", ErrMalformed)
	}
	return nil
}

// canonical reports whether raw is exactly the compact form encoding/json
// writes (no white space, its escapes, its numbers) and names no key
// twice in an object, so that re-encoding a record never changes what
// was signed and two readers never read different values from the same
// signed bytes (Go keeps the last of two equal keys, other readers the
// first).
func canonical(raw json.RawMessage) bool {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return false
	}
	out, err := json.Marshal(json.RawMessage(b.Bytes()))
	return err == nil && bytes.Equal(out, raw) && walkJSON(raw, true) == nil
}

// noDuplicateKeys returns an error if an object in the JSON value data
// names a key twice (or data is not JSON).
func noDuplicateKeys(data []byte) error { return walkJSON(data, false) }

// walkJSON reads the JSON value data token by token and returns an error
// if an object names a key twice, or, with tokens, if a string or a
// number is not written as encoding/json writes it (data must then be
// compact: no white space between tokens).
func walkJSON(data []byte, tokens bool) error {
	type level struct {
		keys      map[string]bool // nil in an array
		expectKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*level
	var last int64
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		// The token's bytes, without the separator before it.
		start, end := last, dec.InputOffset()
		last = end
		for start < end && (data[start] == ',' || data[start] == ':') {
			start++
		}
		if tokens {
			if err := canonicalToken(tok, data[start:end]); err != nil {
				return err
			}
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{keys: map[string]bool{}, expectKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &level{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].keys != nil {
				stack[len(stack)-1].expectKey = true
			}
			continue
		}
		if top == nil || top.keys == nil {
			continue
		}
		if top.expectKey {
			k, _ := tok.(string)
			if top.keys[k] {
				return fmt.Errorf("the key %q appears twice in an object", k)
			}
			top.keys[k] = true
			top.expectKey = false
		} else {
			top.expectKey = true
		}
	}
}

// canonicalToken returns an error unless raw is how encoding/json writes
// the string or number tok: a string with its escapes (and no others), an
// integer without leading zeros or sign of zero, another number as
// encoding/json writes a float64.
func canonicalToken(tok json.Token, raw []byte) error {
	var want []byte
	switch v := tok.(type) {
	case string:
		var err error
		if want, err = json.Marshal(v); err != nil {
			return err
		}
	case json.Number:
		s := v.String()
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			want = []byte(strconv.FormatInt(i, 10))
		} else if u, err := strconv.ParseUint(s, 10, 64); err == nil {
			want = []byte(strconv.FormatUint(u, 10))
		} else {
			f, err := v.Float64()
			if err != nil {
				return err
			}
			if want, err = json.Marshal(f); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	if !bytes.Equal(raw, want) {
		return fmt.Errorf("%s is not in its canonical form %s", raw, want)
	}
	return nil
}
