// Package ot is the oblivious transfer of the secure computation: the
// evaluator of a garbled circuit obtains the labels of its own input bits
// from the garbler without the garbler learning the bits, and without
// learning the labels of the other values.
//
// Two layers:
//
//   - Base OT: the "simplest OT" of Chou and Orlandi (Latincrypt 2015) on
//     the Ristretto255 group of github.com/cloudflare/circl/group, as a
//     random OT: the sender obtains two 32-byte keys per OT, the receiver
//     the key of its choice bit. It runs 128 times, once per game and
//     direction. Its security is claimed only against semi-honest parties
//     with the keys hashed in the random-oracle model; it is NOT claimed to
//     be UC-secure (the original UC proof is known to be flawed). It is
//     used only to seed the extension.
//   - OT extension: IKNP (Ishai, Kilian, Nissim and Petrank, Crypto 2003)
//     turns the 128 base OTs into any number of 1-out-of-2 OTs of 16-byte
//     messages, at 16 bytes from the receiver and 32 bytes from the sender
//     per OT and a few AES calls, with the consistency check of KOS15
//     (Keller, Orsini and Scholl, Crypto 2015), its challenge derived
//     Fiat–Shamir from the request. The hash is the TCCR fixed-key AES
//     hash of package aeshash with the batch and the OT's index in it as
//     tweak.
//
// The check makes the extension secure against a cheating receiver
// (trust.md T-8(a)): a request with inconsistent columns, which would let
// the receiver test bits of the sender's secret, is refused at once
// ([ErrConsistency]) unless the receiver guessed every bit it probes, and
// [VerifyRefusal] proves the refusal to a third party. A cheating sender
// can still send wrong messages; that is caught by the checks of the
// garbled computation above it and by the audit of T-8: every random
// choice is read from a [prg.Seed], the state machines are deterministic,
// so once both seeds (and the receiver's choice bits) are revealed, the
// auditor replays both machines from the recorded messages and compares
// every byte.
//
// The API is message based and free of networking. Roles are named for
// the extension: the [Sender] holds message pairs (the garbler), the
// [Receiver] holds choice bits (the evaluator). The flow is
//
//	Receiver.BaseStart      → msg1 (R→S)
//	Sender.BaseRespond(msg1) → msg2 (S→R)
//	Receiver.BaseFinish(msg2)
//	then, per batch:
//	Receiver.Request(choices)     → request (R→S)
//	Sender.Send(request, pairs)   → reply   (S→R)
//	Receiver.Receive(reply)       → chosen messages
//
// A message that fails to decode leaves the machine unchanged.
package ot

import (
	"errors"

	"github.com/kakure/kakure/protocol/mpc/aeshash"
)

// Block is a 16-byte OT message; with free-XOR garbling the pairs are
// (label, label ⊕ Δ).
type Block = aeshash.Block

// Key is a 32-byte key output by a base OT.
type Key [32]byte

// Kappa is the number of base OTs, the security parameter of IKNP.
const Kappa = 128

// KappaMAC is the number of base OTs (columns) of an extension made for
// MACs ([NewMACSender], [NewMACReceiver]): its correlated OTs are
// information-theoretic MACs under a 64-bit key, forged with
// probability 2^-64 (MPC-D32 in docs/mpc.md). Its consistency check is
// the same as Kappa's, in GF(2^128).
const KappaMAC = 64

// Limits on messages.
const (
	// MaxBatch is the largest number of OTs in one extension batch.
	MaxBatch = 1 << 20
	// MaxBaseOTs is the largest number of OTs in one base OT run.
	MaxBaseOTs = 1 << 12
)

// Errors of the package, wrapped with context.
var (
	// ErrMessage reports a message that cannot be decoded: wrong tag,
	// version, batch number or length, an invalid group element.
	ErrMessage = errors.New("ot: malformed message")
	// ErrState reports a call out of order, such as Request before the
	// base OTs are finished or twice without Receive.
	ErrState = errors.New("ot: call out of order")
	// ErrInput reports arguments of the wrong size.
	ErrInput = errors.New("ot: bad argument")
	// ErrConsistency reports a well-formed extension request that fails
	// the KOS15 consistency check: the receiver deviated (the probing
	// attack of trust.md T-8(a)), and the sender refuses it and every
	// later call. An honest receiver's request always passes.
	ErrConsistency = errors.New("ot: the receiver's request fails the consistency check")
)

// Message tags: every message starts with 'O', the version and its kind.
const (
	msgMagic   = 'O'
	msgVersion = 2 // 2: OT extension with the KOS15 check

	kindBaseSender   = 1 // base OT sender's point
	kindBaseReceiver = 2 // base OT receiver's points
	kindRequest      = 3 // extension receiver's columns
	kindReply        = 4 // extension sender's masked messages
	kindRequestMAC   = 5 // extension receiver's columns, KappaMAC of them
)
