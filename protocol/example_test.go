package protocol_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/kakure/kakure/protocol"
	// The core names no variant: each variant's rules register
	// themselves with it (ARCH-D3). A program that replays records of
	// any variant imports them all, as here.
	_ "github.com/kakure/kakure/protocol/variants"
)

// The replayable core (ARCH-D1) checks a record from its bytes alone: the
// signatures against the keys in the peers' IDs, the hash chains, and the
// whole game through the same machine the peers ran. A record with one
// move changed no longer carries its sender's signature.
func Example() {
	data, err := os.ReadFile("testdata/records/go-resign.record.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := protocol.ParseTranscript(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("inviter", tr.Peers[protocol.Inviter])
	text, ok := protocol.Verify(tr).Describe(tr.Peers)
	fmt.Printf("%s(ok %t)\n", text, ok)

	changed := bytes.Replace(data, []byte(`{"point":"C2"}`), []byte(`{"point":"C3"}`), 1)
	_, err = protocol.ParseTranscript(changed)
	fmt.Println("one move changed: bad signature:", errors.Is(err, protocol.ErrBadSignature))
	// Output:
	// inviter 12D3KooWLbxP7LDZuX89jpMzu4o7pWojNGPpbuehVpsDpooATmUN
	// ok: result W+R (resign)
	// (ok true)
	// one move changed: bad signature: true
}

// The judge of violation reports (T-13, T-14, REC-D20) at work on a real record
// (testdata/records/go-equivocation, written by protocol/session's
// records_gen_test.go): the inviter's program sent its message 5 (its
// third move) twice, the second time as another move under the same
// sequence number, each signed with its key. The invitee's program
// reported it, with that second message as evidence, and the game ended
// there. Verify replays the game and judges the report again from the
// record alone: only what the accused signed convicts it, so anyone
// holding the record reaches the verdict of the peer that took the
// report.
func ExampleVerify_report() {
	tr, err := readRecord("testdata/records/go-equivocation.record.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	report := tr.Messages[len(tr.Messages)-1]
	var body protocol.ViolationBody
	if err := protocol.DecodeBody(report.Body, &body); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("the %s's %s: the %s broke %s\n", report.From, report.Kind, body.Accused, body.Rule)
	var ev protocol.Frame
	if err := json.Unmarshal(body.Evidence[0], &ev); err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range tr.Messages {
		if m.From == ev.Msg.From && m.Seq == ev.Msg.Seq {
			fmt.Printf("message %d of the %s in the record: %s %s (signed by it: %t)\n",
				m.Seq, m.From, m.Kind, m.Body, m.VerifySignature(tr.Peers[m.From]) == nil)
		}
	}
	fmt.Printf("message %d of the %s in the evidence: %s %s (signed by it: %t)\n",
		ev.Msg.Seq, ev.Msg.From, ev.Msg.Kind, ev.Msg.Body, ev.Msg.VerifySignature(tr.Peers[ev.Msg.From]) == nil)

	rep := protocol.Verify(tr)
	if j := rep.Judgement; j != nil && j.Violation != nil && rep.Outcome != nil {
		v := j.Violation
		fmt.Printf("judged: %s; the %s broke %s (equivocation %t), result %s\n",
			j.Verdict, v.Accused, v.Rule, errors.Is(v.Err, protocol.ErrEquivocation), rep.Outcome.Result)
	}
	text, ok := rep.Describe(tr.Peers)
	fmt.Printf("%s(ok %t)\n", text, ok)
	// Output:
	// the invitee's violation: the inviter broke T-3
	// message 5 of the inviter in the record: move {"point":"D2"} (signed by it: true)
	// message 5 of the inviter in the evidence: move {"point":"pass"} (signed by it: true)
	// judged: proven; the inviter broke T-3 (equivocation true), result W+F
	// VIOLATION of T-3 by the inviter (peer 12D3KooWLbxP7LDZuX89jpMzu4o7pWojNGPpbuehVpsDpooATmUN): equivocation: two different messages with the same sequence number 5 (move in the record, move in the evidence) (proven by signed messages in the record; reported by the invitee)
	// result: W+F
	// (ok false)
}

// readRecord reads and parses the record at path.
func readRecord(path string) (*protocol.Transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return protocol.ParseTranscript(data)
}
