package session_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// TestLIMD10AttachmentBudget: peers open games of Phantom Go (the variant
// that takes attachments) with the victim and, in each, send attachments
// without the message that names them, each game within its own cap
// (4 × MaxBulkSize) but together beyond the victim's budget: for one peer
// (BulkBudgetPerPeer), and for two peers together (BulkBudget). The
// victim never holds more than the budget: the stream that would exceed
// it is not read (back-pressure) and its game is adjourned after the idle
// timeout; attachments parked without their message are dropped the same
// way. Honest games on the victim complete meanwhile (one of Phantom Go
// when only the per-peer budget is full), everything charged comes back,
// and the goroutines come back to their number.
func TestLIMD10AttachmentBudget(t *testing.T) {
	parallelUnlessRace(t)
	const chunk = 4 << 20 // bytes of one attachment of the attack
	tests := []struct {
		name            string
		perPeer, total  int64
		peers, games    int
		honestPhantom   bool
		wantHeldAtMost  int64
		wantStoppedOver string
	}{
		{name: "per peer", perPeer: 16 << 20, peers: 1, games: 3, honestPhantom: true,
			wantHeldAtMost: 16 << 20, wantStoppedOver: "this peer's budget is full"},
		{name: "whole service", perPeer: 32 << 20, total: 24 << 20, peers: 2, games: 2,
			wantHeldAtMost: 24 << 20, wantStoppedOver: "the node's budget is full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			trackGoroutines(t)
			log := &lockedBuffer{}
			a := newArenaWith(t, true, func(c *session.Config) {
				c.AutoGrace = time.Minute // the attackers never toss the coin
				// A 4 MiB attachment must come whole within the idle
				// timeout, which stretches with a loaded machine: at a
				// load of 25 the 2 s of hostileTimeouts cut the attacks by
				// their read deadline before any reached the budget.
				c.IdleTimeout = testenv.Duration(2 * time.Second)
				c.BulkBudgetPerPeer, c.BulkBudget = tt.perPeer, tt.total
				c.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(log, testWriter{t, 1}), &slog.HandlerOptions{Level: slog.LevelDebug}))
			}, func(c *session.Config) {
				// The secure computation is slow under the race detector.
				c.AutoGrace = 30 * time.Second
			})
			a.honestGame(t, 31)
			baseline := goroutines(t)
			phantom := engine.Options{Variant: engine.VariantPhantom, Size: 5}
			// A bulk frame: its length, the marker 'B', the data (above
			// MaxFrameSize, so WriteFrame would refuse it).
			body := append([]byte{'B'}, bytes.Repeat([]byte{0x5a}, chunk)...)
			attachment := append(binary.AppendUvarint(nil, uint64(len(body))), body...)

			var wg sync.WaitGroup
			var mu sync.Mutex
			var attempted, stopped int
			var evils []*rawPeer
			start := time.Now()
			for range tt.peers {
				evil := newRawPeer(t, a.vhost)
				evils = append(evils, evil)
				for range tt.games {
					id, _ := protocol.NewGameID()
					st, err := evil.open(a.ctx, a.vhost.ID())
					if err != nil {
						t.Fatal(err)
					}
					defer st.Reset()
					for _, f := range [][]byte{session.HelloFrame(id), session.FrameOf(evil.invitationOf(t, a.vhost.ID(), id, phantom))} {
						if err := protocol.WriteFrame(st, f); err != nil {
							t.Fatal(err)
						}
					}
					r := bufio.NewReader(st)
					if m, err := readMessage(r, st, 5*time.Second); err != nil || m.Kind != protocol.KindAccept {
						t.Fatalf("invitation: %+v, %v", m, err)
					}
					wg.Add(1)
					go func() {
						defer wg.Done()
						// Three attachments (within the game's cap), then
						// nothing but keep-alives: the victim must cut the
						// stream, by the budget or for parking them.
						st.SetWriteDeadline(testenv.Deadline(20 * time.Second))
						for range 3 {
							mu.Lock()
							attempted++
							mu.Unlock()
							if _, err := st.Write(attachment); err != nil {
								break
							}
						}
						go keepAlive(st)
						st.SetReadDeadline(testenv.Deadline(20 * time.Second))
						_, err := io.Copy(io.Discard, r)
						if err != nil && !strings.Contains(err.Error(), "deadline") {
							mu.Lock()
							stopped++
							mu.Unlock()
						}
					}()
				}
			}
			if tt.honestPhantom && !phantomRace {
				a.honestGameOf(t, 32, phantom)
				t.Logf("honest game of Phantom Go done after %v", time.Since(start))
			}
			a.honestGame(t, 33)
			t.Logf("honest game of Go done after %v", time.Since(start))
			wg.Wait()
			t.Logf("every attacking game cut after %v", time.Since(start))
			now, peak := a.victim.BulkHeld()
			heldBack := strings.Count(log.String(), "waits for room in the budget")
			fitted := strings.Count(log.String(), "did not fit within")
			parked := strings.Count(log.String(), "without their message for")
			t.Logf("%d peers × %d games: %d attachments of %d bytes sent, %d held back at the budget, %d games cut by the victim (%d at the budget, %d for parking); held at most %d bytes, budget %d",
				tt.peers, tt.games, attempted, chunk, heldBack, stopped, fitted, parked, peak, tt.wantHeldAtMost)
			if peak > tt.wantHeldAtMost {
				t.Errorf("the victim held %d bytes of attachments, the budget is %d", peak, tt.wantHeldAtMost)
			}
			if peak < chunk {
				t.Errorf("the victim held at most %d bytes: the attack did not reach it", peak)
			}
			if stopped != tt.peers*tt.games {
				t.Errorf("%d of %d attacking games were cut", stopped, tt.peers*tt.games)
			}
			// Which cut comes first, the held-back stream's at the end of
			// its wait or the parked games', is the machine's timing; that
			// a stream was held back, and why, is not.
			if heldBack == 0 || !strings.Contains(log.String(), tt.wantStoppedOver) {
				t.Errorf("no stream was held back at the budget (%q)", tt.wantStoppedOver)
			}
			deadline := testenv.Deadline(10 * time.Second)
			for now != 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
				now, _ = a.victim.BulkHeld()
			}
			if now != 0 {
				t.Errorf("the victim still holds %d bytes of attachments after the attack", now)
			}
			t.Logf("all attachments given back after %v", time.Since(start))
			// The attackers' games are adjourned, not decided: exceeding
			// a budget of this node is no violation of the rules.
			for _, id := range recordIDs(t, a) {
				if g := a.victim.Game(id); g != nil {
					if out := g.Outcome(); out != nil && out.Violation != nil && g.Peer() != a.hhost.ID() {
						t.Errorf("an attacker's game ended with %v", out.Violation)
					}
				}
			}
			a.checkVictimRecords(t)
			for _, id := range recordIDs(t, a) {
				if g := a.victim.Game(id); g != nil && g.Peer() != a.hhost.ID() {
					g.Close()
				}
			}
			for _, evil := range evils {
				evil.h.Close()
			}
			t.Logf("checks done after %v", time.Since(start))
			waitGoroutines(t, baseline, 0)
		})
	}
}
