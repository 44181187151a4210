package node

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/chacha20poly1305"
)

// A protected identity key file (kakure id --protect; docs/identity.md)
// is the libp2p key under a passphrase:
//
//	magic   "kakure-protected-key/1\n"  (23 bytes)
//	kdf     1 byte: 1 = Argon2id
//	time    4 bytes, big-endian: Argon2id passes
//	memory  4 bytes, big-endian: Argon2id memory in KiB
//	threads 1 byte: Argon2id parallelism
//	salt    16 bytes, random
//	nonce   24 bytes, random
//	sealed  XChaCha20-Poly1305 of the libp2p-marshalled private key, under
//	        the 32-byte Argon2id key of the passphrase and salt, with
//	        everything before it (magic to nonce) as additional data.
//
// An unprotected file is the libp2p-marshalled key alone (it never
// starts with the magic).

// protectedMagic starts a protected identity key file.
const protectedMagic = "kakure-protected-key/1\n"

// kdfArgon2id names Argon2id in a protected key file.
const kdfArgon2id = 1

// argon2Params are the Argon2id parameters of a new protected key: RFC
// 9106's second recommended setting (3 passes, 64 MiB, 4 lanes), a
// fraction of a second on a laptop.
var argon2Params = struct {
	time, memory uint32
	threads      uint8
}{3, 64 * 1024, 4}

// ErrWrongPassphrase means the passphrase does not open the protected
// identity key (or the file was changed).
var ErrWrongPassphrase = errors.New("node: wrong passphrase for the identity key")

// ErrNoPassphrase means the identity key is protected and no passphrase
// could be asked for (Config.Passphrase is nil).
var ErrNoPassphrase = errors.New("node: the identity key is protected by a passphrase and none was given")

// isProtected reports whether data is a protected key file.
func isProtected(data []byte) bool { return bytes.HasPrefix(data, []byte(protectedMagic)) }

// protectKey seals a marshalled key under passphrase.
func protectKey(key, passphrase []byte) ([]byte, error) {
	if len(passphrase) == 0 {
		return nil, errors.New("node: an empty passphrase protects nothing")
	}
	p := argon2Params
	head := make([]byte, 0, len(protectedMagic)+10+16+24)
	head = append(head, protectedMagic...)
	head = append(head, kdfArgon2id)
	head = binary.BigEndian.AppendUint32(head, p.time)
	head = binary.BigEndian.AppendUint32(head, p.memory)
	head = append(head, p.threads)
	var salt [16]byte
	var nonce [chacha20poly1305.NonceSizeX]byte
	if _, err := rand.Read(salt[:]); err != nil {
		return nil, fmt.Errorf("node: protecting the identity key: %w", err)
	}
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, fmt.Errorf("node: protecting the identity key: %w", err)
	}
	head = append(head, salt[:]...)
	head = append(head, nonce[:]...)
	aead, err := chacha20poly1305.NewX(argon2.IDKey(passphrase, salt[:], p.time, p.memory, p.threads, chacha20poly1305.KeySize))
	if err != nil {
		return nil, fmt.Errorf("node: protecting the identity key: %w", err)
	}
	return aead.Seal(head, nonce[:], key, head), nil
}

// unprotectKey opens a protected key file with passphrase and returns the
// marshalled key.
func unprotectKey(data, passphrase []byte) ([]byte, error) {
	const headLen = len(protectedMagic) + 10 + 16 + chacha20poly1305.NonceSizeX
	if !isProtected(data) || len(data) < headLen+chacha20poly1305.Overhead {
		return nil, errors.New("node: the protected identity key is damaged (too short)")
	}
	rest := data[len(protectedMagic):]
	if rest[0] != kdfArgon2id {
		return nil, fmt.Errorf("node: the protected identity key uses key derivation %d, this program knows Argon2id (1)", rest[0])
	}
	time := binary.BigEndian.Uint32(rest[1:5])
	memory := binary.BigEndian.Uint32(rest[5:9])
	threads := rest[9]
	// Bounds that guard against a damaged file asking for all memory.
	if time == 0 || time > 64 || memory < 8 || memory > 4*1024*1024 || threads == 0 {
		return nil, fmt.Errorf("node: the protected identity key is damaged (Argon2id time %d, memory %d KiB, threads %d)", time, memory, threads)
	}
	salt := rest[10:26]
	nonce := rest[26 : 26+chacha20poly1305.NonceSizeX]
	aead, err := chacha20poly1305.NewX(argon2.IDKey(passphrase, salt, time, memory, threads, chacha20poly1305.KeySize))
	if err != nil {
		return nil, fmt.Errorf("node: opening the identity key: %w", err)
	}
	key, err := aead.Open(nil, nonce, data[headLen:], data[:headLen])
	if err != nil {
		return nil, ErrWrongPassphrase
	}
	return key, nil
}
