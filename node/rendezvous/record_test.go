package rendezvous

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

func newKey(t testing.TB) (crypto.PrivKey, peer.ID) {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return key, id
}

var testAddrs = []ma.Multiaddr{
	ma.StringCast("/ip4/127.0.0.1/udp/4001/quic-v1"),
	ma.StringCast("/ip4/127.0.0.1/tcp/4747/p2p/12D3KooWGC6TvWhfapngX6wvJHMYvKpDMXPb3ZnCZ6dMoaMtimQ5/p2p-circuit"),
}

// resign signs the record rec with key as Sign would, for tests that need
// records Sign refuses to make.
func resign(t *testing.T, key crypto.PrivKey, rec Record) SignedRecord {
	t.Helper()
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := key.Sign(append([]byte(signatureDomain), b...))
	if err != nil {
		t.Fatal(err)
	}
	return SignedRecord{Record: b, Signature: sig}
}

func TestRecordSignOpen(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	key, id := newKey(t)
	otherKey, _ := newKey(t)
	code := "maple-otter-quail"
	good, err := Sign(key, code, testAddrs, now.Add(30*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	rec, info, err := good.Open(now)
	if err != nil {
		t.Fatalf("Open of a fresh record: %v", err)
	}
	if rec.Code != code || info.ID != id || len(info.Addrs) != len(testAddrs) {
		t.Fatalf("Open = %+v, %v; want code %s, peer %s, %d addresses", rec, info, code, id, len(testAddrs))
	}
	for i, a := range info.Addrs {
		if !a.Equal(testAddrs[i]) {
			t.Errorf("address %d = %s, want %s", i, a, testAddrs[i])
		}
	}

	base := Record{Code: code, Peer: id.String(), Addrs: []string{testAddrs[0].String()}, Expires: now.Add(time.Minute).Unix()}
	tampered := good
	tampered.Record = []byte(strings.Replace(string(good.Record), "4001", "4002", 1))
	otherSig := good
	otherSig.Signature = resign(t, otherKey, base).Signature
	tests := []struct {
		name string
		sr   SignedRecord
	}{
		{"tampered address", tampered},
		{"signature by another key", otherSig},
		{"signed by another peer than it names", resign(t, otherKey, base)},
		{"expired", resign(t, key, func() Record { r := base; r.Expires = now.Add(-time.Second).Unix(); return r }())},
		{"expires now", resign(t, key, func() Record { r := base; r.Expires = now.Unix(); return r }())},
		{"lives too long", resign(t, key, func() Record { r := base; r.Expires = now.Add(MaxTTL + clockSkew + time.Minute).Unix(); return r }())},
		{"code not canonical", resign(t, key, func() Record { r := base; r.Code = "Maple Otter Quail"; return r }())},
		{"not a code", resign(t, key, func() Record { r := base; r.Code = "hello"; return r }())},
		{"no address", resign(t, key, func() Record { r := base; r.Addrs = nil; return r }())},
		{"too many addresses", resign(t, key, func() Record {
			r := base
			for range MaxAddrs {
				r.Addrs = append(r.Addrs, testAddrs[0].String())
			}
			return r
		}())},
		{"bad address", resign(t, key, func() Record { r := base; r.Addrs = []string{"/ip4/300.1.1.1/tcp/1"}; return r }())},
		{"bad peer ID", resign(t, key, func() Record { r := base; r.Peer = "12D3KooWnope"; return r }())},
		{"unknown field", func() SignedRecord {
			sr := resign(t, key, base)
			sr.Record = []byte(strings.Replace(string(sr.Record), `{"code"`, `{"extra":1,"code"`, 1))
			sig, _ := key.Sign(append([]byte(signatureDomain), sr.Record...))
			sr.Signature = sig
			return sr
		}()},
		{"not JSON", SignedRecord{Record: []byte("nope"), Signature: []byte("x")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := tt.sr.Open(now); !errors.Is(err, ErrBadRecord) {
				t.Errorf("Open = %v, want an error wrapping ErrBadRecord", err)
			}
		})
	}
}

func TestSignKeepsAtMostMaxAddrs(t *testing.T) {
	key, _ := newKey(t)
	many := make([]ma.Multiaddr, MaxAddrs+5)
	for i := range many {
		many[i] = testAddrs[0]
	}
	sr, err := Sign(key, "maple-otter-quail", many, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := sr.Open(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Addrs) != MaxAddrs {
		t.Errorf("%d addresses, want %d", len(info.Addrs), MaxAddrs)
	}
}
