package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/sec"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"

	"github.com/kakure/kakure/node/rendezvous"
)

// One vocabulary for what goes wrong when reaching a peer (NET-D22 in
// docs/internet.md): every failure of Connect, HostInvite and JoinInvite
// is a *Failure, classified once where it happens, whose Error is a
// headline of one line that names the cause and says what to do. The raw
// detail (libp2p's dial errors, often a dozen lines) stays behind it:
// Detail returns it, errors.Is and errors.As reach it, and kakure.log
// records it; programs print it only when asked (kakure bot -v).

// FailureKind is the class of a failure to reach a peer.
type FailureKind int

// Failure classes.
const (
	// FailCut: the connection broke while it was being set up, or
	// failed for a reason none of the others names. Trying again may
	// mend it.
	FailCut FailureKind = iota
	// FailBadCode: what was typed is not an invite code.
	FailBadCode
	// FailCodeNotFound: nobody hosts the code (mistyped, or its host
	// stopped hosting it).
	FailCodeNotFound
	// FailAmbiguousCode: more than one peer claims the code
	// (ErrAmbiguousCode).
	FailAmbiguousCode
	// FailPeerOffline: the peer does not answer: its program stopped,
	// or its machine is off the network (refused, silent, or no longer
	// on the relay that held it).
	FailPeerOffline
	// FailPeerMismatch: something answers at the address, under another
	// peer ID than the one asked for: the address is out of date.
	FailPeerMismatch
	// FailRelayDown: a relay does not answer.
	FailRelayDown
	// FailRelayFull: a relay refused this node a reservation (full, or
	// its limits per address), or refused a code.
	FailRelayFull
	// FailNoPath: the peers met, but no path that can carry a game joins
	// them: hole punching failed and only a limited public relay links
	// them (ErrLimitedRelay).
	FailNoPath
	// FailNoInternet: this machine reaches nothing beyond its own
	// network: no relay, no DHT peer, the network unreachable.
	FailNoInternet
	// FailConfig: the command or the configuration cannot work as it
	// is: a bad address, no relay and no DHT (ErrBadAddress,
	// ErrNoRelays).
	FailConfig
)

// String returns the class's name, as the log records it: "cut",
// "bad-code", "code-not-found", "ambiguous-code", "peer-offline",
// "peer-mismatch", "relay-down", "relay-full", "no-path",
// "no-internet", "config".
func (k FailureKind) String() string {
	switch k {
	case FailCut:
		return "cut"
	case FailBadCode:
		return "bad-code"
	case FailCodeNotFound:
		return "code-not-found"
	case FailAmbiguousCode:
		return "ambiguous-code"
	case FailPeerOffline:
		return "peer-offline"
	case FailPeerMismatch:
		return "peer-mismatch"
	case FailRelayDown:
		return "relay-down"
	case FailRelayFull:
		return "relay-full"
	case FailNoPath:
		return "no-path"
	case FailNoInternet:
		return "no-internet"
	case FailConfig:
		return "config"
	default:
		return fmt.Sprintf("FailureKind(%d)", int(k))
	}
}

// Retryable reports whether trying again later may mend a failure of
// this class: not for a bad or unknown code, a code two peers claim, a
// peer ID that does not match its address, no path through the NATs or
// a configuration that cannot work; yes for a peer or relay that does
// not answer (it may come back), a full relay, no internet and a cut.
func (k FailureKind) Retryable() bool {
	switch k {
	case FailBadCode, FailCodeNotFound, FailAmbiguousCode, FailPeerMismatch, FailNoPath, FailConfig:
		return false
	}
	return true
}

// Failure is a classified failure to reach a peer, a relay or the DHT.
// Its Error is the headline; Unwrap returns the raw error.
type Failure struct {
	// Kind is the class.
	Kind FailureKind
	// Headline is one line: what happened and what to do.
	Headline string
	// Err is the raw error (libp2p's, the relay's answer ...).
	Err error
}

// Error returns the headline.
func (f *Failure) Error() string { return f.Headline }

// Unwrap returns the raw error.
func (f *Failure) Unwrap() error { return f.Err }

// Detail returns the raw error on one line, "" if there is none.
func (f *Failure) Detail() string {
	if f.Err == nil {
		return ""
	}
	return strings.Join(strings.Fields(f.Err.Error()), " ")
}

// AsFailure returns the failure err is or wraps, nil if none.
func AsFailure(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	return nil
}

// Retryable reports whether trying again may mend err: a *Failure's class
// says (FailureKind.Retryable); a context's end never is; any other error
// is taken as a cut.
func Retryable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	if f := AsFailure(err); f != nil {
		return f.Kind.Retryable()
	}
	return true
}

// Fail makes a Failure for a caller outside the node (a command that
// finds its peer nowhere) and logs it as the node's own are: the log
// keeps what the headline leaves out (NET-D22).
func Fail(kind FailureKind, err error, format string, args ...any) *Failure {
	return fail(kind, err, format, args...)
}

// fail makes a Failure and logs it with its detail (kakure.log, logger
// kakure-conn): the log keeps what the headline leaves out.
func fail(kind FailureKind, err error, format string, args ...any) *Failure {
	f := &Failure{Kind: kind, Headline: fmt.Sprintf(format, args...), Err: err}
	connLog.Info("failure", "class", kind, "headline", f.Headline, "detail", f.Detail())
	return f
}

// reMismatch reads the IDs of a peer ID mismatch out of an error's text,
// for transports that keep only the text (QUIC's TLS alert).
var reMismatch = regexp.MustCompile(`peer id mismatch: expected (\S+), but remote key matches (\S+)`)

// mismatchOf returns the peer ID that answered instead of the one
// expected, when err is a peer ID mismatch.
func mismatchOf(err error) (actual peer.ID, ok bool) {
	var m sec.ErrPeerIDMismatch
	if errors.As(err, &m) {
		return m.Actual, true
	}
	var pm *sec.ErrPeerIDMismatch
	if errors.As(err, &pm) && pm != nil {
		return pm.Actual, true
	}
	if s := reMismatch.FindStringSubmatch(err.Error()); s != nil {
		id, _ := peer.Decode(strings.TrimRight(s[2], ".,;)"))
		return id, true
	}
	if strings.Contains(err.Error(), "peer id mismatch") || strings.Contains(err.Error(), "peer IDs don't match") {
		return "", true
	}
	return "", false
}

// dialClass is what one dial error says about the other side.
type dialClass int

// Dial classes, from the least telling to the most: a failure is
// classified by the most telling of its addresses' errors.
const (
	dialOther         dialClass = iota // anything else: a cut, a protocol error
	dialNoAddress                      // no address worth dialling (NET-D24)
	dialUnreachable                    // this machine has no route there
	dialSilent                         // no answer in time
	dialRefused                        // the machine answers, nothing listens
	dialRelayFull                      // a relay refused (limits)
	dialNoReservation                  // the relay holds no reservation for the peer
	dialMismatch                       // another peer ID answered
)

// classifyDialErr classifies one error of a dial (one address's, or a
// whole dial's when it is not broken down).
func classifyDialErr(err error) dialClass {
	if _, ok := mismatchOf(err); ok {
		return dialMismatch
	}
	if errors.Is(err, swarm.ErrNoGoodAddresses) || errors.Is(err, swarm.ErrGaterDisallowedConnection) || errors.Is(err, swarm.ErrNoAddresses) {
		return dialNoAddress
	}
	s := err.Error()
	var re client.ReservationError
	if errors.As(err, &re) {
		if re.Status == pbv2.Status_RESERVATION_REFUSED || re.Status == pbv2.Status_RESOURCE_LIMIT_EXCEEDED || re.Status == pbv2.Status_PERMISSION_DENIED {
			return dialRelayFull
		}
	}
	switch {
	case strings.Contains(s, "NO_RESERVATION"):
		return dialNoReservation
	case strings.Contains(s, "RESOURCE_LIMIT_EXCEEDED"), strings.Contains(s, "RESERVATION_REFUSED"), strings.Contains(s, "PERMISSION_DENIED"):
		return dialRelayFull
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.EADDRNOTAVAIL),
		strings.Contains(s, "network is unreachable"), strings.Contains(s, "no route to host"),
		isDNSFailure(err):
		return dialUnreachable
	case errors.Is(err, syscall.ECONNREFUSED), strings.Contains(s, "connection refused"):
		return dialRefused
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err),
		strings.Contains(s, "timeout"), strings.Contains(s, "timed out"), strings.Contains(s, "deadline exceeded"),
		strings.Contains(s, "no recent network activity"):
		return dialSilent
	}
	return dialOther
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func isDNSFailure(err error) bool {
	var d *net.DNSError
	return errors.As(err, &d) && !d.IsTimeout
}

// leafErrors returns the errors at the leaves of err's tree (libp2p's
// DialError holds one per address), err itself when it has none.
func leafErrors(err error) []error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			kids := u.Unwrap()
			if len(kids) == 0 {
				out = append(out, e)
			}
			for _, k := range kids {
				walk(k)
			}
		case interface{ Unwrap() error }:
			if k := u.Unwrap(); k != nil {
				// Keep the wrapping text: the leaf's alone may lose
				// what the wrapper says (a relay's status).
				if classifyDialErr(k) == dialOther && classifyDialErr(e) != dialOther {
					out = append(out, e)
					return
				}
				walk(k)
				return
			}
			out = append(out, e)
		default:
			out = append(out, e)
		}
	}
	walk(err)
	return out
}

// dialVerdict is the most telling class among a dial's errors, with the
// ID that answered on a mismatch, and whether every address was
// unreachable from here.
type dialVerdict struct {
	class          dialClass
	actual         peer.ID
	allUnreachable bool
}

func judgeDial(err error) dialVerdict {
	v := dialVerdict{class: dialOther, allUnreachable: true}
	first := true
	for _, e := range leafErrors(err) {
		if errors.Is(e, swarm.ErrAllDialsFailed) {
			continue // a summary, the addresses' errors follow
		}
		c := classifyDialErr(e)
		if c == dialMismatch && v.actual == "" {
			v.actual, _ = mismatchOf(e)
		}
		if first || c > v.class {
			v.class = c
		}
		first = false
		v.allUnreachable = v.allUnreachable && c == dialUnreachable
	}
	if mm, ok := mismatchOf(err); ok && v.class != dialMismatch {
		v.class, v.actual = dialMismatch, mm
	}
	return v
}

// peerDialFailure classifies a failed dial of peer p: who is the peer
// in words ("12D3KooWAbc…", "the host of maple-otter-quail").
func peerDialFailure(err error, p peer.ID, who string) *Failure {
	v := judgeDial(err)
	switch {
	case v.class == dialMismatch:
		other := "another peer"
		if v.actual != "" {
			other = "another peer, " + shortID(v.actual)
		}
		return fail(FailPeerMismatch, err, "the address of %s answers as %s: the address is out of date or mistyped; ask for the current one (kakure id prints it)", who, other)
	case v.allUnreachable:
		return fail(FailNoInternet, err, "%s is out of reach from this machine (the network is unreachable): check this machine's connection", who)
	case v.class == dialNoAddress:
		return fail(FailPeerOffline, err, "no address of %s that this machine can reach is known (only its own loopback or link addresses): ask for its current address", who)
	case v.class == dialNoReservation:
		return fail(FailPeerOffline, err, "%s is not on the relay any more: its program stopped or lost its connection; ask them to start again", who)
	case v.class == dialRelayFull:
		return fail(FailRelayFull, err, "the relay refused to connect you to %s (it is full or limits you); try again later or use another relay", who)
	case v.class == dialRefused || v.class == dialSilent:
		return fail(FailPeerOffline, err, "%s does not answer: it is offline or its program has stopped; ask them to start it, then try again", who)
	}
	return fail(FailCut, err, "the connection to %s was cut while it was being set up", who)
}

// relayFailure classifies the failure to reach every relay: relays down,
// or this machine offline. errs are the dials' errors, one per relay.
func relayFailure(errs []error, relays int, took time.Duration) *Failure {
	v := judgeDial(errors.Join(errs...))
	err := fmt.Errorf("node: no relay reachable: %w", errors.Join(errs...))
	what := "the relay does not answer"
	if relays > 1 {
		what = fmt.Sprintf("none of the %d relays answers", relays)
	}
	switch {
	case v.class == dialMismatch:
		return fail(FailPeerMismatch, err, "the relay's address answers as another peer: its address in %s (or --relay) is out of date; ask its operator for the current one", ConfigFileName)
	case v.allUnreachable:
		return fail(FailNoInternet, err, "no relay can be reached: the network is unreachable from this machine (%s); check its connection", roundTook(took))
	}
	return fail(FailRelayDown, err, "%s (%s): it is down or its address is wrong; check \"relays\" in %s or --relay", what, roundTook(took), ConfigFileName)
}

// roundTook says how long something took, e.g. "after 2.3s".
func roundTook(d time.Duration) string {
	if d < 100*time.Millisecond {
		return "at once"
	}
	return "after " + d.Round(100*time.Millisecond).String()
}

// codeFailure classifies a lookup failure of code that is not a dial
// failure: not a code, or not found; nil for any other error.
func codeFailure(err error, typed string) *Failure {
	switch {
	case errors.Is(err, rendezvous.ErrBadCode):
		why := err.Error()
		if i := strings.LastIndex(why, ": "); i >= 0 {
			why = why[i+2:]
		}
		return fail(FailBadCode, err, "%q is not an invite code: %s; a code is three words, such as maple-otter-quail", typed, why)
	case errors.Is(err, rendezvous.ErrNotFound):
		return fail(FailCodeNotFound, err, "nobody hosts the code %s: check it with your friend (a code lasts while its host waits), or ask for a new one", typed)
	}
	return nil
}
