package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
)

// `kakure bot --invite PEER --games N [--colours alternate|nigiri]`
// plays a match series (docs/series.md, SER-D5): it finds in its games
// directory a series with the same peer, options, number of games and
// colour rule that is not over, or writes a new agreement; it resumes
// the series' unfinished game, if any, and invites the peer to each
// game not played yet, one after the other, printing one line per game
// and the score at the end.

// seriesRunner plays the games of one series from the inviter's side.
type seriesRunner struct {
	p        *peerHandle
	peer     peer.ID
	gamesDir string
	// say prints a line (through the bot's results).
	say func(string)
	// play plays a game to its end (the bot's play).
	play func(g *session.Game, seed uint64)
	// resumed holds the games the bot resumed at its start, with a
	// channel closed when their play ends.
	resumed map[protocol.GameID]<-chan struct{}
	seed    uint64
}

// findSeries returns the agreement of a series of gamesDir between me
// and other with the options o, games games and colour rule colours that
// is not over, if there is one (the newest ID first among several).
func findSeries(gamesDir string, me, other peer.ID, o engine.Options, games int, colours string) (*protocol.SeriesAgreement, error) {
	all, err := session.AllSeriesGames(gamesDir)
	if err != nil {
		return nil, err
	}
	want := protocol.OptionsToBody(o)
	done := map[string]int{}
	agreements := map[string]protocol.SeriesAgreement{}
	for _, g := range all {
		a := g.Agreement
		if a.Inviter != me.String() || a.Invitee != other.String() || a.Options != want || a.Games != games || a.Colours != colours {
			continue
		}
		agreements[a.ID] = a
		if g.Done {
			done[a.ID]++
		}
	}
	ids := make([]string, 0, len(agreements))
	for id := range agreements {
		if done[id] < games {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	slices.Sort(ids)
	a := agreements[ids[0]]
	return &a, nil
}

// run plays the series of a to its end and prints its score.
func (r *seriesRunner) run(ctx context.Context, a protocol.SeriesAgreement) error {
	for ctx.Err() == nil {
		games, err := session.SeriesGames(r.gamesDir, a.ID)
		if err != nil {
			return err
		}
		done := 0
		var unfinished *session.SeriesGame
		for i := range games {
			if games[i].Done {
				done++
			} else if unfinished == nil {
				unfinished = &games[i]
			}
		}
		if unfinished != nil {
			if err := r.finish(ctx, a, *unfinished); err != nil {
				return err
			}
			continue
		}
		if done >= a.Games {
			r.say(seriesScoreLine(a, games))
			return nil
		}
		// The games are played in order: the next index is the number
		// of games over (SER-D3).
		g, err := r.p.service.InviteSeries(ctx, r.peer, a, done)
		if err != nil {
			hint := ""
			if errors.Is(err, session.ErrNoAnswer) {
				// A program of before series refuses the unknown field by
				// resetting the stream (SER-D2).
				hint = " (a kakure older than match series resets a series invitation: the peer may need a newer kakure)"
			}
			return fmt.Errorf("series %s game %d of %d: %w%s", a.ID, done+1, a.Games, err, hint)
		}
		r.say(fmt.Sprintf("game %s started with %s (series %s game %d of %d)", g.ID(), r.peer, a.ID, done+1, a.Games))
		r.play(g, r.seed+uint64(done))
		r.report(a, g.ID())
	}
	return ctx.Err()
}

// finish waits for the series game sg, unfinished, to end: the bot
// resumed it at its start, or it is resumed here.
func (r *seriesRunner) finish(ctx context.Context, a protocol.SeriesAgreement, sg session.SeriesGame) error {
	if ch, ok := r.resumed[sg.Game]; ok {
		delete(r.resumed, sg.Game)
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		r.report(a, sg.Game)
		return nil
	}
	g, err := r.p.service.Resume(ctx, sg.Game)
	if g == nil {
		return fmt.Errorf("series %s game %d of %d: resuming game %s: %w", a.ID, sg.Index+1, a.Games, sg.Game, err)
	}
	r.say(fmt.Sprintf("resuming game %s (series %s game %d of %d)", sg.Game, a.ID, sg.Index+1, a.Games))
	r.play(g, r.seed+uint64(sg.Index)+1000)
	r.report(a, sg.Game)
	return nil
}

// report prints the series line of game id from its record: its index,
// its result and the record's path. A game that did not end (the
// program stops) prints nothing.
func (r *seriesRunner) report(a protocol.SeriesAgreement, id protocol.GameID) {
	games, _ := session.SeriesGames(r.gamesDir, a.ID)
	for _, g := range games {
		if g.Game == id && g.Done {
			r.say(fmt.Sprintf("series %s game %d of %d: %s (inviter %s) record=%s", a.ID, g.Index+1, a.Games,
				describeOutcome(g.Outcome), g.Colors[protocol.Inviter], g.Path))
		}
	}
}

// seriesScore adds up the points of the finished games of a series
// (SER-D6): a win 1, a draw ½ each, a disputed game (no result) nothing;
// by role, in halves.
func seriesScore(games []session.SeriesGame) (halves [2]int, uncounted []string) {
	for _, g := range games {
		if !g.Done || g.Outcome == nil {
			continue
		}
		res := g.Outcome.Result
		switch {
		case res.By == engine.ByDispute:
			uncounted = append(uncounted, fmt.Sprintf("game %d (disputed)", g.Index+1))
		case res.Winner == engine.Empty:
			halves[protocol.Inviter]++
			halves[protocol.Invitee]++
		case res.Winner == g.Colors[protocol.Inviter]:
			halves[protocol.Inviter] += 2
		default:
			halves[protocol.Invitee] += 2
		}
	}
	return halves, uncounted
}

// formatHalves writes a number of half points: "2", "1½", "½".
func formatHalves(h int) string {
	s := strconv.Itoa(h / 2)
	if h%2 == 1 {
		if h == 1 {
			return "½"
		}
		s += "½"
	}
	return s
}

// seriesScoreLine is the last line of a series: "series ID: INVITER 2 –
// 1 INVITEE", and the games not counted.
func seriesScoreLine(a protocol.SeriesAgreement, games []session.SeriesGame) string {
	h, uncounted := seriesScore(games)
	in, _ := peer.Decode(a.Inviter)
	out, _ := peer.Decode(a.Invitee)
	line := fmt.Sprintf("series %s: %s %s – %s %s", a.ID, botShortID(in), formatHalves(h[protocol.Inviter]), formatHalves(h[protocol.Invitee]), botShortID(out))
	if len(uncounted) > 0 {
		line += " (not counted: " + strings.Join(uncounted, ", ") + ")"
	}
	return line
}

// seriesGamesDir is the games directory of a node's home.
func seriesGamesDir(home string) string { return filepath.Join(home, "games") }

// playSeries runs `kakure bot --invite PEER --games N` once the peer is
// reached: it continues the series of the same terms that stopped, or
// starts a new one, plays it to its end while it prints the bot's lines,
// and returns.
func playSeries(ctx context.Context, env *environment, p *peerHandle, pid peer.ID, o engine.Options, games int, colours string, seed uint64,
	resumed map[protocol.GameID]<-chan struct{}, results chan string, play func(*session.Game, uint64)) error {
	o, err := o.Normalize()
	if err != nil {
		return err
	}
	dir := seriesGamesDir(p.node.Home())
	a, err := findSeries(dir, p.node.ID(), pid, o, games, colours)
	if err != nil {
		return err
	}
	if a == nil {
		na, err := session.NewSeriesAgreement(p.node.ID(), pid, o, games, colours)
		if err != nil {
			return err
		}
		a = &na
		fmt.Fprintf(env.stdout, "series %s: %d games of %s with %s, colours %s\n", a.ID, a.Games, o.Variant, pid, a.Colours)
	} else {
		fmt.Fprintf(env.stdout, "series %s: continuing (%d games of %s with %s, colours %s)\n", a.ID, a.Games, o.Variant, pid, a.Colours)
	}
	say := func(line string) {
		select {
		case results <- line:
		case <-ctx.Done():
		}
	}
	r := &seriesRunner{p: p, peer: pid, gamesDir: dir, say: say, play: play, resumed: resumed, seed: seed}
	finished := make(chan error, 1)
	go func() { finished <- r.run(ctx, *a) }()
	for {
		select {
		case line := <-results:
			fmt.Fprintln(env.stdout, line)
		case err := <-finished:
			// The lines sent before the end.
			for {
				select {
				case line := <-results:
					fmt.Fprintln(env.stdout, line)
					continue
				default:
				}
				break
			}
			if ctx.Err() != nil {
				return nil
			}
			return err
		case <-ctx.Done():
			return nil
		}
	}
}

// inviteeSeriesScore is the score line of series a when the games
// directory dir holds all its games over, "" otherwise: the invitee's
// bot prints it after the last game (SER-D6).
func inviteeSeriesScore(dir string, a protocol.SeriesAgreement) string {
	games, err := session.SeriesGames(dir, a.ID)
	if err != nil || len(games) < a.Games {
		return ""
	}
	for _, g := range games {
		if !g.Done {
			return ""
		}
	}
	return seriesScoreLine(a, games)
}
