package session

import (
	"github.com/kakure/kakure/protocol"

	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"hash/crc32"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/kakure/kakure/internal/testenv"
)

// loadTestRecords reads the records of testdata/records (written by
// TestWriteFuzzRecords with the keys of RecordTestKey), sorted by name.
func loadTestRecords(t testing.TB) []*protocol.Transcript {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "records", "*.record.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no records in testdata/records: %v", err)
	}
	sort.Strings(paths)
	var recs []*protocol.Transcript
	for _, p := range paths {
		tr, err := LoadTranscript(p)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, tr)
	}
	return recs
}

// replayPrefix returns a transcript and a machine holding the first k
// messages of rec, as a peer has them after receiving those messages. The
// records were checked when read, so the signatures are not checked again
// (that would make a fuzz run ten times slower).
func replayPrefix(t testing.TB, rec *protocol.Transcript, k int) (*protocol.Transcript, *protocol.Machine) {
	t.Helper()
	tr := protocol.NewTranscript(rec.Game, rec.Peers[0], rec.Peers[1])
	m := protocol.NewMachine(rec.Game)
	for i := range k {
		msg := rec.Messages[i]
		if _, err := m.Apply(&msg); err != nil {
			t.Fatalf("honest message %d: %v", i, err)
		}
		tr.AppendChecked(msg)
	}
	return tr, m
}

// deliver is what Game.receive and Verify do with a message: check it
// against the transcript, apply it to the machine, append it.
func deliver(tr *protocol.Transcript, m *protocol.Machine, msg *protocol.Message) error {
	if err := tr.Check(msg); err != nil {
		return err
	}
	if _, err := m.Apply(msg); err != nil {
		return err
	}
	tr.AppendChecked(*msg)
	return nil
}

// frameOf returns the length-prefixed frame carrying f.
func frameOf(t testing.TB, f protocol.Frame) []byte {
	raw, err := protocol.EncodeFrame(f)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := protocol.WriteFrame(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Fuzz modes of FuzzWireFrames: re-sign each message with the key of the
// role it claims, and also give it the sequence number, chain and
// acknowledgement the transcript expects, so that arbitrary kinds and
// bodies reach the machine.
const (
	fuzzSign     = 1
	fuzzFixChain = 2
)

// FuzzWireFrames feeds arbitrary bytes, read as a stream of frames, to the
// transcript and machine of a game at any point of a recorded honest game
// (T-10). Nothing panics; a refused message changes neither the
// transcript nor the machine (the machine is compared with a twin that
// never saw it), and the honest game then goes on to the end; an accepted
// message is accepted alike by the twin, and Verify judges an accepted
// violation report (its evidence is arbitrary frames too).
func FuzzWireFrames(f *testing.F) {
	recs := loadTestRecords(f)
	for ri, rec := range recs {
		for k := 0; k <= len(rec.Messages); k += 1 + len(rec.Messages)/6 {
			next := frameOf(f, protocol.Frame{Ping: true})
			if k < len(rec.Messages) {
				next = frameOf(f, protocol.Frame{Msg: &rec.Messages[k]})
			}
			f.Add(next, uint8(ri), uint16(k), uint8(0))
			if k+1 < len(rec.Messages) {
				// A later message in the place of the next one.
				f.Add(frameOf(f, protocol.Frame{Msg: &rec.Messages[k+1]}), uint8(ri), uint16(k), uint8(fuzzSign|fuzzFixChain))
			}
		}
		f.Add(append(frameOf(f, protocol.Frame{Hello: &protocol.Hello{Game: rec.Game, Have: [2]uint64{3, 2}}}), frameOf(f, protocol.Frame{Ping: true})...), uint8(ri), uint16(4), uint8(0))
	}
	f.Add([]byte("\x05{\"a\":"), uint8(0), uint16(0), uint8(0))
	f.Add([]byte("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"), uint8(0), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, stream []byte, recIndex uint8, prefix uint16, mode uint8) {
		if !testenv.Full() && !fuzzing() && crc32.ChecksumIEEE(stream)%4 != 0 {
			// Each input replays part of a game twice: go test ./...
			// replays a quarter of the corpus, the full tier
			// (KAKURE_TEST_FULL=1) all.
			t.Skip("one input in four outside the full tier")
		}
		rec := recs[int(recIndex)%len(recs)]
		k := int(prefix) % (len(rec.Messages) + 1)
		tr, m := replayPrefix(t, rec, k)
		twinTr, twin := replayPrefix(t, rec, k)
		r := bufio.NewReader(bytes.NewReader(stream))
		accepted, violationKind := 0, false
		for range 4 {
			fr, raw, err := protocol.ReadFrameJSON(r)
			if err != nil {
				break // the loop reports it (streamFailed); nothing is applied
			}
			if len(raw) > protocol.MaxFrameSize {
				t.Fatalf("a frame of %d bytes was read", len(raw))
			}
			if fr.Msg == nil {
				continue
			}
			msg := *fr.Msg
			if mode&fuzzFixChain != 0 && msg.From <= protocol.Invitee {
				msg.Game = tr.Game
				msg.Seq, msg.Prev = tr.Next(msg.From)
				msg.Ack, msg.AckHash = tr.AckFor(msg.From)
			}
			if mode&fuzzSign != 0 && msg.From <= protocol.Invitee {
				if err := msg.Sign(RecordTestKey(msg.From)); err != nil {
					t.Fatal(err)
				}
			}
			if err := deliver(tr, m, &msg); err != nil {
				if !reflect.DeepEqual(tr, twinTr) {
					t.Fatalf("a refused message (%v) changed the transcript", err)
				}
				if !reflect.DeepEqual(m, twin) {
					t.Fatalf("a refused %s message (%v) changed the machine", msg.Kind, err)
				}
				continue
			}
			if _, err := twin.Apply(&msg); err != nil {
				t.Fatalf("the twin machine refuses an accepted %s message: %v", msg.Kind, err)
			}
			twinTr.AppendChecked(msg)
			accepted++
			violationKind = violationKind || msg.Kind == protocol.KindViolation
		}
		if accepted == 0 {
			// The honest game goes on as if nothing had come (the
			// transcript is as it was, so it would accept the same
			// messages; only the machine is fed).
			for i := k; i < len(rec.Messages); i++ {
				msg := rec.Messages[i]
				if _, err := m.Apply(&msg); err != nil {
					t.Fatalf("after refused frames, honest message %d: %v", i, err)
				}
			}
			if m.Phase != protocol.PhaseDone {
				t.Fatalf("the honest game ends in phase %s", m.Phase)
			}
			return
		}
		if violationKind {
			// A violation report was accepted: Verify judges its
			// evidence (arbitrary frames) without a panic, and counts
			// every message up to the report.
			rep := protocol.Verify(tr)
			if rep.Violation == nil {
				t.Fatalf("Verify finds no violation in a record with a report")
			}
		}
	})
}

// FuzzParseTranscript reads arbitrary records: nothing panics; a record
// that reads writes back to bytes that read as the same messages, and
// Verify replays it.
func FuzzParseTranscript(f *testing.F) {
	for _, rec := range loadTestRecords(f) {
		data, err := rec.MarshalJSON()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte(`{"format":"kakure-record/1","game":"00000000000000000000000000000000","peers":["",""],"messages":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := protocol.ParseTranscript(data)
		if err != nil {
			return
		}
		protocol.Verify(tr)
		again, err := tr.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := protocol.ParseTranscript(again)
		if err != nil {
			t.Fatalf("a record that reads does not read back once written: %v", err)
		}
		if back.Game != tr.Game || back.Peers != tr.Peers || len(back.Messages) != len(tr.Messages) {
			t.Fatalf("written and read back: game %s peers %v %d messages, was %s %v %d",
				back.Game, back.Peers, len(back.Messages), tr.Game, tr.Peers, len(tr.Messages))
		}
		for i := range tr.Messages {
			if back.Messages[i].Hash() != tr.Messages[i].Hash() || !bytes.Equal(back.Messages[i].Sig, tr.Messages[i].Sig) {
				t.Fatalf("message %d changed when written and read back", i)
			}
		}
	})
}

// FuzzSecretsRestore reads arbitrary saved secrets for every variant at
// any point of its recorded game (the secrets file is read on resume):
// nothing panics, secrets that read write back to the same form, and the
// player's view and automatic messages are computed without a panic (a
// wrong automatic message is refused by the machine, never sent).
func FuzzSecretsRestore(f *testing.F) {
	recs := loadTestRecords(f)
	for i := range recs {
		f.Add([]byte("null"), uint8(i), uint16(0), false)
	}
	f.Add([]byte(`{"turn":3,"choice":"B2","opening":{"value":"QjI=","salt":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}}`), uint8(2), uint16(20), true)
	f.Add([]byte(`{"commitments":["00"],"openings":[{"value":"QzM=","salt":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}]}`), uint8(3), uint16(12), false)
	f.Fuzz(func(t *testing.T, data []byte, recIndex uint8, prefix uint16, invitee bool) {
		rec := recs[int(recIndex)%len(recs)]
		k := 1 + int(prefix)%len(rec.Messages)
		tr, m := replayPrefix(t, rec, k)
		me := protocol.Inviter
		if invitee {
			me = protocol.Invitee
		}
		p := newVariantPlayer[m.Options.Variant](rec.Game, m.Options, me)
		if err := p.restore(json.RawMessage(data)); err != nil {
			return
		}
		saved, err := p.secrets()
		if err != nil {
			t.Fatal(err)
		}
		q := newVariantPlayer[m.Options.Variant](rec.Game, m.Options, me)
		if err := q.restore(saved); err != nil {
			t.Fatalf("secrets written by the player do not read back: %v", err)
		}
		if again, _ := q.secrets(); !bytes.Equal(again, saved) {
			t.Fatalf("secrets changed when written and read back:\n%s\n%s", saved, again)
		}
		if m.Rules == nil {
			return
		}
		if pv, ok := p.(protocol.PrivateViewer); ok {
			pv.PrivateView(m, me, m.Rules.View(me))
		}
		kind, body, ok, err := p.auto(m, me)
		if err != nil || !ok {
			return
		}
		raw, err := protocol.EncodeBody(body)
		if err != nil {
			t.Fatal(err)
		}
		msg := protocol.Message{Game: tr.Game, From: me, Kind: kind, Body: raw}
		msg.Seq, msg.Prev = tr.Next(me)
		msg.Ack, msg.AckHash = tr.AckFor(me)
		_, twin := replayPrefix(t, rec, k)
		if _, err := m.Apply(&msg); err != nil && !reflect.DeepEqual(m, twin) {
			t.Fatalf("a refused automatic %s message changed the machine", kind)
		}
	})
}

// fuzzing reports whether the test binary fuzzes (-test.fuzz), rather
// than replaying the seed corpus.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}
