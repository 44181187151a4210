package node

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// IdentityFile is the name of the identity key file in the home directory.
const IdentityFile = "identity.key"

// ErrKeyPermissions means the identity key file can be read or written by
// other users, so it may no longer be secret; New refuses to use it.
var ErrKeyPermissions = errors.New("node: identity key is accessible to other users")

// DefaultHome returns kakure's directory in the user's configuration
// directory: $XDG_CONFIG_HOME/kakure, or ~/.config/kakure when that is
// unset (on macOS ~/Library/Application Support/kakure, on Windows
// %AppData%\kakure).
func DefaultHome() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("node: finding the configuration directory: %w", err)
	}
	return filepath.Join(dir, "kakure"), nil
}

// LoadOrCreateIdentity returns the peer's Ed25519 identity key (T-1), kept
// in home/identity.key. On first run it creates home (mode 0700) and the
// key (mode 0600). It refuses, with an error wrapping ErrKeyPermissions
// that names the chmod to run, a key file that other users can access, and
// it refuses key files that are not Ed25519 keys. A key under a
// passphrase (ProtectIdentity) is opened with the one passphrase returns
// for the key file's path; with passphrase nil it is refused with an
// error wrapping ErrNoPassphrase.
func LoadOrCreateIdentity(home string, passphrase func(path string) ([]byte, error)) (crypto.PrivKey, error) {
	if home == "" {
		return nil, errors.New("node: no home directory given")
	}
	path := filepath.Join(home, IdentityFile)
	key, err := loadIdentity(path, passphrase)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("node: creating home directory: %w", err)
	}
	if err := createIdentity(home, path); err != nil {
		return nil, err
	}
	return loadIdentity(path, passphrase)
}

// loadIdentity reads the identity key at path, asking passphrase for the
// passphrase of a protected one (nil: none can be asked for).
func loadIdentity(path string, passphrase func(path string) ([]byte, error)) (crypto.PrivKey, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("node: opening identity key: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("node: identity key: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("node: identity key %s is not a regular file", path)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("%w: %s has mode %04o; run `chmod 600 %s` and start again (or move the file away to create a new identity)",
			ErrKeyPermissions, path, perm, path)
	}
	// A marshalled Ed25519 key is 68 bytes, a protected one some 180; the
	// limit only guards against reading a huge file by mistake.
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return nil, fmt.Errorf("node: reading identity key %s: %w", path, err)
	}
	if isProtected(b) {
		if passphrase == nil {
			return nil, fmt.Errorf("%w (%s)", ErrNoPassphrase, path)
		}
		pass, err := passphrase(path)
		if err != nil {
			return nil, fmt.Errorf("node: the passphrase of identity key %s: %w", path, err)
		}
		if b, err = unprotectKey(b, pass); err != nil {
			return nil, fmt.Errorf("%w (%s)", err, path)
		}
	}
	key, err := crypto.UnmarshalPrivateKey(b)
	if err != nil {
		return nil, fmt.Errorf("node: identity key %s is damaged: %w", path, err)
	}
	if key.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("node: identity key %s is a %v key, kakure uses Ed25519", path, key.Type())
	}
	return key, nil
}

// createIdentity writes a new key to a temporary file and links it into
// place, so that a crash never leaves a half-written key and two programs
// starting at once end up with the same identity.
func createIdentity(home, path string) error {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return fmt.Errorf("node: generating identity key: %w", err)
	}
	b, err := crypto.MarshalPrivateKey(key)
	if err != nil {
		return fmt.Errorf("node: encoding identity key: %w", err)
	}
	tmp, err := os.CreateTemp(home, ".identity-*.tmp") // mode 0600
	if err != nil {
		return fmt.Errorf("node: creating identity key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(b)
	if err == nil {
		err = tmp.Chmod(0o600)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("node: writing identity key: %w", err)
	}
	err = os.Link(tmp.Name(), path)
	switch {
	case err == nil, errors.Is(err, fs.ErrExist):
		return nil // ours, or one another kakure created just now
	default:
		// Some file systems have no hard links.
		if err := os.Rename(tmp.Name(), path); err != nil {
			return fmt.Errorf("node: storing identity key: %w", err)
		}
		return nil
	}
}

// ProtectIdentity puts the identity key in home under passphrase
// (kakure id --protect; the format is in keyfile.go and
// docs/identity.md): from then on the program asks for the passphrase
// when it starts. The key itself, hence the peer ID, stays the same. It
// refuses a key that is protected already. The caller holds the home's
// lock (LockHome), so that no running program has the file open.
func ProtectIdentity(home string, passphrase []byte) error {
	path := filepath.Join(home, IdentityFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("node: reading identity key: %w", err)
	}
	if isProtected(b) {
		return fmt.Errorf("node: identity key %s is protected already", path)
	}
	if _, err := loadIdentity(path, nil); err != nil { // permissions, type
		return err
	}
	sealed, err := protectKey(b, passphrase)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(home, ".identity-*.tmp") // mode 0600
	if err != nil {
		return fmt.Errorf("node: protecting identity key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(sealed)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("node: protecting identity key: %w", err)
	}
	if d, err := os.Open(home); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// IdentityProtected reports whether the identity key in home is under a
// passphrase.
func IdentityProtected(home string) (bool, error) {
	f, err := os.Open(filepath.Join(home, IdentityFile))
	if err != nil {
		return false, fmt.Errorf("node: identity key: %w", err)
	}
	defer f.Close()
	head := make([]byte, len(protectedMagic))
	n, _ := io.ReadFull(f, head)
	return isProtected(head[:n]), nil
}
