package node_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/node"
)

// FuzzParsePeerAddr reads arbitrary peer addresses (what users paste and
// `kakure id` prints): nothing panics, every error wraps ErrBadAddress, and
// an address that reads names a peer and at least one address, and reads
// back the same once written as `kakure id` writes it.
func FuzzParsePeerAddr(f *testing.F) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	for _, s := range []string{
		"/ip4/192.0.2.7/udp/4001/quic-v1/p2p/" + id.String(),
		"/ip4/127.0.0.1/tcp/4001/p2p/" + id.String(),
		"/ip6/::1/tcp/0/p2p/" + id.String(),
		"/dns4/example.com/tcp/443/tls/ws/p2p/" + id.String(),
		"/p2p/" + id.String(),
		"/ip4/1.2.3.4/tcp/80",
		"",
		"12D3KooW",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		info, err := node.ParsePeerAddr(s)
		if err != nil {
			if !errors.Is(err, node.ErrBadAddress) {
				t.Fatalf("ParsePeerAddr(%q) = %v, not an ErrBadAddress", s, err)
			}
			return
		}
		if info.ID == "" || len(info.Addrs) == 0 {
			t.Fatalf("ParsePeerAddr(%q) = %+v without a peer or an address", s, info)
		}
		addrs, err := peer.AddrInfoToP2pAddrs(&info)
		if err != nil {
			t.Fatalf("ParsePeerAddr(%q) = %+v, which does not write back: %v", s, info, err)
		}
		back, err := node.ParsePeerAddr(addrs[0].String())
		if err != nil || back.ID != info.ID || !back.Addrs[0].Equal(info.Addrs[0]) {
			t.Fatalf("%q read, written as %s, reads back as %+v (%v)", s, addrs[0], back, err)
		}
	})
}

// FuzzIdentityKeyFile reads arbitrary identity key files: nothing panics;
// a file that reads is an Ed25519 key, and any other file is refused and
// left exactly as it was (never replaced by a new identity).
func FuzzIdentityKeyFile(f *testing.F) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	good, err := crypto.MarshalPrivateKey(key)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add([]byte("not a key"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		home := t.TempDir()
		path := filepath.Join(home, node.IdentityFile)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		k, err := node.LoadOrCreateIdentity(home)
		after, rerr := os.ReadFile(path)
		if rerr != nil || !bytes.Equal(after, data) {
			t.Fatalf("the key file changed (%v)", rerr)
		}
		if err != nil {
			return
		}
		if k.Type() != crypto.Ed25519 {
			t.Fatalf("a %v key was accepted", k.Type())
		}
	})
}
