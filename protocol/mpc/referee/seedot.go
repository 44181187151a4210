package referee

// The provable seed transfer of MPC-D30 (games of the authenticated
// state, MPC-D29): the λ − 1 seeds of the opened garblings reach the
// evaluator by OTs of their own, one Chou–Orlandi OT of 32 bytes per
// level of the GGM tree, not by a batch of the forward extension. The
// garbler's sender message S is one for the game (with the reverse setup
// start); the evaluator's response for try τ — the points R of its
// choices, the sides off ĵ's path — is made from coins of its own for
// that try and travels ahead, with its reverse setup answer (try 0) or its
// choice of try τ − 1; the garbler's encrypted level sums go with its
// commitments. So every message of the transfer is small and signed, and
// the evaluator's coins of try τ open nothing but ĵ's path (which the
// garbler learns from the choice): a wrong seed is proven by revealing
// them (a Certificate with SeedOT), where a forward-extension batch
// proved nothing (issue 31, item 2: certificate stripping).

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/kakure/kakure/protocol/mpc/ot"
	"github.com/kakure/kakure/protocol/mpc/prg"
)

const (
	labelSeedOT   = "kakure/phantom/auth/seed-ot" // garbler seed: its scalar; evaluator seed, index the try: its coins
	seedOTSession = "kakure/phantom/auth/seed-ot-session\x00"
	tagSeedPad    = "kakure/phantom/auth/seed-pad\x00"
	// setupParts is the number of parts of a reverse setup message of a
	// game of the authenticated state: the reverse extension's, the MAC
	// extension's, the seed transfer's.
	setupParts = 3
	// seedStartSize is the size of the garbler's seed transfer start
	// ('O' 1 1 S), seedPointSize that of one point of the evaluator's
	// response after its 5-byte header.
	seedStartSize  = 3 + 32
	seedPointSize  = 32
	seedRespHeader = 5
)

// seedOTSessionOf binds the seed transfer of try.
func seedOTSessionOf(cfg Config, try uint64) []byte {
	b := []byte(seedOTSession)
	b = binary.BigEndian.AppendUint64(b, uint64(len(cfg.Game)))
	b = append(b, cfg.Game...)
	return binary.BigEndian.AppendUint64(b, try)
}

// seedResponseSize is the size of the evaluator's seed transfer response
// of a try (one point per level).
func (c Config) seedResponseSize() int { return seedRespHeader + seedPointSize*c.depth() }

// seedCipherSize is the size of the garbler's encrypted level sums of a
// try: two of 32 bytes per level.
func (c Config) seedCipherSize() int { return 2 * 32 * c.depth() }

// seedSender is the garbler's sender of the seed transfer of try: the
// same scalar, hence the same S, for every try of the game.
func seedSender(cfg Config, seed prg.Seed, try uint64) (*ot.BaseSender, error) {
	return ot.NewBaseSender(prg.New(seed.Derive(labelSeedOT)), seedOTSessionOf(cfg, try), cfg.depth())
}

// seedStart returns the garbler's seed transfer start S of the game.
func seedStart(cfg Config, seed prg.Seed) ([]byte, error) {
	s, err := seedSender(cfg, seed, 0)
	if err != nil {
		return nil, err
	}
	return s.Start()
}

// seedCoins returns the evaluator's coins of the seed transfer of try:
// what it reveals to prove a wrong seed (they open ĵ's path, nothing
// else).
func seedCoins(seed prg.Seed, try uint64) prg.Seed { return seed.Derive(labelSeedOT, try) }

// seedPathChoices returns the evaluator's choice of each level for ĵ = j:
// the side off the path.
func seedPathChoices(j, depth int) []bool {
	c := make([]bool, depth)
	for l := 1; l <= depth; l++ {
		c[l-1] = (j>>(depth-l))&1 == 0
	}
	return c
}

// seedResponse returns the evaluator's response of the seed transfer of
// try for ĵ = j, made from coins and the garbler's start, and its keys.
func seedResponse(cfg Config, coins prg.Seed, try uint64, j int, start []byte) ([]byte, []ot.Key, error) {
	r, err := ot.NewBaseReceiver(prg.New(coins), seedOTSessionOf(cfg, try), seedPathChoices(j, cfg.depth()))
	if err != nil {
		return nil, nil, err
	}
	msg, keys, err := r.Respond(start)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the garbler's seed transfer start: %v", ErrMessage, err)
	}
	return msg, keys, nil
}

// seedPad is the pad of the level sum l (from 1), side b, of try under
// the OT key k.
func seedPad(cfg Config, try uint64, l, b int, k ot.Key) prg.Seed {
	h := sha256.New()
	h.Write([]byte(tagSeedPad))
	writeGameTry(h, cfg, try, l)
	h.Write([]byte{byte(b)})
	h.Write(k[:])
	var p prg.Seed
	copy(p[:], h.Sum(nil))
	return p
}

// seedCiphertexts answers the evaluator's response of try with the level
// sums, each under the pad of its OT key: the garbler's part of the
// transfer, carried by its commitments.
func seedCiphertexts(cfg Config, seed prg.Seed, try uint64, response []byte, sums [][2]prg.Seed) ([]byte, error) {
	s, err := seedSender(cfg, seed, try)
	if err != nil {
		return nil, err
	}
	if _, err := s.Start(); err != nil {
		return nil, err
	}
	pairs, err := s.Finish(response)
	if err != nil {
		return nil, fmt.Errorf("%w: the evaluator's seed transfer response of try %d: %v", ErrMessage, try, err)
	}
	out := make([]byte, 0, cfg.seedCipherSize())
	for l, sum := range sums {
		for b := range 2 {
			c := seedPad(cfg, try, l+1, b, pairs[l][b])
			xorSeed(&c, sum[b])
			out = append(out, c[:]...)
		}
	}
	return out, nil
}

// seedSums decrypts the level sums the evaluator's keys open (ĵ = j), in
// the form ggmPuncture takes.
func seedSums(cfg Config, try uint64, j int, keys []ot.Key, ct []byte) []prg.Seed {
	depth := cfg.depth()
	choice := seedPathChoices(j, depth)
	got := make([]prg.Seed, depth)
	for l := range depth {
		b := b2int(choice[l])
		got[l] = seedPad(cfg, try, l+1, b, keys[l])
		var c prg.Seed
		copy(c[:], ct[(2*l+b)*32:])
		xorSeed(&got[l], c)
	}
	return got
}

// checkSeedResponse checks that a response of the evaluator is one the
// garbler can answer: depth points that decode.
func checkSeedResponse(cfg Config, response []byte) error {
	if err := ot.CheckBaseResponse(response, cfg.depth()); err != nil {
		return fmt.Errorf("%w: the evaluator's seed transfer response: %v", ErrMessage, err)
	}
	return nil
}

// SeedTransferEvidence is the part of a [Certificate] about the seed
// transfer of a checked try of a game of the authenticated state
// (MPC-D30): the evaluator's coins of the try's seed transfer, ĵ, and
// the two signed messages that carry the transfer's first moves (the
// garbler's start, the evaluator's response); the encrypted sums are in
// the commitments. Revealing the coins opens ĵ's path only.
type SeedTransferEvidence struct {
	// Coins are the evaluator's coins of the seed transfer of the try,
	// J its ĵ.
	Coins prg.Seed
	J     int
	// Start is the garbler's reverse setup message (its last part is the
	// seed transfer's start S); Carrier the evaluator's message that
	// carried its response of the try: its reverse setup answer at try
	// 0, else its choice of the try before.
	Start, Carrier []byte
}

// verifySeedTransfer judges a certificate about the seed transfer: nil
// when the seeds the evaluator's keys open are not all the ones the
// commitment names. The revealed coins must give exactly the response
// the evaluator signed (so its keys are the ones it had); the garbler's
// start and ciphertexts are its own signed messages. An honest garbler's
// sums always give the committed seeds, so it is never convicted.
func verifySeedTransfer(cfg Config, cm *commitment, c Certificate) error {
	if !cfg.authenticated() {
		return fmt.Errorf("%w: the game has no provable seed transfer", ErrNotProven)
	}
	e := c.SeedOT
	if e.J < 0 || e.J >= cfg.lambda() {
		return fmt.Errorf("%w: ĵ = %d of %d", ErrNotProven, e.J, cfg.lambda())
	}
	starts, err := unbundle(e.Start, setupParts)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	var carried []byte
	if cm.try == 0 {
		answers, err := unbundle(e.Carrier, setupParts)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
		carried = answers[2]
	} else {
		c, err := parseAuthChoice(cfg, cm.try-1, e.Carrier)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrNotProven, err)
		}
		carried = c.next
	}
	msg, keys, err := seedResponse(cfg, e.Coins, cm.try, e.J, starts[2])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotProven, err)
	}
	if !bytes.Equal(msg, carried) {
		return fmt.Errorf("%w: the coins do not give the evaluator's seed transfer response", ErrNotProven)
	}
	seeds := ggmPuncture(seedSums(cfg, cm.try, e.J, keys, cm.seedCT), e.J, cfg.depth())
	for i, s := range seeds {
		if i != e.J && seedHash(cfg, cm.try, i, s) != cm.entries[i][0] {
			return nil
		}
	}
	return fmt.Errorf("%w: the seed transfer gives the committed seeds", ErrNotProven)
}
