package node_test

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/node"
)

func skipOnWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix file modes")
	}
}

// TestT1IdentityPersists: the peer ID survives a restart with the same
// home, and differs between homes.
func TestT1IdentityPersists(t *testing.T) {
	home := t.TempDir()
	first, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{loopbackTCP}})
	if err != nil {
		t.Fatal(err)
	}
	id := first.ID()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{loopbackTCP}})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.ID() != id {
		t.Errorf("peer ID after restart %s, want %s", again.ID(), id)
	}
	key, err := node.LoadOrCreateIdentity(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fromKey, _ := peer.IDFromPrivateKey(key); fromKey != id {
		t.Errorf("LoadOrCreateIdentity gives peer ID %s, the node %s", fromKey, id)
	}
	if key.Type() != crypto.Ed25519 {
		t.Errorf("key type %v, want Ed25519", key.Type())
	}
	other, err := node.LoadOrCreateIdentity(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if other.Equals(key) {
		t.Error("two homes have the same key")
	}
}

// TestT1KeyFileModes: a new home is 0700 and a new key 0600.
func TestT1KeyFileModes(t *testing.T) {
	skipOnWindows(t)
	home := filepath.Join(t.TempDir(), "config", "kakure")
	if _, err := node.LoadOrCreateIdentity(home, nil); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{home: 0o700, filepath.Join(home, node.IdentityFile): 0o600} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", path, got, want)
		}
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 1 {
		t.Errorf("home holds %d entries, want only the key (temporary file left?)", len(entries))
	}
}

// TestT1AccessibleKeyRefused: a key file other users can read or write is
// refused, by LoadOrCreateIdentity and by New, with the chmod to run; an
// owner-read-only key is fine.
func TestT1AccessibleKeyRefused(t *testing.T) {
	skipOnWindows(t)
	tests := []struct {
		name   string
		mode   os.FileMode
		refuse bool
	}{
		{"T-1 world readable", 0o644, true},
		{"T-1 group readable", 0o640, true},
		{"T-1 world writable", 0o602, true},
		{"T-1 owner read-write", 0o600, false},
		{"T-1 owner read-only", 0o400, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if _, err := node.LoadOrCreateIdentity(home, nil); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(home, node.IdentityFile)
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			_, err := node.LoadOrCreateIdentity(home, nil)
			if !tt.refuse {
				if err != nil {
					t.Fatalf("LoadOrCreateIdentity: %v", err)
				}
				return
			}
			if !errors.Is(err, node.ErrKeyPermissions) {
				t.Fatalf("LoadOrCreateIdentity = %v, want ErrKeyPermissions", err)
			}
			if want := "chmod 600 " + path; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
			_, err = node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{loopbackTCP}})
			if !errors.Is(err, node.ErrKeyPermissions) {
				t.Errorf("New = %v, want ErrKeyPermissions", err)
			}
		})
	}
}

// TestT1BadKeyFile: a damaged or non-Ed25519 key is refused and left as it
// is (never replaced by a new identity behind the user's back).
func TestT1BadKeyFile(t *testing.T) {
	secp, _, err := crypto.GenerateSecp256k1Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secpBytes, err := crypto.MarshalPrivateKey(secp)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		contents []byte
		want     string
	}{
		{"T-1 damaged", []byte("not a key"), "damaged"},
		{"T-1 empty", nil, "damaged"},
		{"T-1 secp256k1 key", secpBytes, "Ed25519"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, node.IdentityFile)
			if err := os.WriteFile(path, tt.contents, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := node.LoadOrCreateIdentity(home, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadOrCreateIdentity = %v, want an error mentioning %q", err, tt.want)
			}
			if after, _ := os.ReadFile(path); string(after) != string(tt.contents) {
				t.Error("the key file was changed")
			}
		})
	}
}

// TestT1ConcurrentFirstRun: two programs starting at once in a new home
// end with one identity.
func TestT1ConcurrentFirstRun(t *testing.T) {
	home := filepath.Join(t.TempDir(), "kakure")
	const n = 4
	keys := make([]crypto.PrivKey, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { keys[i], errs[i] = node.LoadOrCreateIdentity(home, nil) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !keys[i].Equals(keys[0]) {
			t.Errorf("caller %d got another key", i)
		}
	}
}

func TestDefaultHome(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "freebsd" && runtime.GOOS != "openbsd" {
		t.Skip("XDG directories")
	}
	t.Setenv("XDG_CONFIG_HOME", "/xdg/config")
	if got, err := node.DefaultHome(); err != nil || got != "/xdg/config/kakure" {
		t.Errorf("DefaultHome with XDG_CONFIG_HOME = %q, %v", got, err)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("HOME", "/home/someone")
	if got, err := node.DefaultHome(); err != nil || got != "/home/someone/.config/kakure" {
		t.Errorf("DefaultHome without XDG_CONFIG_HOME = %q, %v", got, err)
	}
}

func TestLoadOrCreateIdentityNeedsHome(t *testing.T) {
	if _, err := node.LoadOrCreateIdentity("", nil); err == nil {
		t.Error("LoadOrCreateIdentity(\"\") succeeded")
	}
}
