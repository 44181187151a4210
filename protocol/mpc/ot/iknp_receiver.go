package ot

// The receiver of the OT extension (iknp.go has the overview and the
// sender).

import (
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// Receiver is the receiver of the OT extension (the evaluator): it holds
// the choice bits. It is not safe for concurrent use.
type Receiver struct {
	seed    prg.Seed
	session []byte
	kappa   int // the number of columns, Kappa or KappaMAC
	base    *BaseSender
	keys    [][2]column
	batch   uint32
	hash    *aeshash.Hasher
	// pending is the batch requested and not yet received.
	pending *pendingBatch
}

type pendingBatch struct {
	choices []bool
	rows    []Block // t_j
}

// NewReceiver returns the extension receiver for the session, with every
// random choice derived from seed.
func NewReceiver(seed prg.Seed, session []byte) *Receiver {
	return &Receiver{seed: seed, session: append([]byte(nil), session...), kappa: Kappa, hash: aeshash.NewHasher()}
}

// NewMACReceiver returns the receiver of an extension of KappaMAC
// columns ([NewMACSender]): its rows t_j = q_j ⊕ c_j·s are the MACs of
// its choices c_j under the sender's 64-bit key s ([Receiver.Correlated]).
func NewMACReceiver(seed prg.Seed, session []byte) *Receiver {
	r := NewReceiver(seed, session)
	r.kappa = KappaMAC
	return r
}

// BaseStart starts the base OTs, which the receiver runs as their sender,
// and returns the first message.
func (r *Receiver) BaseStart() ([]byte, error) {
	if r.base != nil {
		return nil, fmt.Errorf("%w: base OTs already started", ErrState)
	}
	base, err := NewBaseSender(r.seed.Stream(labelBaseScalars), r.session, r.kappa)
	if err != nil {
		return nil, err
	}
	msg, err := base.Start()
	if err != nil {
		return nil, err
	}
	r.base = base
	return msg, nil
}

// BaseFinish takes the sender's base OT message; the receiver is then
// ready for requests.
func (r *Receiver) BaseFinish(msg []byte) error {
	if r.base == nil || r.keys != nil {
		return fmt.Errorf("%w: base OTs not started or already finished", ErrState)
	}
	keys, err := r.base.Finish(msg)
	if err != nil {
		return err
	}
	r.keys = make([][2]column, r.kappa)
	for i, k := range keys {
		r.keys[i] = [2]column{{key: k[0]}, {key: k[1]}}
	}
	return nil
}

// Request returns the request of a batch of OTs with the given choice bits.
func (r *Receiver) Request(choices []bool) ([]byte, error) {
	return r.request(choices, nil, nil)
}

// RequestPadded is Request with the KOSPad pad bits of the consistency
// check given by the caller instead of drawn from the receiver's seed:
// a receiver that must later prove its choices — pad included — opens
// the seed they come from, and anyone then recomputes the request's
// check value x ([CheckValue], [VerifyChoices]). The pad bits must be
// random and secret until then: x with known pad bits tells the choices.
func (r *Receiver) RequestPadded(choices, pad []bool) ([]byte, error) {
	if len(pad) != KOSPad {
		return nil, fmt.Errorf("%w: %d pad bits, want %d", ErrInput, len(pad), KOSPad)
	}
	return r.request(choices, pad, nil)
}

// request makes the request; pad, when not nil, is the pad bits; cheat,
// when set (tests of the package), may change the columns before the
// check values are computed, and returns the error term to add to t
// (the cheater's guess).
func (r *Receiver) request(choices, pad []bool, cheat func(cols []byte, nb int) func(chi []Block) Block) ([]byte, error) {
	if r.keys == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	if r.pending != nil {
		return nil, fmt.Errorf("%w: batch %d requested and not received", ErrState, r.batch)
	}
	msg, rows, err := r.requestOf(r.batch, choices, pad, cheat)
	if err != nil {
		return nil, err
	}
	r.pending = &pendingBatch{choices: append([]bool(nil), choices...), rows: rows}
	return msg, nil
}

// requestOf makes the request of batch with the choices (pad and cheat
// as request takes them) and returns it with the receiver's rows t_j of
// its m OTs. It reads the receiver's keys and seed and changes nothing,
// so that requests of several batches can be made at once.
func (r *Receiver) requestOf(batch uint32, choices, pad []bool, cheat func(cols []byte, nb int) func(chi []Block) Block) ([]byte, []Block, error) {
	m := len(choices)
	if m == 0 || m > MaxBatch {
		return nil, nil, fmt.Errorf("%w: batch of %d OTs", ErrInput, m)
	}
	msg, rows := r.columnsOf(batch, m, pad).finish(choices, cheat)
	return msg, rows, nil
}

// requestColumns is the part of the request of a batch of m OTs that no
// choice bit decides: the pad bits, the columns t_i ⊕ G(k_i^1, b) (to
// which the packed choices are added) and the rows t_j (MPC-D51).
type requestColumns struct {
	batch uint32
	kappa int
	m     int
	pad   []bool
	// masks holds the κ columns t_i ⊕ G(k_i^1, b), columnBytes(m) bytes
	// each.
	masks []byte
	rows  []Block // the m + KOSPad rows t_j
	// session is the receiver's, for the challenges.
	session []byte
}

// columnsOf makes the choice-independent part of the request of batch
// of m OTs (pad as request takes it). It reads the receiver's keys and
// seed and changes nothing.
func (r *Receiver) columnsOf(batch uint32, m int, pad []bool) *requestColumns {
	n := m + KOSPad
	nb := columnBytes(m)
	if pad == nil {
		pad = r.seed.Stream(labelPad, uint64(batch)).Bools(KOSPad)
	}
	t := newColumns(r.kappa, n)
	masks := make([]byte, r.kappa*nb)
	for i := range r.kappa {
		ti := t.column(i)
		u := masks[i*nb : (i+1)*nb]
		r.keys[i][0].read(batch, ti[:nb])
		r.keys[i][1].read(batch, u)
		for k := range nb {
			u[k] ^= ti[k]
		}
	}
	return &requestColumns{batch: batch, kappa: r.kappa, m: m, pad: pad, masks: masks, rows: t.rows(n), session: r.session}
}

// finish makes the request of c's batch with the choices (len(choices)
// == c.m) and returns it with the rows t_j of its m OTs (the first m of
// c.rows, not copied).
func (c *requestColumns) finish(choices []bool, cheat func(cols []byte, nb int) func(chi []Block) Block) ([]byte, []Block) {
	m := c.m
	n := m + KOSPad
	nb := columnBytes(m)
	all := append(append(make([]bool, 0, n), choices...), c.pad...)
	packed := make([]byte, nb)
	for j, b := range all {
		if b {
			packed[j/8] |= 1 << (j % 8)
		}
	}
	msg := make([]byte, 0, RequestSizeKappa(c.kappa, m))
	msg = append(msg, batchMsgHeader(requestKind(c.kappa), c.batch, m)...)
	for i := range c.kappa {
		at := len(msg)
		msg = append(msg, c.masks[i*nb:(i+1)*nb]...)
		u := msg[at:]
		for k := range nb {
			u[k] ^= packed[k]
		}
	}
	var guess func(chi []Block) Block
	if cheat != nil {
		guess = cheat(msg[batchHeader:], nb)
	}
	chi := challenge(c.session, msg, n)
	x := choiceSum(chi, all)
	var acc wide
	acc.mulAdds(chi, c.rows)
	tc := acc.reduce()
	if guess != nil {
		tc = tc.Xor(guess(chi))
	} else {
		putChallenge(chi)
	}
	msg = append(msg, x[:]...)
	msg = append(msg, tc[:]...)
	return msg, c.rows[:m]
}

// PreparedRequest is the work of the receiver's request of its next
// batch that no choice bit decides, made ahead ([Receiver.PrepareRequest])
// while the choices are not known yet (MPC-D51): the columns G(k_i^0, b)
// and G(k_i^1, b), their sum with the pad bits' and the rows t_j. It
// holds secrets of the receiver (its rows are its outputs): keep it as
// the receiver itself, never on disk. It serves one request.
type PreparedRequest struct {
	r    *Receiver
	cols *requestColumns
}

// PrepareRequest makes ahead the choice-independent work of the request
// of the receiver's next batch of m OTs, with the pad bits drawn from
// its seed as Request draws them. It changes nothing in the receiver,
// and may run on another goroutine than the receiver's calls as long as
// no call of the receiver runs meanwhile (the short columns it reads
// are not written; a long one may make its cipher).
func (r *Receiver) PrepareRequest(m int) (*PreparedRequest, error) {
	if r.keys == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	if m == 0 || m > MaxBatch {
		return nil, fmt.Errorf("%w: batch of %d OTs", ErrInput, m)
	}
	return &PreparedRequest{r: r, cols: r.columnsOf(r.batch, m, nil)}, nil
}

// Fits reports whether p can make the request of r's next batch of m
// OTs: prepared by r for that batch (so not used: a batch is requested
// once), of that size.
func (p *PreparedRequest) Fits(r *Receiver, m int) bool {
	return p != nil && p.r == r && p.cols.batch == r.batch && p.cols.m == m && p.cols.kappa == r.kappa
}

// RequestPrepared is Request made with p: the same message and the same
// receiver afterwards, byte for byte, as Request(choices) (MPC-D51). p
// must fit r's next batch of len(choices) OTs ([PreparedRequest.Fits]);
// else it is an error (ErrState) and the receiver is as it was.
func (r *Receiver) RequestPrepared(p *PreparedRequest, choices []bool) ([]byte, error) {
	if r.keys == nil {
		return nil, fmt.Errorf("%w: base OTs not done", ErrState)
	}
	if r.pending != nil {
		return nil, fmt.Errorf("%w: batch %d requested and not received", ErrState, r.batch)
	}
	if !p.Fits(r, len(choices)) {
		return nil, fmt.Errorf("%w: the prepared request is not one of batch %d of %d OTs", ErrState, r.batch, len(choices))
	}
	msg, rows := p.cols.finish(choices, nil)
	r.pending = &pendingBatch{choices: append([]bool(nil), choices...), rows: rows}
	return msg, nil
}

// Skip moves the receiver over the next batch without a request, as if
// it had requested and received one (see Sender.Skip).
func (r *Receiver) Skip() error {
	if r.keys == nil || r.pending != nil {
		return fmt.Errorf("%w: base OTs not done or a batch pending", ErrState)
	}
	r.batch++
	return nil
}

// Forget drops the pending request as if its reply had been received:
// for a receiver rebuilt after a restart that kept the messages it had
// received (the referee's checked tries, MPC-D20), not the reply.
func (r *Receiver) Forget() error {
	if r.pending == nil {
		return fmt.Errorf("%w: no request pending", ErrState)
	}
	r.pending = nil
	r.batch++
	return nil
}

// Receive takes the sender's reply to the pending request and returns the
// chosen message of every OT.
func (r *Receiver) Receive(reply []byte) ([]Block, error) {
	if r.kappa != Kappa {
		return nil, fmt.Errorf("%w: an extension of %d columns gives correlated OTs only", ErrState, r.kappa)
	}
	p := r.pending
	if p == nil {
		return nil, fmt.Errorf("%w: no request pending", ErrState)
	}
	m := len(p.choices)
	if err := checkReply(reply, r.batch, m); err != nil {
		return nil, err
	}
	body := reply[batchHeader:]
	out := make([]Block, m)
	for j, c := range p.choices {
		h := r.hash.Hash(p.rows[j], otTweak(r.batch, j))
		off := 32 * j
		if c {
			off += 16
		}
		out[j] = h.Xor(Block(body[off : off+16]))
	}
	r.pending = nil
	r.batch++
	return out, nil
}
