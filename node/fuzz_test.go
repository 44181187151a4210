package node_test

import (
	"bytes"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

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
		k, err := node.LoadOrCreateIdentity(home, nil)
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

// FuzzLoadFileConfig reads arbitrary configuration files: nothing panics;
// a file that reads has relay addresses that parse as peer addresses and
// listen addresses that parse as multiaddrs, and a file that does not is
// an error naming it.
func FuzzLoadFileConfig(f *testing.F) {
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	for _, s := range []string{
		`{"relays": ["/ip4/203.0.113.7/udp/4747/quic-v1/p2p/` + id.String() + `"], "listen": ["/ip4/0.0.0.0/udp/0/quic-v1", "/ip4/0.0.0.0/tcp/0"]}`,
		`{}`,
		`{"relay": []}`,
		`{"listen": ["not an address"]}`,
		`{} {}`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		home := t.TempDir()
		path := filepath.Join(home, node.ConfigFileName)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fc, err := node.LoadFileConfig(home)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("the error %q does not name the file", err)
			}
			return
		}
		if _, err := node.ParseRelayAddrs(fc.Relays); err != nil {
			t.Fatalf("relays read from the file do not parse: %v", err)
		}
		for _, s := range fc.Listen {
			if _, err := ma.NewMultiaddr(s); err != nil {
				t.Fatalf("listen address %q read from the file does not parse: %v", s, err)
			}
		}
	})
}
