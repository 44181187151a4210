package session_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/commit"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/phantom"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/fgorules"
	"github.com/kakure/kakure/protocol/gomokurules"
	"github.com/kakure/kakure/protocol/hmgrules"
	"github.com/kakure/kakure/protocol/leakcheck"
	"github.com/kakure/kakure/protocol/phantomrules"
	"github.com/kakure/kakure/protocol/session"
)

// leakSnapshot is what both peers hold at one moment: their secrets,
// their logs and their records, indexed by peer. The records are read
// last, so that a value opened before a log line was written counts as
// opened.
type leakSnapshot struct {
	secrets [2][]byte
	logs    [2]string
	records [2][]byte
}

// readSole reads the one file of dir that matches pattern, or returns
// nil when there is none yet (or more than one).
func readSole(dir, pattern string) []byte {
	paths, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(paths) != 1 {
		return nil
	}
	data, _ := os.ReadFile(paths[0])
	return data
}

// leakParsed remembers what leakcheck read from the records and secrets
// files the leak checks polled, by the SHA-256 of the file's bytes: the
// T-5 tests look at both peers' files every few milliseconds, and a
// record or a secrets file changes only a few times a second (parsing it
// again each time took some 5 % of the package's CPU). When full it
// forgets everything.
var leakParsed struct {
	sync.Mutex
	messages map[[sha256.Size]byte][]protocol.Message
	values   map[[sha256.Size]byte]parsedValues
}

// parsedValues is what leakcheck.Values returned.
type parsedValues struct {
	owner protocol.Role
	vals  []leakcheck.Value
}

// leakParsedKept is how many files' contents leakParsed keeps at most.
const leakParsedKept = 256

// recordMessages is leakcheck.Messages(record), read once for each
// content (leakParsed); an error is not remembered. The messages are
// shared: the caller must not change them.
func recordMessages(record []byte) ([]protocol.Message, error) {
	k := sha256.Sum256(record)
	leakParsed.Lock()
	msgs, ok := leakParsed.messages[k]
	leakParsed.Unlock()
	if ok {
		return msgs, nil
	}
	msgs, err := leakcheck.Messages(record)
	if err != nil {
		return nil, err
	}
	leakParsed.Lock()
	defer leakParsed.Unlock()
	if leakParsed.messages == nil || len(leakParsed.messages) >= leakParsedKept {
		leakParsed.messages = map[[sha256.Size]byte][]protocol.Message{}
	}
	leakParsed.messages[k] = msgs
	return msgs, nil
}

// secretValues is leakcheck.Values(secrets), read once for each content
// (leakParsed); an error is not remembered.
func secretValues(secrets []byte) (protocol.Role, []leakcheck.Value, error) {
	k := sha256.Sum256(secrets)
	leakParsed.Lock()
	v, ok := leakParsed.values[k]
	leakParsed.Unlock()
	if ok {
		return v.owner, v.vals, nil
	}
	owner, vals, err := leakcheck.Values(secrets)
	if err != nil {
		return 0, nil, err
	}
	leakParsed.Lock()
	defer leakParsed.Unlock()
	if leakParsed.values == nil || len(leakParsed.values) >= leakParsedKept {
		leakParsed.values = map[[sha256.Size]byte]parsedValues{}
	}
	leakParsed.values[k] = parsedValues{owner, vals}
	return owner, vals, nil
}

// takeSnapshot reads both peers' files and logs, in the order
// leakSnapshot needs.
func takeSnapshot(dirs [2]string, logs [2]*lockedBuffer) leakSnapshot {
	var s leakSnapshot
	for i, dir := range dirs {
		s.secrets[i] = readSole(dir, "*.secrets.json")
	}
	for i, l := range logs {
		s.logs[i] = l.String()
	}
	for i, dir := range dirs {
		s.records[i] = readSole(dir, "*.record.json")
	}
	return s
}

// findValueLeaks looks for the hidden values of both peers where they
// must not be before they are opened: in either peer's log (one's own log
// included, at every level), and in either record outside the opening
// messages: as a field of a message, in the free text of a violation,
// a decline or a chat line, or, for a binary value, anywhere. It returns
// how many (value, place) pairs it checked and what it found.
func findValueLeaks(s leakSnapshot) (checked int, leaks []string) {
	var msgs [2][]protocol.Message
	for i, rec := range s.records {
		if rec == nil {
			continue
		}
		m, err := recordMessages(rec)
		if err != nil {
			leaks = append(leaks, fmt.Sprintf("record of peer %d: %v", i, err))
			continue
		}
		msgs[i] = m
	}
	for _, sec := range s.secrets {
		if sec == nil {
			continue
		}
		owner, vals, err := secretValues(sec)
		if err != nil {
			leaks = append(leaks, err.Error())
			continue
		}
		for _, v := range vals {
			openedSomewhere := false
			for i := range msgs {
				openedSomewhere = openedSomewhere || v.OpensAt(msgs[i]) < len(msgs[i])
			}
			if !openedSomewhere {
				for j, l := range s.logs {
					checked++
					if v.In(l) {
						leaks = append(leaks, fmt.Sprintf("the log of peer %d holds %s, hidden by the %s", j, v.Text, owner))
					}
				}
			}
			for i := range msgs {
				end := v.OpensAt(msgs[i])
				for k, m := range msgs[i][:end] {
					if leakcheck.OpeningKinds[m.Kind] {
						continue // the salt check covers openings
					}
					checked++
					if where := v.InBody(m.Body); where != "" {
						leaks = append(leaks, fmt.Sprintf("record of peer %d, message %d (%s from the %s): %s holds %s, hidden by the %s until message %d",
							i, k, m.Kind, m.From, where, v.Text, owner, end))
					}
				}
			}
		}
	}
	return checked, leaks
}

// TestT5LeakCheckCatchesInjectedLeaks shows that findValueLeaks can fail:
// a hidden value written into a log, a violation detail, a decline
// reason, a field of its own or (binary) anywhere is found, and the same
// value is fine in a public point field or once opened.
func TestT5LeakCheckCatchesInjectedLeaks(t *testing.T) {
	_, opening, err := commit.New(hmgrules.CardDomain, make([]byte, 16), 1, 0, []byte("C3"))
	if err != nil {
		t.Fatal(err)
	}
	seed := bytes.Repeat([]byte{0xa7}, 32)
	_, seedOpening, _ := commit.New("kakure/test/seed", make([]byte, 16), 1, 0, seed)
	ot, _ := opening.MarshalText()
	st, _ := seedOpening.MarshalText()
	secrets := []byte(fmt.Sprintf(`{"role":1,"variant":{"openings":[%q],"seed":%q}}`, ot, st))
	msg := func(from protocol.Role, kind protocol.Kind, body string) protocol.Message {
		return protocol.Message{From: from, Kind: kind, Body: json.RawMessage(body)}
	}
	record := func(ms ...protocol.Message) []byte {
		b, err := json.Marshal(struct{ Messages []protocol.Message }{ms})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	reveal := msg(protocol.Invitee, hmgrules.KindReveal, fmt.Sprintf(`{"card":0,"point":"C3","salt":"%x"}`, opening.Salt[:]))
	tests := []struct {
		name  string
		s     leakSnapshot
		leaks int
	}{
		{"clean", leakSnapshot{logs: [2]string{"level=INFO msg=ok peer=12D3KooWC3x", ""},
			records: [2][]byte{record(msg(protocol.Inviter, protocol.KindMove, `{"point":"C3"}`))}}, 0},
		{"log of the other peer", leakSnapshot{logs: [2]string{`level=DEBUG msg=x p="C3"`, ""}}, 1},
		{"own log", leakSnapshot{logs: [2]string{"", "level=ERROR msg=x err=\"at C3, ...\""}}, 1},
		{"violation detail", leakSnapshot{records: [2][]byte{record(msg(protocol.Invitee, protocol.KindViolation, `{"accused":0,"rule":"T-10","detail":"clashes with my stone at C3"}`))}}, 1},
		{"decline reason", leakSnapshot{records: [2][]byte{nil, record(msg(protocol.Invitee, protocol.KindDecline, `{"reason":"C3"}`))}}, 1},
		{"field of its own", leakSnapshot{records: [2][]byte{record(msg(protocol.Invitee, protocol.KindChat, `{"hint":"C3"}`))}}, 1},
		{"binary value in hex", leakSnapshot{records: [2][]byte{record(msg(protocol.Invitee, protocol.KindChat, fmt.Sprintf(`{"text":"%x"}`, seed)))}}, 1},
		{"binary value in base64", leakSnapshot{logs: [2]string{"x=" + base64.StdEncoding.EncodeToString(seed)}}, 1},
		{"after the opening", leakSnapshot{records: [2][]byte{record(reveal, msg(protocol.Invitee, protocol.KindChat, `{"text":"C3 was mine"}`))}}, 0},
		{"opened: logs may say it", leakSnapshot{logs: [2]string{"revealed C3"}, records: [2][]byte{record(reveal)}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.s.secrets[1] = secrets
			checked, leaks := findValueLeaks(tt.s)
			if len(leaks) != tt.leaks {
				t.Errorf("found %d leaks, want %d: %q", len(leaks), tt.leaks, leaks)
			}
			if checked == 0 {
				t.Error("checked nothing")
			}
		})
	}
}

// viewWatch is a player that checks each view it is given, before its
// player chooses from it, against the other peer's secrets: the view
// must not hold the other peer's unopened values.
type viewWatch struct {
	p     bot.Player
	other string // the other peer's directory
	self  string // this peer's directory, for its record

	mu      sync.Mutex
	views   int
	checked int
	leaks   []string
}

func (w *viewWatch) Choose(v protocol.View) protocol.Action {
	w.check(v)
	return w.p.Choose(v)
}

func (w *viewWatch) check(v protocol.View) {
	secrets := readSole(w.other, "*.secrets.json")
	record := readSole(w.self, "*.record.json") // after the view: sound
	var vals []leakcheck.Value
	if secrets != nil {
		_, vals, _ = leakcheck.Values(secrets)
	}
	var msgs []protocol.Message
	if record != nil {
		msgs, _ = leakcheck.Messages(record)
	}
	var leaks []string
	checked := 0
	size := v.Options.Size
	switch vv := v.Variant.(type) {
	case hmgrules.View:
		ended := vv.Stage == hmgrules.StageOpen || vv.Stage == hmgrules.StageDone
		opp := v.Color.Opponent()
		cards := vv.OpponentCards
		if v.Color != engine.Empty {
			cards = append(slices.Clone(cards), vv.Game.Cards(opp)...)
		}
		for i, c := range cards {
			checked++
			if c.Point != engine.NoPoint && !c.Revealed && !ended {
				leaks = append(leaks, fmt.Sprintf("HMG view shows the opponent's unrevealed card %d at %s", i, c.Point.Vertex(size)))
			}
		}
	case gomokurules.View:
		if vv.Game.Size() == 0 {
			break
		}
		for _, h := range vals {
			if !h.Vertex || h.OpensAt(msgs) < len(msgs) {
				continue
			}
			p, err := engine.ParseVertex(size, h.Text)
			if err != nil {
				continue
			}
			checked++
			if vv.Game.OpponentPiece(p) {
				leaks = append(leaks, fmt.Sprintf("gomoku view shows the opponent's hidden piece at %s", h.Text))
			}
			// The history of the game names the point of an opponent's
			// turn only once it is opened.
			for k, n := range vv.Game.History() {
				checked++
				if n.Mover != vv.Game.Me() && n.Turn.Point == p {
					leaks = append(leaks, fmt.Sprintf("gomoku history names %s at turn %d, the opponent's hidden piece", h.Text, k+1))
				}
			}
		}
	case phantomrules.View:
		checked++
		if !vv.Revealed {
			b := vv.Referee.Board()
			if b.Size() > 0 && (b.Count(engine.Black) > 0 || b.Count(engine.White) > 0) {
				leaks = append(leaks, "Phantom Go view holds the referee's board before the audit")
			}
		}
		// Each announcement tells no more than PG-D1 gives its player:
		// never the point of the opponent's try, the reason of the
		// opponent's illegal try under hamburg only, which points a move
		// captured under common (and to their owner under kriegspiel),
		// the atari facts except under kriegspiel.
		rules := vv.Own.Rules()
		for i, a := range vv.Own.Log() {
			checked++
			theirs := a.Mover != v.Color
			var extra []string
			if theirs && a.Point != engine.NoPoint {
				extra = append(extra, "the point "+a.Point.Vertex(size))
			}
			if theirs && a.Reason != phantom.TryNoReason && rules != engine.RulesHamburg {
				extra = append(extra, "the reason "+a.Reason.String())
			}
			if len(a.Captured) > 0 && (rules == engine.RulesHamburg || rules == engine.RulesKriegspiel && !theirs) {
				extra = append(extra, "the captured points")
			}
			if (a.AtariOpponent || a.AtariSelf) && rules == engine.RulesKriegspiel {
				extra = append(extra, "an atari")
			}
			if len(extra) > 0 {
				leaks = append(leaks, fmt.Sprintf("Phantom Go announcement %d under %s tells the %s %s", i, rules, v.Color, strings.Join(extra, ", ")))
			}
		}
		// What the player knows of the board must follow from its own
		// announcements alone: the view made again from them knows the
		// same at every point.
		if vv.Own.Size() == 0 || v.Color == engine.Empty {
			break
		}
		again, err := phantom.NewView(v.Options, v.Color)
		for _, a := range vv.Own.Log() {
			if err == nil {
				again, err = again.Apply(a)
			}
		}
		if err != nil {
			leaks = append(leaks, fmt.Sprintf("Phantom Go view: its announcements do not replay: %v", err))
			break
		}
		for p := engine.Point(0); int(p) < size*size; p++ {
			checked++
			if again.At(p) != vv.Own.At(p) {
				leaks = append(leaks, fmt.Sprintf("Phantom Go view knows %v at %s, its announcements say %v", vv.Own.At(p), p.Vertex(size), again.At(p)))
			}
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.views++
	w.checked += checked
	w.leaks = append(w.leaks, leaks...)
}

// TestT5NoLeakOfHiddenValues plays games of every variant with hidden
// values between bots and, all along each game, checks that what a peer
// committed to and has not opened (card points, F-Go choices, gomoku
// pieces, Phantom Go tries and seed, coin-toss contributions) appears in
// no log of either peer (debug level), in no record outside its opening
// (fields, violation details, decline reasons, chat), and in no view
// given to the other side's player.
// The salts of the openings are checked too (checkNoLeak): they reach a
// record only in their owner's opening message, and never a log.
func TestT5NoLeakOfHiddenValues(t *testing.T) {
	t.Parallel() // computes and shares nothing: runs beside the tests that wait
	tests := []struct {
		name string
		o    engine.Options
		seed uint64
	}{
		{"HMG 5x5 3 cards", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 3, CardsSet: true}, 41},
		{"F-Go 5x5", engine.Options{Variant: engine.VariantFGo, Size: 5}, 43},
		{"gomoku 7x7", engine.Options{Variant: engine.VariantGomoku, Size: 7}, 45},
		{"Phantom Go 5x5 common", engine.Options{Variant: engine.VariantPhantom, Size: 5}, 47},
		{"Phantom Go 5x5 hamburg", engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesHamburg}, 49},
		{"Phantom Go 5x5 kriegspiel", engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesKriegspiel}, 51},
		// Checked tries with the correlated input OTs (MPC-D28): the
		// reverse extension's messages and the secrets' reverse request.
		{"Phantom Go 5x5 hamburg correlated", engine.Options{Variant: engine.VariantPhantom, Size: 5, Rules: engine.RulesHamburg,
			Lambda: 4, Garbling: engine.GarblingThreeHalves, InputOT: engine.InputOTCorrelated}, 53},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if phantomRace && tt.o.Variant == engine.VariantPhantom && tt.o.Rules != "" {
				t.Skip("one Phantom Go game under -race, which slows the secure computation some fifty times: the others run without -race (go test ./...)")
			}
			t.Parallel()
			var logs [2]*lockedBuffer
			p := newPair(t, debugLogs(&logs))
			stop := make(chan struct{})
			type result struct {
				snapshots, checked int
				leaks              []string
			}
			polled := make(chan result)
			go func() {
				var r result
				saltsClean := true
				for {
					if saltsClean {
						_, saltsClean = checkNoLeak(t, p.dirs, logs)
					}
					checked, leaks := findValueLeaks(takeSnapshot(p.dirs, logs))
					r.snapshots++
					r.checked += checked
					if len(r.leaks) < 10 {
						r.leaks = append(r.leaks, leaks...)
					}
					select {
					case <-stop:
						polled <- r
						return
					case <-time.After(5 * time.Millisecond):
					}
				}
			}()
			watch := [2]*viewWatch{
				{p: quickBot(tt.seed, 12), other: p.dirs[1], self: p.dirs[0]},
				{p: quickBot(tt.seed+1, 12), other: p.dirs[0], self: p.dirs[1]},
			}
			playPlayers(t, p, tt.o, watch[0], watch[1])
			close(stop)
			r := <-polled
			for _, l := range r.leaks {
				t.Error(l)
			}
			views, viewChecks := 0, 0
			for _, w := range watch {
				for _, l := range w.leaks {
					t.Error(l)
				}
				views += w.views
				viewChecks += w.checked
			}
			salts, _ := checkNoLeak(t, p.dirs, logs)
			t.Logf("%d snapshots, %d checks of a hidden value in a log or a message; %d views with %d checks; %d salts in the secrets at the end",
				r.snapshots, r.checked, views, viewChecks, salts)
			if r.checked == 0 {
				t.Error("no hidden value checked in the logs and records")
			}
			if salts == 0 {
				t.Error("no salt found in the secrets files: the salt check checked nothing")
			}
		})
	}
}

// TestT5ViolationsLeakNoHiddenValue has a cheating program (the inviter)
// break a rule in the middle of a game of each variant with hidden
// values; the honest peer accuses it at once and the game ends by
// forfeit, so that both peers keep values that are never opened. The
// accusation's detail (sent to the cheater and kept in both records),
// the log lines about it and every other message and log must hold none
// of them.
func TestT5ViolationsLeakNoHiddenValue(t *testing.T) {
	t.Parallel()
	otherPoint := func(v string) string {
		if v == "A1" {
			return "B2"
		}
		return "A1"
	}
	tamper := func(kind protocol.Kind, n int, f func(body []byte) []byte) func(c *session.Config) {
		return func(c *session.Config) {
			session.SetTamper(c, cheatOn(kind, n, func(m *protocol.Message, key crypto.PrivKey) [][]byte {
				m.Body = f(m.Body)
				m.Sign(key)
				return [][]byte{session.FrameOf(m)}
			}))
		}
	}
	tests := []struct {
		name string
		o    engine.Options
		rule string
		// setup makes the inviter's program cheat.
		setup func(c *session.Config)
	}{
		{"HMG reveal at another point", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 4, CardsSet: true}, "T-5",
			tamper(hmgrules.KindReveal, 1, func(body []byte) []byte {
				var o hmgrules.CardOpening
				json.Unmarshal(body, &o)
				o.Point = otherPoint(o.Point)
				return session.MustEncodeBody(o)
			})},
		{"HMG move off the board", engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 3, CardsSet: true}, "",
			tamper(protocol.KindMove, 2, func([]byte) []byte { return session.MustEncodeBody(protocol.MoveBody{Point: "Z9"}) })},
		// The cheater opens first, so that the honest peer's choice of
		// the turn stays closed.
		{"F-Go opens another choice", engine.Options{Variant: engine.VariantFGo, Size: 5}, "T-5",
			func(c *session.Config) {
				session.SetRewrite(c, func(g *session.Game, kind protocol.Kind, body any) (protocol.Kind, any, bool) {
					b, ok := body.(fgorules.OpenBody)
					if !ok || kind != fgorules.KindOpen {
						return kind, body, false
					}
					msgs := g.Transcript().Messages
					if last := msgs[len(msgs)-1]; last.From == g.Role() || last.Kind != fgorules.KindCommit {
						return kind, body, false
					}
					b.Opening.Value = []byte(otherPoint(string(b.Opening.Value)))
					return kind, b, true
				})
			}},
		{"gomoku false win claim", engine.Options{Variant: engine.VariantGomoku, Size: 7}, "GM-6",
			tamper(gomokurules.KindDeclare, 4, func(body []byte) []byte {
				var b gomokurules.DeclareBody
				json.Unmarshal(body, &b)
				b.Claim = true
				b.Lines = []gomokurules.FiveBody{{Start: "A1", Dir: "horizontal"}, {Start: "A3", Dir: "vertical"}}
				return session.MustEncodeBody(b)
			})},
		{"gomoku malformed announcement", engine.Options{Variant: engine.VariantGomoku, Size: 7}, "",
			tamper(gomokurules.KindAnnounce, 3, func([]byte) []byte { return []byte(`{"line":"row","index":99}`) })},
		// An attachment that does not match the digest its message signs
		// proves nothing: the message is dropped with it, every time the
		// cheater sends it again, so the cheater withholds its garbling
		// and is challenged, then abandoned (T-10, T-11).
		{"Phantom Go attachment off its digest", engine.Options{Variant: engine.VariantPhantom, Size: 5}, "T-11",
			phantomRewrite(2, func(body any) any { return session.PhantomCorruptAttachment(body, 0) },
				phantomrules.KindGarbling)},
		// MPC-D28: the next try's reverse request, the fourth attachment.
		{"Phantom Go reverse attachment off its digest", correlatedOptions(engine.RulesCommon), "T-11",
			phantomRewrite(2, func(body any) any { return session.PhantomCorruptAttachment(body, 3) },
				phantomrules.KindGarbling)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs [2]*lockedBuffer
			var dirs [2]string
			cfgs := []func(i int, c *session.Config){debugLogs(&logs), func(i int, c *session.Config) { dirs[i] = c.Dir }}
			if tt.rule == "T-11" {
				cfgs = append(cfgs, withheldBy(protocol.Inviter))
			}
			h := playCheatingGameWith(t, tt.o, tt.setup, quickBot(4, 30), quickBot(3, 30), cfgs...)
			out := h.Outcome()
			if out == nil || out.Violation == nil || out.Violation.Accused != protocol.Inviter || tt.rule != "" && out.Violation.Rule != tt.rule {
				t.Fatalf("outcome %+v, want a violation (%s) of the inviter", out, tt.rule)
			}
			s := takeSnapshot(dirs, logs)
			told := "peer violated the rules"
			if out.Abandoned {
				told = "input of the other peer dropped"
			}
			if !strings.Contains(s.logs[1], told) {
				t.Errorf("the honest peer's log does not tell of the violation (%q), so its check is empty:\n%s", told, s.logs[1])
			}
			checked, leaks := findValueLeaks(s)
			for _, l := range leaks {
				t.Error(l)
			}
			// The detail as the honest peer's user sees it, too.
			_, vals, err := leakcheck.Values(s.secrets[1])
			if err != nil {
				t.Fatal(err)
			}
			msgs, _ := leakcheck.Messages(s.records[1])
			unopened := 0
			for _, v := range vals {
				if v.OpensAt(msgs) < len(msgs) {
					continue
				}
				unopened++
				if v.In(out.Violation.Detail) || v.In(out.Violation.Error()) {
					t.Errorf("the violation %q names %s, hidden by its accuser", out.Violation, v.Text)
				}
			}
			t.Logf("violation %q; %d checks; the honest peer keeps %d values unopened", out.Violation, checked, unopened)
			if unopened == 0 {
				t.Error("the honest peer has no unopened value: the check checked nothing")
			}
		})
	}
}
