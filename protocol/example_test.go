package protocol_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/kakure/kakure/protocol"
	// The core names no variant: each variant's rules register
	// themselves with it (ARCH-D3). A program that replays records of
	// any variant imports them all, as here.
	_ "github.com/kakure/kakure/protocol/variants"
)

// The replayable core (ARCH-D1) checks a record from its bytes alone: the
// signatures against the keys in the peers' IDs, the hash chains, and the
// whole game through the same machine the peers ran. A record with one
// move changed no longer carries its sender's signature.
func Example() {
	data, err := os.ReadFile("testdata/records/go-resign.record.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := protocol.ParseTranscript(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("inviter", tr.Peers[protocol.Inviter])
	text, ok := protocol.Verify(tr).Describe(tr.Peers)
	fmt.Printf("%s(ok %t)\n", text, ok)

	changed := bytes.Replace(data, []byte(`{"point":"C2"}`), []byte(`{"point":"C3"}`), 1)
	_, err = protocol.ParseTranscript(changed)
	fmt.Println("one move changed: bad signature:", errors.Is(err, protocol.ErrBadSignature))
	// Output:
	// inviter 12D3KooWLbxP7LDZuX89jpMzu4o7pWojNGPpbuehVpsDpooATmUN
	// ok: result W+R (resign)
	// (ok true)
	// one move changed: bad signature: true
}
