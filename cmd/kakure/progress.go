package main

import (
	"context"
	"fmt"
	"time"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// defaultProgressEvery is how often kakure bot and kakure match say how a
// running game stands (MATCH-D4, docs/bots.md).
const defaultProgressEvery = 30 * time.Second

// gameProgress says how far a game has come, from a player's view: the
// moves played (turns in Hidden Move Go and F-Go, where a turn is what a
// player counts), and in Phantom Go the tries too, illegal ones included:
// a Phantom game of 60 moves may take 200 tries, each a secure
// computation. The variant's view words it (VariantView.Progress); it
// returns "" before play.
func gameProgress(v protocol.View) string {
	if v.Variant == nil {
		return "" // before play
	}
	return v.Variant.Progress()
}

// reportProgress sends a line to say how game g stands, every every, until
// the game ends or ctx is done (MATCH-D4): "progress: game NAME: move 57,
// 2m30s" (the prefix keeps it apart from the "game NAME:" result lines). A
// zero every sends nothing. The line goes to say, which must not block
// for long.
func reportProgress(ctx context.Context, g *session.Game, name string, every time.Duration, say func(string)) {
	if every <= 0 {
		return
	}
	start := time.Now()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			v := g.View()
			if v.Outcome != nil {
				return
			}
			p := gameProgress(v)
			if p == "" {
				p = string(v.Phase)
			}
			adjourned := ""
			if v.Adjourned {
				adjourned = ", waiting for the other peer"
			}
			say(fmt.Sprintf("progress: game %s: %s, %s%s", name, p, roundElapsed(time.Since(start)), adjourned))
		case <-g.Done():
			return
		case <-ctx.Done():
			return
		}
	}
}

// roundElapsed rounds a game's time for a progress line: to the tenth of
// a second under ten seconds, to the second after.
func roundElapsed(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
