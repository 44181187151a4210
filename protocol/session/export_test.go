package session

import (
	"github.com/kakure/kakure/protocol"

	"encoding/json"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// SetTamper installs a hook that replaces each outgoing message by the
// frames it returns (nil: send the message as is). Tests use it to play a
// cheating peer.
func SetTamper(c *Config, f func(m *protocol.Message, key crypto.PrivKey) [][]byte) { c.tamper = f }

// SetRewrite installs a hook that changes this peer's own messages before
// they are signed and recorded; a message for which it returns cheat is
// sent even if this peer's own machine refuses it. Tests use it to play a
// cheating program whose record stays consistent with what it sent.
func SetRewrite(c *Config, f func(g *Game, kind protocol.Kind, body any) (protocol.Kind, any, bool)) {
	c.rewrite = f
}

// SetAck installs a hook that lowers the acknowledgement of this peer's
// own messages (a stale one, as a cheating program may sign it); the
// message is recorded with it.
func SetAck(c *Config, f func(g *Game, kind protocol.Kind, ack int64) int64) { c.ack = f }

// FrameOf returns the frame that carries m.
func FrameOf(m *protocol.Message) []byte {
	raw, err := protocol.EncodeFrame(protocol.Frame{Msg: m})
	if err != nil {
		panic(err)
	}
	return raw
}

// MustEncodeBody is EncodeBody for tests: it panics on an error.
func MustEncodeBody(v any) []byte {
	b, err := protocol.EncodeBody(v)
	if err != nil {
		panic(err)
	}
	return b
}

// HelloFrame returns the first frame of a new game's stream.
func HelloFrame(game protocol.GameID) []byte {
	raw, err := protocol.EncodeFrame(protocol.Frame{Hello: &protocol.Hello{Game: game}})
	if err != nil {
		panic(err)
	}
	return raw
}

// DecodeFrameMessage returns the message a frame carries, or nil.
func DecodeFrameMessage(raw []byte) *protocol.Message {
	var f protocol.Frame
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil
	}
	return f.Msg
}

// SetPanicHook installs a hook called at the points of a game's code where
// tests inject a panic (LIM-D9): "apply" (a message of the other peer
// applied to the machine, with the game's lock held), "auto" (the
// player's automatic step), "pump" (the event pump's goroutine), "reader"
// (the stream reader's goroutine), "view" (View, in the caller's
// goroutine), "secrets" and "saved" (this peer's secrets, then its
// record, saved before its message leaves), and the storage's points
// between an append and its sync; it is also called at the steps
// SetStampHook names. Both install the game's one test hook: the last
// set is the one called.
func SetPanicHook(c *Config, f func(g *Game, where string)) {
	c.hook = func(g *Game, where string, _ protocol.Kind) { f(g, where) }
}

// SetStampHook installs a hook told the steps of a game's messages, each
// with its kind: "act" (a local action taken; no kind), "made" (this
// peer's message made by its player or program, before it is signed),
// "applied" (applied to the machine), "secrets" (the secrets saved),
// "saved" (the record saved), "written" (written to the stream);
// "read" (a message of the other peer read by the stream reader),
// "received" (the game's loop takes it), "in-applied" (applied to
// the machine), "taken" (applied and its
// attachments taken by the player), and at the points SetPanicHook
// names (no kind but at "secrets" and "saved"). For the breakdown of a
// try's time (issue 38, BenchmarkPhantomStages).
func SetStampHook(c *Config, f func(g *Game, at string, kind protocol.Kind)) { c.hook = f }

// BulkHeld returns the bytes of attachments the service holds now and the
// most it held at once (LIM-D10).
func (s *Service) BulkHeld() (now, peak int64) {
	s.bulk.mu.Lock()
	defer s.bulk.mu.Unlock()
	return s.bulk.total, s.bulk.peak
}

// BytesWritten returns how many bytes the storage of this process has
// written to files so far.
func BytesWritten() int64 { return bytesWritten.Load() }

// Syncs returns how many fdatasync calls the storage of this process has
// made so far.
func Syncs() int64 { return syncsDone.Load() }

// SetHandshakePools sets the sizes of the pools of handshake slots for
// every peer and for known peers (LIM-D11), so that a test fills them
// with a few peers.
func SetHandshakePools(c *Config, all, known int) { c.handshakePools = [2]int{all, known} }

// JudgeLastReport judges the last message of tr, a violation report, as
// the peer that takes it does (on the machine of the messages before it),
// with the certificates of T-8(b) judged by certificates instead of
// Phantom Go's judge. Tests use it to drive each way a certificate's
// judgement decides a report.
func JudgeLastReport(tr *protocol.Transcript, certificates func(game protocol.GameID, peers [2]protocol.PeerID, accused protocol.Role, history []protocol.Message, evidence [][]byte) *protocol.Violation) (protocol.Judgement, error) {
	n := len(tr.Messages)
	if n == 0 {
		return protocol.Judgement{}, errors.New("an empty transcript has no report")
	}
	m := protocol.NewMachine(tr.Game)
	for i := range tr.Messages[:n-1] {
		if _, err := m.Apply(&tr.Messages[i]); err != nil {
			return protocol.Judgement{}, fmt.Errorf("message %d: %w", i, err)
		}
	}
	report := tr.Messages[n-1]
	var body protocol.ViolationBody
	if err := protocol.DecodeBody(report.Body, &body); err != nil {
		return protocol.Judgement{}, fmt.Errorf("the last message is no report: %w", err)
	}
	return protocol.JudgeReportWith(certificates, m.Game, m.Peers, m.History(), &report, &body, m), nil
}

// CheckSecretsEncoding makes every Phantom Go secrets document also be
// encoded by json.Marshal and compared (PN-D19): a byte string the memo
// encoded and then changed in place would panic the test.
func CheckSecretsEncoding(on bool) { secretsMemoCheck = on }

// SecretsSaves returns how many times g encoded its secrets for its file
// (PN-D20).
func SecretsSaves(g *Game) int64 { return g.secretsSaves.Load() }

// RewriteOf returns the rewrite hook SetRewrite installed, or one that
// changes nothing.
func RewriteOf(c *Config) func(g *Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
	if c.rewrite != nil {
		return c.rewrite
	}
	return func(_ *Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) { return kind, body, false }
}
