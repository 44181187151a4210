package session_test

import (
	"testing"

	"github.com/kakure/kakure/protocol/bridgerules"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestBG3BridgeGamesOverLoopback plays whole games of Bridge Go between
// random bots on real hosts: both peers agree on the result (a bridge
// wins, BG-3; two passes draw, BG-1), and Verify accepts both records.
func TestBG3BridgeGamesOverLoopback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		o    engine.Options
		seed uint64
		max  int // moves before the bots pass
	}{
		{"BG-3 9x9", engine.Options{Variant: engine.VariantBridge, Size: 9}, 21, 80},
		{"BG-5 9x9 perpendicular", engine.Options{Variant: engine.VariantBridge, Size: 9, Perpendicular: true}, 22, 80},
		{"BG-3 5x5 to the end", engine.Options{Variant: engine.VariantBridge, Size: 5}, 23, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newPair(t)
			a, b := playPlayers(t, p, tt.o, quickBot(tt.seed, tt.max), quickBot(tt.seed+1, tt.max))
			out := a.Outcome()
			v := a.View()
			bv := v.Variant.(bridgerules.View)
			if v.Options.Perpendicular != tt.o.Perpendicular || !bv.Game.Over() {
				t.Fatalf("options %+v, game over %v", v.Options, bv.Game.Over())
			}
			want, _ := bv.Game.Result()
			if out.Violation != nil || out.Result != want || (want.By != engine.ByWin && want.By != engine.ByDraw) {
				t.Fatalf("outcome %+v, the game gives %v", out, want)
			}
			if want.By == engine.ByWin && (bv.Winner != want.Winner || len(bv.WinningChain) == 0) {
				t.Errorf("view winner %v chain %v for %v", bv.Winner, bv.WinningChain, want)
			}
			kinds := checkRecords(t, a, b)
			if kinds[protocol.KindMove] != bv.Game.MoveNumber() {
				t.Errorf("%d moves in the record, %d in the game", kinds[protocol.KindMove], bv.Game.MoveNumber())
			}
			t.Logf("%d moves, result %v", bv.Game.MoveNumber(), out.Result)
		})
	}
}

// TestBG1CheatBridgeMoveOutOfTurn: the cheater sends a second move right
// after its own; the honest peer reports BG-1 (the players alternate).
func TestBG1CheatBridgeMoveOutOfTurn(t *testing.T) {
	hook := cheatOn(protocol.KindMove, 2, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
		extra := *m
		extra.Seq++
		extra.Prev = m.Hash()
		extra.Body = session.MustEncodeBody(protocol.MoveBody{Point: "pass"})
		resign(t, &extra, key)
		return [][]byte{session.FrameOf(m), session.FrameOf(&extra)}
	})
	h := playCheatingGame(t, engine.Options{Variant: engine.VariantBridge, Size: 9},
		func(c *session.Config) { session.SetTamper(c, hook) },
		&waitsForCheat{p: bot.NewRandom(2), after: 2})
	checkCaught(t, h, "BG-1", "out of turn")
}
