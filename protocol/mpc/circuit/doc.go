// Package circuit holds boolean circuits for the two-party secure
// computation of Phantom Go (trust.md T-7..T-9): the circuit
// representation a garbler garbles ([Circuit]: XOR, AND and INV gates
// between a garbler and an evaluator), a [Builder] that writes circuits
// with constant folding and shared gates, and the Phantom Go referee as a
// circuit ([RefereeCircuit]) with the layout of its inputs and outputs
// ([RefereeLayout]) and its XOR-shared state ([RefereeState]).
//
// Everything here is plaintext: [Circuit.Eval] computes a circuit in the
// clear, which is what the tests hold against phantom.Referee bit for
// bit and what an end-of-game audit can replay. Garbling, oblivious
// transfer and the messages live elsewhere.
package circuit
