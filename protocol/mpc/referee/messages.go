package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/circuit"
)

// Digest is the SHA-256 of a message: what a signed game record keeps of
// the large messages, and what the audit compares.
type Digest [sha256.Size]byte

// Sum returns the digest of b.
func Sum(b []byte) Digest { return sha256.Sum256(b) }

// String returns the digest in hex.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// Garbling is the garbler's message of one try: three byte strings, each
// in the format of its package, which a session may send as three
// attachments.
type Garbling struct {
	// Tables is the garbled circuit with its decoding bits
	// (gc.Garbled.MarshalBinary), instance the try number.
	Tables []byte
	// Labels are the labels of the garbler's input bits
	// (gc.MarshalLabels): its share, its try if its player moves, its
	// fresh mask bits.
	Labels []byte
	// Reply is the OT extension reply to the evaluator's request
	// (ot.Sender.SendCorrelated), batch number the try number.
	Reply []byte
	// TablesSum, when set by the evaluator's caller, is Sum(Tables),
	// which it computed or checked itself: [Evaluator.Evaluate] compares
	// it with the commitment instead of hashing the tables (279 KiB on
	// 9×9) again (MPC-D49). Setting it vouches that it is the digest of
	// these bytes; the session sets it to the digest the garbling's
	// message signs, which it compared with the attachment first. Never
	// set by the garbler's machine: a garbling it returns is hashed by
	// an evaluator it is handed to.
	TablesSum *Digest
	// made is the digest of Tables that [Garbler.GarbleChosen] committed
	// to, and of is the slice it was made of: Digests takes it while
	// Tables is still that slice (MPC-D49).
	made *Digest
	of   []byte
}

// Size returns the number of bytes of g.
func (g Garbling) Size() int { return len(g.Tables) + len(g.Labels) + len(g.Reply) }

// Digests returns the digests of the three parts, in the order Tables,
// Labels, Reply.
func (g Garbling) Digests() [3]Digest {
	tables := g.made
	if tables == nil || !sameSlice(g.Tables, g.of) {
		d := Sum(g.Tables)
		tables = &d
	}
	return [3]Digest{*tables, Sum(g.Labels), Sum(g.Reply)}
}

// sameSlice reports whether a and b are the same bytes in memory (the
// same start and length).
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// tablesSum returns Sum(g.Tables) for the evaluator's check: TablesSum
// when its caller set it (MPC-D49), never the garbler's made.
func (g Garbling) tablesSum() Digest {
	if g.TablesSum != nil {
		return *g.TablesSum
	}
	return Sum(g.Tables)
}

// Outputs is the evaluator's last message of one try.
type Outputs struct {
	// Pass and Legal are the event bits of the try, told to both players
	// in every rule set, in the clear so that anyone can follow whose turn
	// it is. The garbler checks them against the labels.
	Pass, Legal bool
	// Labels are the output labels of the outputs the garbler may read,
	// circuit.RefereeLayout.VisibleOutputs(Garbler), in that order
	// (gc.MarshalLabels). The evaluator cannot make the label of the other
	// value, so the garbler reads true outputs (MPC-D5).
	Labels []byte
}

// TryRecord is what a game record keeps of one try: the digests of the
// messages and the event bits in the clear. Sent counts the messages of
// the try that were sent, in protocol order: 0 none, 1 the request,
// 2 the garbling too, 3 all (the try is complete). In a checked game
// (Config.Checked) a try has five messages: 1 the request, 2 the
// commitment, 3 the choice, 4 the garbling, 5 the outputs. Digests of
// messages not sent are ignored.
//
// In a game of the correlated input OTs (MPC-D28) the garbler's reverse
// request of the try comes before the request: Reverse is its digest,
// and Sent may be 0 for a last try of which only that was sent.
type TryRecord struct {
	Sent    int
	Reverse Digest
	Request Digest
	// Commitment and CommitReply are the digests of the two parts of the
	// garbler's commitment, Choice that of the evaluator's choice: the
	// extra messages of a checked try (zero otherwise).
	Commitment  Digest
	CommitReply Digest
	Choice      Digest
	// Flips is the digest of the evaluator's flips of its try in a game
	// whose evaluator's tries come by flips (MPC-D52), zero otherwise.
	Flips   Digest
	Tables  Digest
	Labels  Digest
	Reply   Digest
	Outputs Digest
	Pass    bool
	Legal   bool
}

// RecordRequest returns the record of a try whose request was sent.
func RecordRequest(request []byte) TryRecord {
	return TryRecord{Sent: 1, Request: Sum(request)}
}

// RecordReverse returns the record of a try of a game of the correlated
// input OTs (MPC-D28) whose reverse request was sent, and nothing else.
func RecordReverse(reverse []byte) TryRecord {
	return TryRecord{Reverse: Sum(reverse)}
}

// WithRequest returns r with the evaluator's request of the try.
func (r TryRecord) WithRequest(request []byte) TryRecord {
	r.Sent, r.Request = 1, Sum(request)
	return r
}

// reversed reports whether the record holds the try's reverse request.
func (r TryRecord) reversed() bool { return r.Reverse != Digest{} }

// WithCommitment returns r with the garbler's commitment of a checked
// try.
func (r TryRecord) WithCommitment(c Commitment) TryRecord {
	d := c.Digests()
	r.Sent, r.Commitment, r.CommitReply = 2, d[0], d[1]
	return r
}

// WithChoice returns r with the evaluator's choice of a checked try.
func (r TryRecord) WithChoice(b []byte) TryRecord {
	r.Sent, r.Choice = 3, Sum(b)
	return r
}

// Messages returns the number of messages of a complete try of a game of
// cfg: 3, or 5 when its tries are checked.
func (c Config) Messages() int {
	if c.Checked() {
		return 5
	}
	return 3
}

// MessagesOf returns the number of messages of a complete try by the
// player of party mover: Messages, and one more, the flips, for a try
// that comes by flips (MPC-D52).
func (c Config) MessagesOf(mover circuit.Party) int {
	if c.flipped(mover) {
		return c.Messages() + 1
	}
	return c.Messages()
}

// WithFlips returns r with the evaluator's flips of its try (MPC-D52).
func (r TryRecord) WithFlips(b []byte) TryRecord {
	r.Sent, r.Flips = 4, Sum(b)
	return r
}

// flipped reports whether the record holds the try's flips.
func (r TryRecord) flipped() bool { return r.Flips != Digest{} }

// WithGarbling returns r with the garbling of the try.
func (r TryRecord) WithGarbling(g Garbling) TryRecord {
	if r.flipped() {
		r.Sent = 5
	} else if r.Sent >= 3 {
		r.Sent = 4
	} else {
		r.Sent = 2
	}
	d := g.Digests()
	r.Tables, r.Labels, r.Reply = d[0], d[1], d[2]
	return r
}

// WithOutputs returns r with the outputs of the try.
func (r TryRecord) WithOutputs(o Outputs) TryRecord {
	if r.flipped() {
		r.Sent = 6
	} else if r.Sent >= 4 {
		r.Sent = 5
	} else {
		r.Sent = 3
	}
	r.Outputs, r.Pass, r.Legal = Sum(o.Labels), o.Pass, o.Legal
	return r
}

// MarshalText writes the digest in lowercase hex.
func (d Digest) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a digest written by MarshalText; any other form
// (upper case, wrong length) is an error, so that a signed body has one
// encoding.
func (d *Digest) UnmarshalText(b []byte) error {
	if len(b) != 2*len(d) {
		return fmt.Errorf("%w: digest of %d hex digits", ErrMessage, len(b))
	}
	var out Digest
	if _, err := hex.Decode(out[:], b); err != nil || out.String() != string(b) {
		return fmt.Errorf("%w: digest %q is not lowercase hex", ErrMessage, b)
	}
	*d = out
	return nil
}
