package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kakure/kakure/node"
	"github.com/kakure/kakure/node/rendezvous"
	"github.com/kakure/kakure/protocol"
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

// isPermanent reports whether err cannot be mended by trying again: a bad
// address or code, no relay, a code nobody hosts or two peers claim, a
// host reachable only through a limited public relay (NET-D19), another
// protocol version, or the end of ctx.
func isPermanent(err error) bool {
	return errors.Is(err, node.ErrBadAddress) || errors.Is(err, node.ErrNoRelays) ||
		errors.Is(err, node.ErrAmbiguousCode) || errors.Is(err, node.ErrLimitedRelay) ||
		errors.Is(err, rendezvous.ErrBadCode) || errors.Is(err, rendezvous.ErrNotFound) ||
		errors.Is(err, protocol.ErrOtherVersion) || errors.Is(err, context.Canceled)
}

// retryConnect runs attempt until it succeeds, fails permanently, ctx
// ends or the time budget runs out, pausing 1 s, 2 s, 4 s ... (at most
// maxRetryPause) between attempts. Each failure is reported on out in
// plain words with the attempt's number, e.g. "reaching 12D3Ko…: the
// connection was cut while it was being set up (...); trying again in
// 2s (3rd try)". The error it returns says how long it tried.
func retryConnect(ctx context.Context, out io.Writer, what string, budget time.Duration, attempt func(ctx context.Context) error) error {
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
			return fmt.Errorf("%s: gave up after %d tries in %.0fs: %s: %w", what, try, time.Since(start).Seconds(), explainNetError(err), err)
		}
		fmt.Fprintf(out, "%s: %s (%s); trying again in %s (%s try)\n", what, explainNetError(err), oneLine(err.Error()), pause, node.Ordinal(try+1))
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return ctx.Err()
		}
		pause = min(2*pause, maxRetryPause)
	}
}

// explainNetError says in plain words what a failed connection attempt
// met.
func explainNetError(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "failed to negotiate security protocol"), strings.Contains(s, "failed to negotiate stream multiplexer"),
		strings.Contains(s, "connection reset"), strings.Contains(s, "EOF"):
		return "the connection was cut while it was being set up"
	case strings.Contains(s, "connection refused"):
		return "the peer refused the connection (is it running, at that port?)"
	case strings.Contains(s, "timeout"), strings.Contains(s, "deadline exceeded"), strings.Contains(s, "timed out"):
		return "no answer from the peer in time"
	case strings.Contains(s, "no relay reachable"):
		return "no relay could be reached"
	case strings.Contains(s, "no route to host"), strings.Contains(s, "network is unreachable"):
		return "the network cannot reach the peer"
	default:
		return "the connection failed"
	}
}

// oneLine joins the lines of a (libp2p's multi-line) error message.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
