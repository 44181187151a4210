package session

import (
	"github.com/kakure/kakure/protocol"

	"crypto/ed25519"
	"crypto/sha256"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// RecordTestKey returns the fixed identity key of role r in the records
// of testdata/records, which the fuzz targets re-sign messages with. Test
// keys only: derived from a public string.
func RecordTestKey(r protocol.Role) crypto.PrivKey {
	seed := sha256.Sum256([]byte(fmt.Sprintf("kakure fuzz record key %d", r)))
	key, err := crypto.UnmarshalEd25519PrivateKey(ed25519.NewKeyFromSeed(seed[:]))
	if err != nil {
		panic(err)
	}
	return key
}

// RunningGames returns how many games of the service still run their
// loop, with any peer.
func (s *Service) RunningGames() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, g := range s.games {
		select {
		case <-g.done:
		default:
			n++
		}
	}
	return n
}
