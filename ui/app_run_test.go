package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/protocol"
	"github.com/libp2p/go-libp2p/core/peer"
)

// liveRecord is a recorded game played out on a channel of events, as a
// running game delivers them: it stands in for the network in the
// application's tests.
type liveRecord struct {
	mu     sync.Mutex
	g      *recordGame
	events chan protocol.Event
	// moves is released once per Do: each action lets the record go on
	// to the next move of this role.
	did chan protocol.Action
}

func newLiveRecord(t *testing.T, name string, r protocol.Role) *liveRecord {
	return &liveRecord{g: loadRecordGame(t, name, r), events: make(chan protocol.Event), did: make(chan protocol.Action, 64)}
}

func (l *liveRecord) ID() protocol.GameID { return l.g.ID() }
func (l *liveRecord) Peer() peer.ID       { return l.g.Peer() }
func (l *liveRecord) View() protocol.View {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.View()
}
func (l *liveRecord) Do(a protocol.Action) error    { l.did <- a; return nil }
func (l *liveRecord) Events() <-chan protocol.Event { return l.events }
func (l *liveRecord) Transcript() *protocol.Transcript {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.g.Transcript()
}
func (l *liveRecord) Close() {}

// play delivers the whole record, then closes the events.
func (l *liveRecord) play() {
	for {
		l.mu.Lock()
		if l.g.at >= len(l.g.steps) {
			l.mu.Unlock()
			close(l.events)
			return
		}
		st := l.g.steps[l.g.at]
		l.g.at++
		l.mu.Unlock()
		for _, e := range st.events {
			l.events <- e
		}
	}
}

// fakeNetwork is the network of the application's tests.
type fakeNetwork struct {
	game        *liveRecord
	bot         chan engine.Options
	invitations chan *Invitation
	accepted    chan GameConn
}

func (n *fakeNetwork) ID() string      { return "12D3KooWAppTestxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }
func (n *fakeNetwork) Addrs() []string { return []string{"/ip4/127.0.0.1/tcp/1/p2p/" + n.ID()} }
func (n *fakeNetwork) Invite(ctx context.Context, to string, o engine.Options) (GameConn, error) {
	return n.game, nil
}
func (n *fakeNetwork) PlayBot(ctx context.Context, o engine.Options) (GameConn, error) {
	n.bot <- o
	return n.game, nil
}
func (n *fakeNetwork) Invitations() <-chan *Invitation        { return n.invitations }
func (n *fakeNetwork) Accepted() <-chan GameConn              { return n.accepted }
func (n *fakeNetwork) LANPeers() <-chan LANPeer               { return nil }
func (n *fakeNetwork) WriteAddrs() (string, error)            { return "", nil }
func (n *fakeNetwork) Unfinished() []SavedGame                { return nil }
func (n *fakeNetwork) Finished() []SavedGame                  { return nil }
func (n *fakeNetwork) Open(protocol.GameID) (GameConn, error) { return n.game, nil }
func (n *fakeNetwork) Resume(ctx context.Context, id protocol.GameID) (GameConn, error) {
	return n.game, nil
}

// waitScreen waits until the simulated screen of app shows want. It
// reads the screen on the application's goroutine, which draws it.
func waitScreen(t *testing.T, app *App, s tcell.SimulationScreen, want string) string {
	t.Helper()
	deadline := testenv.Deadline(10 * time.Second)
	for {
		var cells []tcell.SimCell
		var w, h int
		read := make(chan struct{})
		app.tv.QueueUpdate(func() {
			cells, w, h = s.GetContents()
			cells = append([]tcell.SimCell(nil), cells...)
			close(read)
		})
		<-read
		var sb strings.Builder
		for y := range h {
			for x := range w {
				c := cells[y*w+x]
				if len(c.Runes) == 0 {
					sb.WriteByte(' ')
				} else {
					sb.WriteString(string(c.Runes))
				}
			}
			sb.WriteByte('\n')
		}
		if strings.Contains(sb.String(), want) {
			return sb.String()
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q:\n%s", want, sb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestUIAppFirstGame runs the application on a simulated terminal with a
// first game against the bot: the game opens at once, the game's events
// reach the screen through the application's loop, keys become actions,
// and q after the game goes back to the lobby.
func TestUIAppFirstGame(t *testing.T) {
	game := newLiveRecord(t, "go", protocol.Inviter)
	net := &fakeNetwork{game: game, bot: make(chan engine.Options, 1), invitations: make(chan *Invitation), accepted: make(chan GameConn)}
	s := tcell.NewSimulationScreen("UTF-8")
	s.SetSize(80, 24)
	first := options(t, engine.VariantGo, 5)
	app := NewApp(AppConfig{Network: net, FirstGame: &first, Defaults: first, SaveDir: t.TempDir(), Screen: s})
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	defer func() {
		app.Stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	if o := <-net.bot; o.Variant != engine.VariantGo || o.Size != 5 {
		t.Errorf("the bot was asked for %+v", o)
	}
	waitScreen(t, app, s, "Go 5×5, komi 7.5")
	go game.play()
	waitScreen(t, app, s, "Result:")

	// Before the game the screen waited; now it replays: a key of the
	// replay (once the replay is built: a key before goes nowhere), then
	// q back to the lobby.
	waitScreen(t, app, s, "(the full view)")
	s.InjectKey(tcell.KeyHome, 0, tcell.ModNone)
	waitScreen(t, app, s, "Replay 0/")
	s.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	waitScreen(t, app, s, "kakure — lobby")
}
