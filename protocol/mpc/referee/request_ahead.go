package referee

// The evaluator's OT request made ahead (MPC-D51): what of the request
// of a try no choice of its player decides, made while the player
// thinks.

import (
	"github.com/kakure/kakure/protocol/mpc/circuit"
	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

// requestAhead is the work of the evaluator's request of a try made
// before its player's try is known (MPC-D51). In a game of the
// correlated input OTs (MPC-D28): the whole request and rows of every
// garbling but ĵ, whose choices are random bits of the evaluator's seed
// (MPC-D18), the columns of garbling ĵ's, and the seed transfer's
// response of the next try (MPC-D43); in a game of the extension's
// input OTs, the columns of the extension's next batch. Its fields are
// written before done is closed and read after. It holds the
// evaluator's keys and rows as its OT machines do: never saved.
type requestAhead struct {
	try   uint64
	mover circuit.Party
	j     int
	// rev is the reverse request it was made with (correlated input
	// OTs), compared by identity.
	rev  *evaluatorReverse
	done chan struct{}
	err  error

	// reqs and rows are, per garbling but ĵ, its request and the
	// evaluator's rows; recv and cols are garbling ĵ's receiver and
	// its request's columns.
	reqs [][]byte
	rows [][]ot.Block
	recv *ot.Receiver
	cols *ot.PreparedRequest
	// fwd is the prepared next batch of the forward extension: the
	// whole request in a game of its input OTs, the seed transfer's
	// batch (MPC-D15) with the correlated ones without the
	// authenticated state.
	fwd *ot.PreparedRequest
	// next is the seed transfer's response of the try after (MPC-D43),
	// made, with the authenticated state.
	next *seedAhead
}

// PrepareRequestAhead makes ahead, on its own goroutine, the work of
// the request of the next try that its player's try does not decide
// (MPC-D51), as [Garbler.PrepareAhead] does for the garbler: Request
// then only adds garbling ĵ's choices (or, with the extension's input
// OTs, the choices) to columns already made, waiting for the goroutine
// if needed. The request is the same, byte for byte, whether it was
// prepared or not; a preparation of another try, mover or reverse
// request is not used. A session calls it once the machine is ready for
// the try and, with the correlated input OTs (MPC-D28), has taken its
// reverse request ([Evaluator.TakeReverse]); it does nothing otherwise.
// It is only a cache: it is not saved, and a machine rebuilt after a
// restart makes its request as before. The goroutine reads the
// machine's seed, circuits, reverse request and OT keys, which no call
// changes before Request.
func (e *Evaluator) PrepareRequestAhead() {
	if e.check(phaseReady) != nil || e.cfg.correlated() && !e.cfg.Checked() {
		return
	}
	try, mover := e.pub.Try, e.cfg.PartyOf(e.pub.ToMove)
	var rev *evaluatorReverse
	if e.cfg.correlated() {
		if rev = e.rev; rev == nil || rev.try != try {
			return // its reverse request not taken yet
		}
	}
	j := 0
	if e.cfg.Checked() {
		j = e.choose(try)
	}
	if a := e.reqAhead; a != nil {
		if a.try == try && a.mover == mover && a.j == j && a.rev == rev {
			return
		}
		// Another try's: it may still read the forward machine's
		// columns, which this one reads too.
		<-a.done
	}
	a := &requestAhead{try: try, mover: mover, j: j, rev: rev, done: make(chan struct{})}
	e.reqAhead = a
	m := e.rc.layout[mover].NumInputs[circuit.Evaluator]
	cfg, seed, receiver, startMsg := e.cfg, e.seed, e.receiver, e.seedStartMsg
	go func() {
		defer close(a.done)
		a.err = a.prepare(cfg, seed, receiver, startMsg, m)
	}()
}

// prepare is requestAhead's work, for the evaluator of cfg with seed, its
// forward extension's receiver and the garbler's seed transfer start, m
// its inputs of the try.
func (a *requestAhead) prepare(cfg Config, seed prg.Seed, receiver *ot.Receiver, startMsg []byte, m int) error {
	try := a.try
	if !cfg.correlated() {
		n := m
		if cfg.Checked() {
			n = cfg.lambda()*cfg.garblingOTs(m) + cfg.seedOTs()
		}
		var err error
		a.fwd, err = receiver.PrepareRequest(n)
		return err
	}
	if cfg.authenticated() && startMsg != nil {
		next := &seedAhead{try: try + 1, done: make(chan struct{})}
		next.msg, next.keys, next.err = seedResponse(cfg, seedCoins(seed, try+1), try+1, chooseOf(cfg, seed, try+1), startMsg)
		close(next.done)
		a.next = next
	}
	lam, mo := cfg.lambda(), cfg.garblingOTs(m)
	a.reqs, a.rows = make([][]byte, lam), make([][]ot.Block, lam)
	err := forEachGarbling(lam, func(i int) error {
		recv, err := ot.NewReceiverFromKeys(seed.Derive(labelCOTPad, try, uint64(i)), cotSessionOf(cfg, try, i), a.rev.pairs[i])
		if err != nil {
			return err
		}
		if i == a.j {
			a.recv = recv
			a.cols, err = recv.PrepareRequest(mo)
			return err
		}
		if a.reqs[i], err = recv.Request(seed.Stream(labelPVCRandom, try, uint64(i)).Bools(mo)); err != nil {
			return err
		}
		a.rows[i], err = recv.Correlated()
		return err
	})
	if err != nil {
		return err
	}
	if !cfg.authenticated() {
		a.fwd, err = receiver.PrepareRequest(cfg.seedOTs())
	}
	return err
}

// takeRequestAhead returns the preparation of the request of try by
// mover, ĵ = j, waiting for it if needed, or nil when there is none, it
// failed or it is of another try, mover or reverse request; either way
// the machine keeps no preparation after.
func (e *Evaluator) takeRequestAhead(try uint64, mover circuit.Party, j int) *requestAhead {
	a := e.reqAhead
	if a == nil {
		return nil
	}
	e.reqAhead = nil
	<-a.done
	if a.err != nil || a.try != try || a.mover != mover || a.j != j {
		return nil
	}
	if e.cfg.correlated() && a.rev != e.rev {
		return nil
	}
	return a
}

// RequestsPrepared returns how many of the machine's requests were made
// with their preparation (MPC-D51): for tests and measurements.
func (e *Evaluator) RequestsPrepared() int { return e.aheadUsed }
