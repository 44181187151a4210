package session_test

import (
	"fmt"
	"testing"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol/session"
)

// TestPND20OneSecretsSavePerMessage checks PN-D20: in a Phantom Go game
// saved to disk, each program encodes its secrets once for each message
// it sends (send's save, after the message is applied and before the
// record and the stream take it), not once more for the player's step
// that made it. Beyond its messages a program saves at most three times
// (its coin toss commitment, the end of the game). Fewer saves than
// messages would send one that no save preceded.
func TestPND20OneSecretsSavePerMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lambda  int
		inputOT string
	}{{1, ""}, {4, engine.InputOTAuthenticatedMAC64}} {
		t.Run(fmt.Sprintf("lambda-%d/%s", tc.lambda, tc.inputOT), func(t *testing.T) {
			p := newPair(t)
			o := engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesCommon, Lambda: tc.lambda, InputOT: tc.inputOT,
				Garbling: engine.GarblingThreeHalves}
			host, guest := playBots(t, p, o, 20)
			for _, g := range []*session.Game{host, guest} {
				own := int64(g.Transcript().Count(g.Role()))
				saves := session.SecretsSaves(g)
				t.Logf("%v: %d messages sent, %d saves of the secrets", g.Role(), own, saves)
				if saves < own || saves > own+3 {
					t.Errorf("%v sent %d messages and saved its secrets %d times: want one save a message, at most 3 more (PN-D20)", g.Role(), own, saves)
				}
			}
		})
	}
}
