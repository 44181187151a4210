package node

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"
)

// cheapArgon2 makes Argon2id cheap for the test (the parameters are in
// the file, so the format is the same).
func cheapArgon2(t *testing.T) {
	old := argon2Params
	argon2Params.time, argon2Params.memory, argon2Params.threads = 1, 64, 1
	t.Cleanup(func() { argon2Params = old })
}

func constPassphrase(p string) func(string) ([]byte, error) {
	return func(string) ([]byte, error) { return []byte(p), nil }
}

// TestT1ProtectedIdentity: kakure id --protect puts the identity key under
// a passphrase (Argon2id and XChaCha20-Poly1305): the file no longer
// holds the key in clear, keeps mode 0600, and loads to the same key (the
// same peer ID) with the passphrase, and a node started with it
// (Config.Passphrase) has that peer ID. A wrong passphrase, no passphrase,
// a changed byte anywhere in the file (header or sealed key) and a cut
// file are clear errors, never another key; protecting twice is refused.
func TestT1ProtectedIdentity(t *testing.T) {
	cheapArgon2(t)
	pass := constPassphrase("correct horse")
	home := t.TempDir()
	key, err := LoadOrCreateIdentity(home, pass)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	path := filepath.Join(home, IdentityFile)
	clear, _ := os.ReadFile(path)
	if err := ProtectIdentity(home, []byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	sealed, _ := os.ReadFile(path)
	raw, _ := key.Raw()
	if bytes.Contains(sealed, raw[:32]) || bytes.Contains(sealed, clear) {
		t.Fatal("the protected file holds the key in clear")
	}
	if !strings.HasPrefix(string(sealed), protectedMagic) {
		t.Fatalf("the protected file starts %q", sealed[:20])
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("protected key mode %04o, want 0600", info.Mode().Perm())
	}
	if p, err := IdentityProtected(home); err != nil || !p {
		t.Errorf("IdentityProtected = %v, %v", p, err)
	}
	again, err := LoadOrCreateIdentity(home, pass)
	if err != nil {
		t.Fatalf("loading with the passphrase: %v", err)
	}
	if got, _ := peer.IDFromPrivateKey(again); got != id {
		t.Fatalf("the protected key is %s, was %s", got, id)
	}
	loopback := []string{"/ip4/127.0.0.1/tcp/0"}
	n, err := New(t.Context(), Config{Home: home, ListenAddrs: loopback, Passphrase: pass})
	if err != nil {
		t.Fatalf("a node with the passphrase: %v", err)
	}
	if n.ID() != id {
		t.Errorf("the node with the protected key is %s, was %s", n.ID(), id)
	}
	n.Close()
	if n, err := New(t.Context(), Config{Home: home, ListenAddrs: loopback}); !errors.Is(err, ErrNoPassphrase) {
		if err == nil {
			n.Close()
		}
		t.Errorf("a node with no passphrase: %v", err)
	}
	if err := ProtectIdentity(home, []byte("other")); err == nil || !strings.Contains(err.Error(), "protected already") {
		t.Errorf("protecting twice: %v", err)
	}

	if _, err := LoadOrCreateIdentity(home, constPassphrase("wrong horse")); !errors.Is(err, ErrWrongPassphrase) || !strings.Contains(err.Error(), "wrong passphrase") {
		t.Errorf("a wrong passphrase: %v", err)
	}
	if _, err := LoadOrCreateIdentity(home, nil); !errors.Is(err, ErrNoPassphrase) {
		t.Errorf("no passphrase: %v", err)
	}
	noTerminal := func(string) ([]byte, error) { return nil, errors.New("no terminal") }
	if _, err := LoadOrCreateIdentity(home, noTerminal); err == nil || !strings.Contains(err.Error(), "no terminal") {
		t.Errorf("the passphrase could not be asked: %v", err)
	}

	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 0x20
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := LoadOrCreateIdentity(home, pass)
		if err == nil {
			t.Fatalf("byte %d of %d changed: the file still loads, as %v", i, len(sealed), got)
		}
	}
	for _, n := range []int{len(protectedMagic), len(sealed) / 2, len(sealed) - 1} {
		if err := os.WriteFile(path, sealed[:n], 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadOrCreateIdentity(home, pass); err == nil {
			t.Errorf("the file cut at %d of %d loads", n, len(sealed))
		}
	}
	// A damaged header asking for all memory is refused before Argon2id.
	huge := bytes.Clone(sealed)
	copy(huge[len(protectedMagic)+5:], []byte{0xff, 0xff, 0xff, 0xff})
	if _, err := unprotectKey(huge, []byte("correct horse")); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("a header asking for 4 TiB: %v", err)
	}
}

// TestT1ProtectedKeyDefaultParameters: a key sealed with the default
// Argon2id parameters (64 MiB) opens with its passphrase only.
func TestT1ProtectedKeyDefaultParameters(t *testing.T) {
	sealed, err := protectKey([]byte("a marshalled key"), []byte("pass"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := unprotectKey(sealed, []byte("pass")); err != nil || string(got) != "a marshalled key" {
		t.Fatalf("opened %q, %v", got, err)
	}
	if _, err := unprotectKey(sealed, []byte("Pass")); !errors.Is(err, ErrWrongPassphrase) {
		t.Fatalf("another passphrase: %v", err)
	}
	if _, err := protectKey([]byte("k"), nil); err == nil {
		t.Error("an empty passphrase is taken")
	}
}
