package tournament_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/tournament"
)

// player is one participant's node on loopback: its key, host and game
// service. check, when set, is what its service asks of every invitation
// (an honest participant's program: TRN-D6).
type player struct {
	key  crypto.PrivKey
	id   peer.ID
	host host.Host
	svc  *session.Service
	mu   sync.Mutex
	// check decides on an incoming invitation; nil accepts all (a
	// modified program).
	check func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error
}

// newPlayer starts a participant's node with a fresh key.
func newPlayer(t *testing.T) *player {
	t.Helper()
	key, _, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return newPlayerWithKey(t, key)
}

// newPlayerWithKey starts a participant's node with key.
func newPlayerWithKey(t *testing.T, key crypto.PrivKey) *player {
	t.Helper()
	var err error
	p := &player{key: key}
	p.id, _ = peer.IDFromPrivateKey(key)
	p.host, err = libp2p.New(libp2p.Identity(key), libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.DisableRelay())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.host.Close() })
	p.svc, err = session.NewService(session.Config{Host: p.host, Dir: t.TempDir(), IdleTimeout: 10 * time.Second, AutoGrace: 5 * time.Second,
		OnTournamentInvite: func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error {
			p.mu.Lock()
			check := p.check
			p.mu.Unlock()
			if check == nil {
				return nil
			}
			return check(from, ref, o)
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.svc.Close)
	return p
}

// setCheck sets what p's service asks of every invitation.
func (p *player) setCheck(check func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error) {
	p.mu.Lock()
	p.check = check
	p.mu.Unlock()
}

// field is the players of a test, the organizer's key, and the records
// each game left on each side: by black's copy and by white's.
type field struct {
	players map[string]*player
	order   []*player
	org     crypto.PrivKey
}

func newField(t *testing.T, n int) *field {
	t.Helper()
	f := &field{players: map[string]*player{}}
	f.org, _, _ = crypto.GenerateEd25519Key(rand.Reader)
	for range n {
		p := newPlayer(t)
		f.players[p.id.String()] = p
		f.order = append(f.order, p)
	}
	ctx := testenv.Context(t, 30*time.Second)
	for i, a := range f.order {
		for _, b := range f.order[i+1:] {
			if err := a.host.Connect(ctx, peer.AddrInfo{ID: b.id, Addrs: b.host.Addrs()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

// announce has every player enter the call and the organizer announce
// the tournament.
func (f *field) announce(t *testing.T, call, system string, rounds int) *tournament.Tournament {
	t.Helper()
	var entries []tournament.SignedEntry
	for i, p := range f.order {
		e, err := tournament.SignEntry(p.key, call, fmt.Sprintf("bot %c", 'a'+i))
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	sa, err := tournament.Announce(f.org, tournament.Announcement{Call: call, Name: "loopback " + call, System: system, Rounds: rounds,
		Options: protocol.OptionsBody{Variant: "go", Size: 5, Komi: 7.5}, Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	data, err := sa.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	tt, err := tournament.ParseAnnouncement(data)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// records is one record file a game, by name.
type records map[string][]byte

func (r records) files() []tournament.RecordFile {
	var fs []tournament.RecordFile
	for name, data := range r {
		fs = append(fs, tournament.RecordFile{Name: name, Data: data})
	}
	return fs
}

func (r records) clone() records {
	c := records{}
	for k, v := range r {
		c[k] = v
	}
	return c
}

// play plays one game between black and white over loopback, with ref
// in the invitation, the built-in bots on both sides; it returns each
// side's record (black's, white's).
func play(t *testing.T, ctx context.Context, black, white *player, o engine.Options, ref *protocol.TournamentRef, seed uint64) (blackRecord, whiteRecord []byte, err error) {
	o.InviterColor = engine.Black
	level := bot.Level{Playouts: 40}
	type side struct {
		rec []byte
		err error
	}
	done := make(chan side, 1)
	go func() {
		select {
		case g := <-white.svc.Accepted():
			_, err := bot.Run(ctx, g, bot.New(level, seed+1))
			rec, _ := g.Transcript().MarshalJSON()
			done <- side{rec, err}
		case <-ctx.Done():
			done <- side{nil, ctx.Err()}
		}
	}()
	g, err := black.svc.InviteTournament(ctx, white.id, o, ref)
	if err != nil {
		return nil, nil, err
	}
	if _, err := bot.Run(ctx, g, bot.New(level, seed)); err != nil {
		return nil, nil, err
	}
	rec, _ := g.Transcript().MarshalJSON()
	w := <-done
	if w.err != nil {
		return nil, nil, w.err
	}
	return rec, w.rec, nil
}

// playTournament plays every round in order, the boards of a round at
// once, each participant's program checking its invitation against its
// own computed pairing; the pairings of each round come from the
// records of the rounds before it (black's copies). It returns black's
// copies and white's.
func (f *field) playTournament(t *testing.T, tt *tournament.Tournament) (byBlack, byWhite records) {
	t.Helper()
	byBlack, byWhite = records{}, records{}
	ctx := testenv.Context(t, 120*time.Second)
	o := tt.GameOptions
	for r := 1; r <= tt.Body.Rounds; r++ {
		st := tournament.Compute(tt, byBlack.files())
		round := st.Rounds[r-1].Round
		for _, p := range f.players {
			me := p.id.String()
			p.setCheck(func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error {
				return tt.CheckInvitation(round, me, from.String(), ref, o)
			})
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, g := range round.Games {
			black, white := f.players[tt.Participants[g.Black].Peer], f.players[tt.Participants[g.White].Peer]
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, w, err := play(t, ctx, black, white, o, tt.Ref(round, g), uint64(100*r+g.Board))
				if err != nil {
					t.Errorf("round %d board %d: %v", r, g.Board, err)
					return
				}
				mu.Lock()
				name := fmt.Sprintf("r%d-b%d.record.json", r, g.Board)
				byBlack["black/"+name], byWhite["white/"+name] = b, w
				mu.Unlock()
			}()
		}
		wg.Wait()
		if t.Failed() {
			t.FailNow()
		}
	}
	return byBlack, byWhite
}

// checkSame computes the standings from each set of records and checks
// that the text and the CSV are the same bytes for every set, whatever
// the order the files come in; it returns the standings of the first.
func checkSame(t *testing.T, tt *tournament.Tournament, sets ...records) *tournament.Standings {
	t.Helper()
	first := tournament.Compute(tt, sets[0].files())
	for i, set := range sets {
		files := set.files()
		for k := range 3 {
			// Another order each time (maps iterate at random; and reversed).
			if k == 2 {
				for a, b := 0, len(files)-1; a < b; a, b = a+1, b-1 {
					files[a], files[b] = files[b], files[a]
				}
			}
			st := tournament.Compute(tt, files)
			if !bytes.Equal(st.Text(), first.Text()) || !bytes.Equal(st.CSV(), first.CSV()) {
				t.Fatalf("set %d gives other standings:\n%s\nthan set 0:\n%s", i, st.Text(), first.Text())
			}
		}
	}
	return first
}

// renamed is the records with the directory prefix dropped, so that two
// players' copies have the same names.
func renamed(r records) records {
	c := records{}
	for k, v := range r {
		_, base, _ := strings.Cut(k, "/")
		c[base] = v
	}
	return c
}

// TestTRNRoundRobinOverLoopback: four participants' nodes play a round
// robin (Berger tables) of plain Go 5×5 with the built-in bots over
// loopback, each declining any invitation but its computed pairing; the
// standings recomputed from black's copies of the records and from
// white's copies are the same bytes, every game counted; then each
// cheat is named and never counted: the organizer cannot invent a
// participant, a pairing or a result (TRN-D17; TRN-D2, TRN-D6,
// TRN-D13..TRN-D15).
func TestTRNRoundRobinOverLoopback(t *testing.T) {
	f := newField(t, 4)
	tt := f.announce(t, "rr4", tournament.SystemRoundRobin, 3)
	byBlack, byWhite := f.playTournament(t, tt)
	st := checkSame(t, tt, renamed(byBlack), renamed(byWhite))
	t.Logf("standings:\n%s", st.Text())
	if len(st.NotCounted) != 0 {
		t.Fatalf("honest games not counted: %q", st.NotCounted)
	}
	total, games := 0, 0
	for _, r := range st.Table {
		total += r.Points
		games += r.Games
	}
	if len(st.Table) != 4 || games != 12 || total != 6*4 {
		t.Fatalf("table of %d rows, %d games, %d quarter points; want 4, 12 (6 games, both sides) and 24", len(st.Table), games, total)
	}
	honest := renamed(byBlack)
	o := tt.GameOptions

	// An honest program declines an invitation that is not its pairing.
	round1 := st.Rounds[0].Round
	g := round1.Games[0]
	black := f.players[tt.Participants[g.Black].Peer]
	other := round1.Games[1]
	stranger := f.players[tt.Participants[other.White].Peer]
	for _, p := range f.players {
		me := p.id.String()
		p.setCheck(func(from peer.ID, ref *protocol.TournamentRef, o engine.Options) error {
			return tt.CheckInvitation(round1, me, from.String(), ref, o)
		})
	}
	ctx := testenv.Context(t, 60*time.Second)
	oo := o
	oo.InviterColor = engine.Black
	if _, err := black.svc.InviteTournament(ctx, stranger.id, oo, tt.Ref(round1, g)); err == nil || !strings.Contains(err.Error(), "TRN-D6") {
		t.Fatalf("an invitation to a player of another board: %v; want it declined (TRN-D6)", err)
	}
	for _, p := range f.players {
		p.setCheck(nil) // the cheats below run modified programs
	}

	t.Run("organizer alters a result", func(t *testing.T) {
		set := honest.clone()
		name := "r1-b1.record.json"
		data := set[name]
		altered := bytes.ReplaceAll(data, []byte(`"result":"B+`), []byte(`"result":"X+`))
		altered = bytes.ReplaceAll(altered, []byte(`"result":"W+`), []byte(`"result":"B+`))
		altered = bytes.ReplaceAll(altered, []byte(`"result":"X+`), []byte(`"result":"W+`))
		if bytes.Equal(altered, data) {
			t.Fatal("no result to alter")
		}
		set[name] = altered
		expectNamed(t, tt, set, 1, 1, "file r1-b1.record.json: record rejected", "no record: never played")
	})
	t.Run("organizer swaps a pairing", func(t *testing.T) {
		// Round 1 board 1 played by its black and a player of board 2:
		// both run modified programs that accept it.
		set := honest.clone()
		b, _, err := play(t, ctx, black, stranger, o, tt.Ref(round1, g), 7)
		if err != nil {
			t.Fatal(err)
		}
		set["r1-b1.record.json"] = b
		expectNamed(t, tt, set, 1, 1, "not the computed pairing (TRN-D6)")
	})
	t.Run("organizer adds a participant without a signed entry", func(t *testing.T) {
		var entries []tournament.SignedEntry
		entries = append(entries, tt.Body.Entries...)
		// An entry the organizer writes for a fifth peer and signs
		// itself: its signature is not the peer's.
		fifth, _, _ := crypto.GenerateEd25519Key(rand.Reader)
		forged, err := tournament.SignEntry(fifth, tt.Body.Call, "puppet")
		if err != nil {
			t.Fatal(err)
		}
		forged.Signature, _ = f.org.Sign(append([]byte("x"), forged.Entry...))
		entries = append(entries, forged)
		a := tt.Body
		a.Rounds, a.Entries = 5, entries
		sa, err := tournament.Announce(f.org, a)
		if err == nil || !strings.Contains(err.Error(), "without a valid signed entry") {
			t.Fatalf("Announce with a forged entry: %v", err)
		}
		forgedT, err := sa.Open()
		if err != nil {
			t.Fatal(err)
		}
		if forgedT.Complete() == nil {
			t.Fatal("Complete passes an announcement with a forged entry: the participants' programs would play it")
		}
		// The puppet plays its round-1 game of the forged tournament
		// (its node has the fifth key; both programs modified).
		puppet := newPlayerWithKey(t, fifth)
		set := honest.clone()
		// Its first round with a game (a round robin of five has a bye
		// a round).
		var fr1 tournament.Round
		var pg tournament.Pairing
		for _, rr := range tournament.Compute(forgedT, nil).Rounds {
			if g, ok := forgedT.Board(rr.Round, puppet.id.String()); ok {
				fr1, pg = rr.Round, g
				break
			}
		}
		blackP, whiteP := puppet, puppet
		if forgedT.Participants[pg.Black].Peer == puppet.id.String() {
			whiteP = f.players[forgedT.Participants[pg.White].Peer]
		} else {
			blackP = f.players[forgedT.Participants[pg.Black].Peer]
		}
		opponent := blackP
		if opponent == puppet {
			opponent = whiteP
		}
		if err := puppet.host.Connect(ctx, peer.AddrInfo{ID: opponent.id, Addrs: opponent.host.Addrs()}); err != nil {
			t.Fatal(err)
		}
		rec, _, err := play(t, ctx, blackP, whiteP, o, forgedT.Ref(fr1, pg), 15)
		if err != nil {
			t.Fatal(err)
		}
		set["puppet.record.json"] = rec
		st := tournament.Compute(forgedT, set.files())
		if !strings.Contains(string(st.Text()), "no valid signed entry, none of its games counts") {
			t.Errorf("the participant without a signed entry is not named:\n%s", st.Text())
		}
		for _, r := range st.Table {
			if r.Name == "puppet" {
				t.Errorf("the participant without a signed entry is in the table:\n%s", st.Text())
			}
		}
		for _, rr := range st.Rounds {
			for _, b := range rr.Boards {
				if b.Counted && (forgedT.Participants[b.Black].Name == "puppet" || forgedT.Participants[b.White].Name == "puppet") {
					t.Errorf("a game of the participant without a signed entry counts")
				}
			}
		}
	})
	t.Run("a game with other options than the announced", func(t *testing.T) {
		set := honest.clone()
		other := o
		other.Komi = 0.5
		b, _, err := play(t, ctx, black, f.players[tt.Participants[g.White].Peer], other, tt.Ref(round1, g), 11)
		if err != nil {
			t.Fatal(err)
		}
		set["r1-b1.record.json"] = b
		expectNamed(t, tt, set, 1, 1, "other options than the announced ones (TRN-D6)")
	})
	t.Run("two games with a result for one board", func(t *testing.T) {
		set := honest.clone()
		b, _, err := play(t, ctx, black, f.players[tt.Participants[g.White].Peer], o, tt.Ref(round1, g), 13)
		if err != nil {
			t.Fatal(err)
		}
		set["again-r1-b1.record.json"] = b
		expectNamed(t, tt, set, 1, 1, "2 games with a result for one board, not counted (TRN-D14)")
	})
	t.Run("organizer drops a record", func(t *testing.T) {
		set := honest.clone()
		delete(set, "r2-b2.record.json")
		expectNamed(t, tt, set, 2, 2, "no record: never played (TRN-D13)")
	})
	t.Run("player submits a record of another tournament", func(t *testing.T) {
		other := f.announce(t, "another call", tournament.SystemRoundRobin, 3)
		set := honest.clone()
		delete(set, "r3-b1.record.json")
		round3 := st.Rounds[2].Round
		g3 := round3.Games[0]
		ref := &protocol.TournamentRef{ID: other.ID, Round: 3, Board: 1}
		b, _, err := play(t, ctx, f.players[tt.Participants[g3.Black].Peer], f.players[tt.Participants[g3.White].Peer], o, ref, 9)
		if err != nil {
			t.Fatal(err)
		}
		set["r3-b1.record.json"] = b
		expectNamed(t, tt, set, 3, 1, "is a game of another tournament", "no record: never played")
	})
	t.Run("player submits an edited record re-signed by one player", func(t *testing.T) {
		name := "r2-b1.record.json"
		edited := editRecord(t, honest[name], f)
		set := honest.clone()
		set["edited-"+name] = edited
		// With the other player's record beside it, the honest copy counts.
		st := tournament.Compute(tt, set.files())
		if !strings.Contains(string(st.Text()), "file edited-r2-b1.record.json: record rejected") || !st.Rounds[1].Boards[0].Counted {
			t.Errorf("edited record beside the honest one:\n%s", st.Text())
		}
		delete(set, name)
		expectNamed(t, tt, set, 2, 1, "file edited-r2-b1.record.json: record rejected", "no record: never played")
	})
}

// expectNamed computes the standings of set and checks that round r's
// board b does not count and that each of the lines wanted appears in
// what is named; every other board counts.
func expectNamed(t *testing.T, tt *tournament.Tournament, set records, r, b int, wanted ...string) {
	t.Helper()
	st := tournament.Compute(tt, set.files())
	text := string(st.Text())
	for _, rr := range st.Rounds {
		for _, bd := range rr.Boards {
			if bd.Counted == (rr.Number == r && bd.Board == b) {
				t.Errorf("round %d board %d counted: %v\n%s", rr.Number, bd.Board, bd.Counted, text)
			}
		}
	}
	named := strings.Join(st.NotCounted, "\n")
	for _, w := range wanted {
		if !strings.Contains(named, w) {
			t.Errorf("not named: %q\n%s", w, text)
		}
	}
}

// editRecord changes the first move of the record's black player to
// another point and signs it, and every later message of black with its
// chain mended, with black's key: white's signatures cannot follow.
func editRecord(t *testing.T, data []byte, f *field) []byte {
	t.Helper()
	tr, err := protocol.ParseTranscript(data)
	if err != nil {
		t.Fatal(err)
	}
	blackKey := f.players[tr.Peers[protocol.Inviter].String()].key
	msgs := append([]protocol.Message(nil), tr.Messages...)
	edited := false
	var prev protocol.Hash
	var havePrev bool
	for i := range msgs {
		m := &msgs[i]
		if m.From != protocol.Inviter {
			continue
		}
		if !edited && m.Kind == "move" {
			var body map[string]any
			if err := json.Unmarshal(m.Body, &body); err != nil {
				t.Fatal(err)
			}
			body["point"] = "A1"
			nb, _ := json.Marshal(body)
			if bytes.Equal(nb, m.Body) {
				continue
			}
			m.Body, edited = nb, true
		}
		if havePrev {
			m.Prev = prev
		}
		if edited {
			if err := m.Sign(blackKey); err != nil {
				t.Fatal(err)
			}
		}
		prev, havePrev = m.Hash(), true
	}
	if !edited {
		t.Fatalf("no move of black to edit in %s", data)
	}
	out, err := json.Marshal(struct {
		Format   string             `json:"format"`
		Game     protocol.GameID    `json:"game"`
		Peers    [2]string          `json:"peers"`
		Messages []protocol.Message `json:"messages"`
	}{protocol.RecordFormat, tr.Game, [2]string{tr.Peers[0].String(), tr.Peers[1].String()}, msgs})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTRNSwissOverLoopback: six participants' nodes play three rounds of
// the Swiss system (TRN-D5) with the built-in bots over loopback, each
// round paired from the records of the rounds before it; the standings
// from black's copies and from white's are the same bytes, every game
// counted, no pair meeting twice.
func TestTRNSwissOverLoopback(t *testing.T) {
	f := newField(t, 6)
	tt := f.announce(t, "swiss6", tournament.SystemSwiss, 3)
	byBlack, byWhite := f.playTournament(t, tt)
	st := checkSame(t, tt, renamed(byBlack), renamed(byWhite))
	t.Logf("standings:\n%s", st.Text())
	if len(st.NotCounted) != 0 {
		t.Fatalf("honest games not counted: %q", st.NotCounted)
	}
	met := map[[2]int]bool{}
	games := 0
	for _, rr := range st.Rounds {
		for _, b := range rr.Boards {
			k := [2]int{min(b.Black, b.White), max(b.Black, b.White)}
			if met[k] {
				t.Errorf("round %d: %v meet again", rr.Number, k)
			}
			met[k] = true
			games++
		}
	}
	if games != 9 || len(st.Table) != 6 {
		t.Fatalf("%d games, %d rows; want 9 and 6", games, len(st.Table))
	}
}
