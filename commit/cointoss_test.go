package commit_test

import (
	"errors"
	"testing"

	"github.com/kakure/kakure/commit"
)

// tossPair starts both seats of one toss.
func tossPair(t *testing.T, index uint32) (seat0, seat1 *commit.CoinToss) {
	t.Helper()
	var err error
	if seat0, err = commit.NewCoinToss(testGame, index, 0); err != nil {
		t.Fatal(err)
	}
	if seat1, err = commit.NewCoinToss(testGame, index, 1); err != nil {
		t.Fatal(err)
	}
	return seat0, seat1
}

// honestToss runs the whole exchange between a and b and returns both
// results.
func honestToss(t *testing.T, a, b *commit.CoinToss) (commit.Randomness, commit.Randomness) {
	t.Helper()
	must(t, a.ReceiveCommitment(b.Commitment()))
	must(t, b.ReceiveCommitment(a.Commitment()))
	ra, err := a.Reveal()
	must(t, err)
	rb, err := b.Reveal()
	must(t, err)
	must(t, a.ReceiveReveal(rb))
	must(t, b.ReceiveReveal(ra))
	if !a.Done() || !b.Done() {
		t.Fatal("Done is false after both reveals")
	}
	resA, err := a.Result()
	must(t, err)
	resB, err := b.Result()
	must(t, err)
	return resA, resB
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestT4HonestToss: both peers get the same randomness, and a new toss
// gives new randomness.
func TestT4HonestToss(t *testing.T) {
	a, b := tossPair(t, 0)
	ra, rb := honestToss(t, a, b)
	if ra != rb {
		t.Fatalf("seat 0 got %v, seat 1 got %v", ra, rb)
	}
	c, d := tossPair(t, 0)
	rc, _ := honestToss(t, c, d)
	if rc == ra {
		t.Errorf("two tosses gave the same randomness %v", ra)
	}
}

// TestT4NeitherPeerDecides: a peer that fixes its own contribution in
// advance still gets a different result against each fresh honest peer.
func TestT4NeitherPeerDecides(t *testing.T) {
	fixed := commit.Opening{Value: make([]byte, commit.ContributionSize)}
	fixedCommitment, err := commit.Compute(commit.CoinTossDomain, testGame, 1, 0, fixed)
	must(t, err)
	results := map[commit.Randomness]bool{}
	for range 8 {
		honest, err := commit.NewCoinToss(testGame, 0, 0)
		must(t, err)
		must(t, honest.ReceiveCommitment(fixedCommitment))
		must(t, honest.ReceiveReveal(fixed))
		r, err := honest.Result()
		must(t, err)
		results[r] = true
	}
	if len(results) != 8 {
		t.Errorf("%d distinct results out of 8 against a fixed contribution", len(results))
	}
}

// TestT4CheatingPeer: a peer that reveals something else than it
// committed to is caught, and the toss stays failed.
func TestT4CheatingPeer(t *testing.T) {
	tests := []struct {
		name  string
		cheat func(honest *commit.CoinToss, cheater *commit.CoinToss) commit.Opening
	}{
		{"T-4 changed contribution", func(_, cheater *commit.CoinToss) commit.Opening {
			o, _ := cheater.Reveal()
			o.Value[0] ^= 1
			return o
		}},
		{"T-4 changed salt", func(_, cheater *commit.CoinToss) commit.Opening {
			o, _ := cheater.Reveal()
			o.Salt[0] ^= 1
			return o
		}},
		{"T-4 echoed the honest reveal", func(honest, _ *commit.CoinToss) commit.Opening {
			o, _ := honest.Reveal()
			return o
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			honest, cheater := tossPair(t, 5)
			must(t, honest.ReceiveCommitment(cheater.Commitment()))
			must(t, cheater.ReceiveCommitment(honest.Commitment()))
			err := honest.ReceiveReveal(tt.cheat(honest, cheater))
			if !errors.Is(err, commit.ErrMismatch) {
				t.Fatalf("ReceiveReveal = %v, want ErrMismatch", err)
			}
			if honest.Done() {
				t.Error("Done after a failed reveal")
			}
			// The honest reveal afterwards does not rescue the toss.
			o, _ := cheater.Reveal()
			if err := honest.ReceiveReveal(o); !errors.Is(err, commit.ErrMismatch) {
				t.Errorf("ReceiveReveal after the failure = %v, want ErrMismatch", err)
			}
			if _, err := honest.Result(); !errors.Is(err, commit.ErrMismatch) {
				t.Errorf("Result after the failure = %v, want ErrMismatch", err)
			}
		})
	}
}

// TestT4ReflectedCommitment: a peer that echoes our commitment and then our
// reveal (contributing nothing) is caught, because the seat is committed.
func TestT4ReflectedCommitment(t *testing.T) {
	honest, err := commit.NewCoinToss(testGame, 0, 0)
	must(t, err)
	must(t, honest.ReceiveCommitment(honest.Commitment()))
	mine, err := honest.Reveal()
	must(t, err)
	if err := honest.ReceiveReveal(mine); !errors.Is(err, commit.ErrMismatch) {
		t.Errorf("ReceiveReveal of our own reveal = %v, want ErrMismatch", err)
	}
}

// TestT4OtherTossIndex: a reveal from another toss of the same game (a
// replay) does not open this toss's commitment.
func TestT4OtherTossIndex(t *testing.T) {
	a0, b0 := tossPair(t, 0)
	honestToss(t, a0, b0)
	oldReveal, _ := b0.Reveal()

	a1, err := commit.NewCoinToss(testGame, 1, 0)
	must(t, err)
	// The cheater replays toss 0's commitment and reveal in toss 1.
	must(t, a1.ReceiveCommitment(b0.Commitment()))
	if err := a1.ReceiveReveal(oldReveal); !errors.Is(err, commit.ErrMismatch) {
		t.Errorf("replayed reveal = %v, want ErrMismatch", err)
	}
}

func TestT4MessageOrder(t *testing.T) {
	t.Run("T-4 reveal before their commitment", func(t *testing.T) {
		a, _ := tossPair(t, 0)
		if _, err := a.Reveal(); !errors.Is(err, commit.ErrOutOfOrder) {
			t.Errorf("Reveal = %v, want ErrOutOfOrder", err)
		}
	})
	t.Run("T-4 their reveal before their commitment", func(t *testing.T) {
		a, b := tossPair(t, 0)
		must(t, b.ReceiveCommitment(a.Commitment()))
		rb, err := b.Reveal()
		must(t, err)
		if err := a.ReceiveReveal(rb); !errors.Is(err, commit.ErrOutOfOrder) {
			t.Errorf("ReceiveReveal = %v, want ErrOutOfOrder", err)
		}
		// The toss can still go on in the right order.
		must(t, a.ReceiveCommitment(b.Commitment()))
		must(t, a.ReceiveReveal(rb))
	})
	t.Run("T-4 result before their reveal", func(t *testing.T) {
		a, b := tossPair(t, 0)
		if _, err := a.Result(); !errors.Is(err, commit.ErrOutOfOrder) {
			t.Errorf("Result with nothing received = %v, want ErrOutOfOrder", err)
		}
		must(t, a.ReceiveCommitment(b.Commitment()))
		if _, err := a.Result(); !errors.Is(err, commit.ErrOutOfOrder) {
			t.Errorf("Result before their reveal = %v, want ErrOutOfOrder", err)
		}
		if a.Done() {
			t.Error("Done before their reveal")
		}
	})
	t.Run("T-4 duplicate commitment", func(t *testing.T) {
		a, b := tossPair(t, 0)
		must(t, a.ReceiveCommitment(b.Commitment()))
		if err := a.ReceiveCommitment(b.Commitment()); !errors.Is(err, commit.ErrDuplicate) {
			t.Errorf("second ReceiveCommitment = %v, want ErrDuplicate", err)
		}
	})
	t.Run("T-4 duplicate reveal", func(t *testing.T) {
		a, b := tossPair(t, 0)
		honestToss(t, a, b)
		rb, _ := b.Reveal()
		if err := a.ReceiveReveal(rb); !errors.Is(err, commit.ErrDuplicate) {
			t.Errorf("second ReceiveReveal = %v, want ErrDuplicate", err)
		}
	})
	t.Run("T-4 contribution of the wrong size", func(t *testing.T) {
		a, _ := tossPair(t, 0)
		short := commit.Opening{Value: make([]byte, commit.ContributionSize-1)}
		c, err := commit.Compute(commit.CoinTossDomain, testGame, 1, 0, short)
		must(t, err)
		must(t, a.ReceiveCommitment(c))
		if err := a.ReceiveReveal(short); !errors.Is(err, commit.ErrMalformed) {
			t.Errorf("ReceiveReveal of a short contribution = %v, want ErrMalformed", err)
		}
	})
	t.Run("T-4 reveal is stable", func(t *testing.T) {
		a, b := tossPair(t, 0)
		must(t, a.ReceiveCommitment(b.Commitment()))
		r1, _ := a.Reveal()
		r1.Value[0] ^= 0xff // the caller's copy, not the toss's
		r2, _ := a.Reveal()
		if err := commit.Verify(a.Commitment(), commit.CoinTossDomain, testGame, 0, 0, r2); err != nil {
			t.Errorf("second Reveal does not open the commitment: %v", err)
		}
	})
}

func TestT4BadSeat(t *testing.T) {
	if _, err := commit.NewCoinToss(testGame, 0, 2); !errors.Is(err, commit.ErrInvalid) {
		t.Errorf("NewCoinToss with seat 2 = %v, want ErrInvalid", err)
	}
	if _, err := commit.NewCoinToss(make([]byte, commit.MaxGameLen+1), 0, 0); !errors.Is(err, commit.ErrInvalid) {
		t.Errorf("NewCoinToss with a long game ID = %v, want ErrInvalid", err)
	}
}

// TestT4Derivations checks Bit, Uint64n and Derive over many fixed
// randomness values (deterministic, so the bounds cannot flake).
func TestT4Derivations(t *testing.T) {
	var base commit.Randomness
	const n = 3000
	var ones int
	counts := make([]int, 3)
	labels := map[commit.Randomness]bool{}
	for i := range n {
		base[0], base[1] = byte(i), byte(i>>8)
		r := base.Derive("test")
		bit := r.Bit()
		if bit > 1 {
			t.Fatalf("Bit = %d", bit)
		}
		ones += int(bit)
		v := r.Uint64n(3)
		if v >= 3 {
			t.Fatalf("Uint64n(3) = %d", v)
		}
		counts[v]++
		if r.Uint64n(1) != 0 {
			t.Fatal("Uint64n(1) != 0")
		}
		if big := r.Uint64n(1<<63 + 1); big > 1<<63 {
			t.Fatalf("Uint64n(2^63+1) = %d", big)
		}
		if r.Uint64n(^uint64(0)) == ^uint64(0) {
			t.Fatal("Uint64n(max) returned max")
		}
		labels[r] = true
	}
	if len(labels) != n {
		t.Errorf("Derive gave %d distinct values for %d inputs", len(labels), n)
	}
	// Binomial(3000, 1/2) has a standard deviation of about 27; 150 is
	// more than 5 of them.
	if ones < n/2-150 || ones > n/2+150 {
		t.Errorf("Bit was 1 in %d of %d cases", ones, n)
	}
	for v, c := range counts {
		if c < n/3-150 || c > n/3+150 {
			t.Errorf("Uint64n(3) was %d in %d of %d cases", v, c, n)
		}
	}
	if base.Derive("colours") == base.Derive("komi") {
		t.Error("Derive ignores its label")
	}
	if first, again := base.Uint64n(1000), base.Uint64n(1000); first != again {
		t.Error("Uint64n is not deterministic")
	}
	defer func() {
		if recover() == nil {
			t.Error("Uint64n(0) did not panic")
		}
	}()
	base.Uint64n(0)
}

func BenchmarkCoinToss(b *testing.B) {
	for b.Loop() {
		x, _ := commit.NewCoinToss(testGame, 0, 0)
		y, _ := commit.NewCoinToss(testGame, 0, 1)
		x.ReceiveCommitment(y.Commitment())
		y.ReceiveCommitment(x.Commitment())
		rx, _ := x.Reveal()
		ry, _ := y.Reveal()
		x.ReceiveReveal(ry)
		y.ReceiveReveal(rx)
		x.Result()
	}
}
