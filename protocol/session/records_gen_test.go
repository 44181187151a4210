package session_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// fuzzRecordGames are the games whose records seed the fuzz targets and
// the corruption tests (testdata/records): one per variant playable over
// the network, and a short one with chat and a resignation.
var fuzzRecordGames = []struct {
	name    string
	o       engine.Options
	inviter func() bot.Player
	invitee func() bot.Player
}{
	{"go", engine.Options{Variant: engine.VariantGo, Size: 5}, randomBot(1), randomBot(2)},
	{"go-resign", engine.Options{Variant: engine.VariantGo, Size: 5},
		func() bot.Player { return &chattyResigner{p: bot.NewRandom(3), resignAfter: 3} }, randomBot(4)},
	{"fgo", engine.Options{Variant: engine.VariantFGo, Size: 5}, quickBotMaker(5, 12), quickBotMaker(6, 12)},
	{"bridge", engine.Options{Variant: engine.VariantBridge, Size: 5}, quickBotMaker(7, 20), quickBotMaker(8, 20)},
	{"hmg", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 2, CardsSet: true}, randomBot(9), randomBot(10)},
	{"gomoku", engine.Options{Variant: engine.VariantGomoku, Size: 7}, randomBot(11), randomBot(12)},
	{"phantom", engine.Options{Variant: engine.VariantPhantom, Size: 5}, randomBot(13), randomBot(14)},
	// A checked game (MPC-D14) with three-halves garbling (MPC-D26),
	// so that a change of the checked try's messages shows in its golden
	// file; short (the invitee resigns after ten moves: the resignation
	// runs the audit, PN-10), since every test that reads the records
	// replays the audit of its checked tries.
	{"phantom-checked", engine.Options{Variant: engine.VariantPhantom, Size: 5, Lambda: 4, Garbling: engine.GarblingThreeHalves},
		randomBot(15), resignerAfter(16, 10)},
	// The same with the correlated input OTs (MPC-D28): the reverse
	// extension's digests on commit, setup, base and every garbling.
	{"phantom-cot", engine.Options{Variant: engine.VariantPhantom, Size: 5, Lambda: 4, Garbling: engine.GarblingThreeHalves,
		InputOT: engine.InputOTCorrelated}, randomBot(17), resignerAfter(18, 10)},
	// The same with the evaluator's tries by flips (MPC-D52): its
	// request, commitment and choice ahead, then phantom-flips.
	{"phantom-flips", engine.Options{Variant: engine.VariantPhantom, Size: 5, Lambda: 4, Garbling: engine.GarblingThreeHalves,
		InputOT: engine.InputOTCorrelated, Own: engine.OptionTryFlips + "=true"}, randomBot(19), resignerAfter(20, 10)},
}

func randomBot(seed uint64) func() bot.Player {
	return func() bot.Player { return bot.NewRandom(seed) }
}

// resignerAfter is a random player that plays moves moves and resigns
// (without chat: a chat message between the two programs' concurrent
// messages of a Phantom Go try could be written in either order).
func resignerAfter(seed uint64, moves int) func() bot.Player {
	return func() bot.Player { return &chattyResigner{p: bot.NewRandom(seed), resignAfter: moves, chatted: true} }
}

func quickBotMaker(seed uint64, max int) func() bot.Player {
	return func() bot.Player { return quickBot(seed, max) }
}

// chattyResigner says hello once, plays resignAfter moves with p, then
// resigns.
type chattyResigner struct {
	p           bot.Player
	resignAfter int
	moves       int
	chatted     bool
}

func (c *chattyResigner) Choose(v protocol.View) protocol.Action {
	if !c.chatted {
		c.chatted = true
		return protocol.Chat{Text: "hello, good game"}
	}
	if c.moves >= c.resignAfter {
		return protocol.Resign{}
	}
	c.moves++
	return c.p.Choose(v)
}

// hostWithRecordKey starts a loopback host with the fixed key of role r.
func hostWithRecordKey(t *testing.T, r protocol.Role) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.Identity(session.RecordTestKey(r)),
		libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// TestWriteFuzzRecords writes testdata/records from games between bots
// on hosts with the fixed fuzz keys (fuzzRecordGames, and the games of
// reportRecordGames, in which one program cheats). It only runs with
// KAKURE_WRITE_RECORDS=1 or -update (after a change of the record format
// or of a variant's messages); TestGoldenRecords then writes
// testdata/golden from them.
func TestWriteFuzzRecords(t *testing.T) {
	if os.Getenv("KAKURE_WRITE_RECORDS") != "1" && !*updateGolden {
		t.Skip("set KAKURE_WRITE_RECORDS=1 or -update to write testdata/records")
	}
	if err := os.MkdirAll(filepath.Join("..", "testdata", "records"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, gm := range fuzzRecordGames {
		t.Run(gm.name, func(t *testing.T) {
			writeRecord(t, gm.name, nil, func(p *pair) *session.Game {
				a, _ := playPlayers(t, p, gm.o, gm.inviter(), gm.invitee())
				return a
			})
		})
	}
	for _, gm := range reportRecordGames {
		t.Run(gm.name, func(t *testing.T) {
			hook := gm.cheat(t)
			writeRecord(t, gm.name, func(i int, c *session.Config) {
				if protocol.Role(i) == protocol.Inviter {
					session.SetTamper(c, hook)
				}
			}, func(p *pair) *session.Game { return playRecordReport(t, p, gm.o, gm.cheater(), gm.honest()) })
		})
	}
}

// writeRecord plays a game with play between two services on hosts with
// the fixed record keys (set up by setup, if not nil, before they start)
// and writes the record of the game play returns to
// testdata/records/NAME.record.json.
func writeRecord(t *testing.T, name string, setup func(i int, c *session.Config), play func(p *pair) *session.Game) {
	cfgs := []func(int, *session.Config){func(_ int, c *session.Config) {
		// The durations the records were written with, not scaled.
		c.IdleTimeout, c.AutoGrace = 10*time.Second, 5*time.Second
	}}
	if setup != nil {
		cfgs = append(cfgs, setup)
	}
	p := newPairOn(t, [2]host.Host{hostWithRecordKey(t, protocol.Inviter), hostWithRecordKey(t, protocol.Invitee)}, cfgs...)
	g := play(p)
	data, err := os.ReadFile(g.RecordPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "testdata", "records", name+".record.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: the %s's record, %d messages, %v", name, g.Role(), len(g.Transcript().Messages), g.Outcome().Result)
}
