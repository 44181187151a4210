// Package referee runs the Phantom Go referee as a two-party secure
// computation (trust.md T-7..T-9): per game, a garbler and an evaluator
// hold XOR shares of the referee state, and every try is one garbled
// evaluation of the referee circuit of package circuit, with the
// evaluator's inputs transferred by oblivious transfer (package ot).
//
// The package has no networking, and its results never depend on timing:
// its goroutines only do ahead or beside what a call would do anyway (the
// next try's garblings made ahead, [Garbler.PrepareAhead]; the opened
// garblings checked while the choice travels, MPC-D21; batches spread over
// the cores), and each call waits for what it needs of them. The two
// state machines, [Garbler] and [Evaluator], turn byte messages into byte
// messages; a session layer carries them. Every random choice is derived
// from the party's 32-byte seed ([prg.Seed]) under fixed labels, so that
// [Audit] can re-derive, once both seeds are revealed at the end of the
// game, every message each party should have sent, and name the first one
// that deviated (T-8).
//
// One game, garbler G and evaluator E (the inviter garbles, the invitee
// evaluates; either may be Black):
//
//	setup:   E → G  BaseStart         (base OTs, E is the OT receiver)
//	         G → E  BaseRespond
//	try t:   E → G  Request           the OT request for E's input bits:
//	                                  its share, and its try if E's player moves
//	         G → E  Garbling          tables, G's input labels (its share,
//	                                  its try if G's player moves, fresh
//	                                  mask bits), OT reply, decoding bits
//	                                  (in a three-halves game the mask bits
//	                                  are XORed into the decoding bits
//	                                  instead of being inputs, MPC-D27)
//	         E → G  Outputs           the labels of the outputs G may read,
//	                                  and the public event bits (pass, legal)
//
// After the third message both programs know their player's
// announcement ([phantom.Announcement], exactly what
// [phantom.Announce] gives) and hold fresh shares of the next state.
// When G's player moves, E sends its request as soon as the previous try
// is over, so that a try costs one round trip once G's player has chosen.
//
// See docs/phantom-net.md for the decisions (PN-Dn) and the numbers.
package referee
