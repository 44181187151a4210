package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/protocol/session"
)

// Reaching the peer to invite (kakure bot --invite, --join) is tried
// again when the network fails, with growing pauses, until --connect-for
// runs out (NET-D13 in docs/internet.md): a link cut while the first
// connection is set up is common on real networks, and ends in errors
// such as "failed to negotiate security protocol" that say nothing to a
// player.
const (
	firstRetryPause = time.Second
	maxRetryPause   = 15 * time.Second
)

// isPermanent reports whether err cannot be mended by trying again: a
// failure whose class says so (node.FailureKind.Retryable: a bad or
// unknown code, a code two peers claim, a peer ID that does not match
// its address, no path through the NATs, a configuration that cannot
// work: NET-D22), another protocol version, or the end of ctx.
func isPermanent(err error) bool {
	return !node.Retryable(err) || errors.Is(err, session.ErrOtherVersion)
}

// retryConnect runs attempt until it succeeds, fails permanently, ctx
// ends or the time budget runs out, pausing 1 s, 2 s, 4 s ... (at most
// maxRetryPause) between attempts. Each failure is reported on out by
// its headline with the attempt's number, e.g. "reaching 12D3Ko…: the
// connection to 12D3KooWAbc… was cut while it was being set up; trying
// again in 2s (3rd try)", and with verbose the raw error after it. The
// error it returns says how long it tried.
func retryConnect(ctx context.Context, out io.Writer, what string, budget time.Duration, verbose bool, attempt func(ctx context.Context) error) error {
	start := time.Now()
	pause := firstRetryPause
	for try := 1; ; try++ {
		err := attempt(ctx)
		if err == nil {
			if try > 1 {
				fmt.Fprintf(out, "%s: succeeded at the %s try after %.1fs\n", what, node.Ordinal(try), time.Since(start).Seconds())
			}
			return nil
		}
		if isPermanent(err) || ctx.Err() != nil {
			return err
		}
		left := budget - time.Since(start)
		if left <= pause {
			return fmt.Errorf("%s: gave up after %d tries in %.0fs: %w", what, try, time.Since(start).Seconds(), err)
		}
		fmt.Fprintf(out, "%s: %s%s; trying again in %s (%s try)\n", what, headline(err), detailSuffix(err, verbose), pause, node.Ordinal(try+1))
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return ctx.Err()
		}
		pause = min(2*pause, maxRetryPause)
	}
}

// headline says in one line what a failed connection attempt met: a
// node.Failure's headline, or the error's text on one line.
func headline(err error) string {
	if f := node.AsFailure(err); f != nil {
		return f.Headline
	}
	return oneLine(userMessage(err))
}

// detailSuffix returns " (raw detail)" for a node.Failure when verbose,
// "" otherwise: the raw error is for -v and the log (NET-D22).
func detailSuffix(err error, verbose bool) string {
	if !verbose {
		return ""
	}
	if f := node.AsFailure(err); f != nil && f.Detail() != "" {
		return " (" + f.Detail() + ")"
	}
	return ""
}

// printDetail writes the raw detail of err's node.Failure to w, with
// verbose: what the headline leaves out.
func printDetail(w io.Writer, err error, verbose bool) {
	if f := node.AsFailure(err); verbose && f != nil && f.Detail() != "" {
		fmt.Fprintf(w, "detail (%s): %s\n", f.Kind, f.Detail())
	}
}

// oneLine joins the lines of a (libp2p's multi-line) error message.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
