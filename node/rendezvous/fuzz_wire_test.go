package rendezvous

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// fuzzKey returns a fixed test key (derived from a public string), so
// that the seeds of the fuzz targets hold records that verify.
func fuzzKey(i int) (crypto.PrivKey, peer.ID) {
	seed := sha256.Sum256([]byte(fmt.Sprintf("kakure rendezvous fuzz key %d", i)))
	key, err := crypto.UnmarshalEd25519PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		panic(err)
	}
	id, _ := peer.IDFromPrivateKey(key)
	return key, id
}

// fuzzNow is the fixed clock of the fuzz targets.
var fuzzNow = time.Unix(1_800_000_000, 0)

// framedMessage returns v as the wire writes it.
func framedMessage(t testing.TB, v any) []byte {
	var b bytes.Buffer
	if err := writeMessage(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// FuzzRendezvousWire feeds arbitrary bytes to both ends of the rendezvous
// protocol. As a server (a hostile client): requests from two peers are
// read and served in turn; nothing panics, every answer has a known
// status, no peer holds more codes than its share, and a code looked up
// comes with a record that opens and names the peer that registered it.
// As a client (a hostile relay): an arbitrary response is read, and a
// record in it is opened; an opened record names a peer, its addresses
// and a canonical code.
func FuzzRendezvousWire(f *testing.F) {
	var seed bytes.Buffer
	for i := range 2 {
		key, _ := fuzzKey(i)
		code := []string{"maple-otter-quail", "acorn-acorn-acorn"}[i]
		addr := ma.StringCast("/ip4/192.0.2.7/udp/4001/quic-v1")
		sr, err := Sign(key, code, []ma.Multiaddr{addr}, fuzzNow.Add(30*time.Minute))
		if err != nil {
			f.Fatal(err)
		}
		seed.Write(framedMessage(f, request{Op: opRegister, Record: &sr}))
		seed.Write(framedMessage(f, request{Op: opLookup, Code: code}))
		f.Add(seed.Bytes(), uint8(i))
		f.Add(framedMessage(f, response{Status: statusOK, Record: &sr}), uint8(i))
	}
	seed.Write(framedMessage(f, request{Op: opUnregister, Code: "map ott qua"}))
	f.Add(seed.Bytes(), uint8(3))
	f.Add(framedMessage(f, response{Status: statusRefused, Message: "full"}), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, who uint8) {
		s := &Server{cfg: ServerConfig{MaxCodes: 8, MaxCodesPerPeer: 2, MaxCodesPerIP: 4, Now: func() time.Time { return fuzzNow }},
			codes: map[string]entry{}}
		r := bufio.NewReader(bytes.NewReader(data))
		for i := 0; i < 16; i++ {
			var req request
			if err := readMessage(r, &req); err != nil {
				break
			}
			_, from := fuzzKey(int(who>>i) & 1)
			resp := s.serve(from, "192.0.2.1", req)
			switch resp.Status {
			case statusOK, statusNotFound, statusTaken, statusBadRequest, statusRefused:
			default:
				t.Fatalf("status %q", resp.Status)
			}
			if req.Op == opLookup && resp.Status == statusOK {
				rec, info, err := resp.Record.Open(fuzzNow)
				if err != nil {
					t.Fatalf("a looked-up record does not open: %v", err)
				}
				if e := s.codes[rec.Code]; e.owner != info.ID {
					t.Fatalf("code %s held by %s gives a record of %s", rec.Code, e.owner, info.ID)
				}
			}
			perPeer := map[peer.ID]int{}
			for _, e := range s.codes {
				perPeer[e.owner]++
			}
			for p, n := range perPeer {
				if n > s.cfg.MaxCodesPerPeer {
					t.Fatalf("peer %s holds %d codes", p, n)
				}
			}
		}
		// The other end: a relay's answer.
		var resp response
		if err := readMessage(bufio.NewReader(bytes.NewReader(data)), &resp); err != nil {
			return
		}
		resp.err()
		if resp.Record == nil {
			return
		}
		rec, info, err := resp.Record.Open(fuzzNow)
		if err != nil {
			return
		}
		if canon, err := ParseCode(rec.Code); err != nil || canon != rec.Code {
			t.Fatalf("an opened record has the code %q", rec.Code)
		}
		if info.ID.String() != rec.Peer || len(info.Addrs) == 0 || len(info.Addrs) > MaxAddrs {
			t.Fatalf("an opened record gives %+v for %+v", info, rec)
		}
	})
}
