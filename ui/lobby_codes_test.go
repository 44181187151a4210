package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node/rendezvous"
	"github.com/kakure/kakure/protocol"
)

// TestUILobbyJoinCodeTyped checks the join dialog (^E) on its own: a
// code that is not one shows an error and stays typed, nothing is asked
// of the network; once corrected, the code goes out in its canonical
// form whatever its case, spaces and hyphens, with the form's options.
func TestUILobbyJoinCodeTyped(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	var joined []string
	var opts engine.Options
	l.OnJoinCode = func(code string, o engine.Options) { joined, opts = append(joined, code), o }
	l.HandleKey(keyEvent('\x05'), setFocus) // ^E
	if text := drawScreen(t, l, 80, 24); !strings.Contains(text, "Join with a code") || !strings.Contains(text, "Go 9×9") {
		t.Fatalf("^E opened no join dialog showing the form's game:\n%s", text)
	}
	for _, tc := range []struct{ typed, want string }{
		{"", "Type the code first"},
		{"maple otter", "it has 2 words, a code has 3"},
		{" qux", `"qux" is not a word of invite codes`},
	} {
		lobbyKeys(l, setFocus, tc.typed+"\n")
		text := drawScreen(t, l, 80, 24)
		if !loosely(text, "That is not an invite code") && tc.typed != "" || !loosely(text, tc.want) {
			t.Errorf("after %q: no error %q:\n%s", tc.typed, tc.want, text)
		}
		if len(joined) > 0 {
			t.Fatalf("joined %v with a bad code", joined)
		}
	}
	if got := l.codeField.GetText(); got != "maple otter qux" {
		t.Errorf("the field holds %q after the errors, want all that was typed", got)
	}
	// Correct it: Backspace, then the word cut short, in capitals.
	lobbyKeys(l, setFocus, "\b\b\bQUA")
	if text := drawScreen(t, l, 80, 24); loosely(text, "Error:") {
		t.Errorf("the error stays after the code was edited:\n%s", text)
	}
	lobbyKeys(l, setFocus, "\n")
	if len(joined) != 1 || joined[0] != "maple-otter-quail" || opts.Variant != engine.VariantGo || opts.Size != 9 {
		t.Errorf("joined %v with %+v", joined, opts)
	}
	// Esc closes the dialog (no owner: the lobby closes it itself); the
	// code stays for the next time.
	lobbyKeys(l, setFocus, "\x1b")
	if l.Model().Code.Joining || l.dialog != nil {
		t.Errorf("Esc left the dialog open")
	}
	l.HandleKey(keyEvent('\x05'), setFocus)
	if got := l.codeField.GetText(); got != "maple otter QUA" {
		t.Errorf("reopened, the field holds %q", got)
	}
}

// codeNetwork is a network with invite codes and connections for the
// application's tests. Its host and join functions stand in for the
// relays.
type codeNetwork struct {
	*fakeNetwork
	host      func(ctx context.Context) (string, error)
	join      func(ctx context.Context, code string) (string, error)
	conn      ConnState
	withdrawn chan string
	invited   chan string
	// status, when set, is where the network stands on the internet.
	status func() string
}

func (n *codeNetwork) NetStatus() string {
	if n.status == nil {
		return ""
	}
	return n.status()
}

func (n *codeNetwork) HostCode(ctx context.Context) (string, func(), error) {
	code, err := n.host(ctx)
	if err != nil {
		return "", nil, err
	}
	return code, func() { n.withdrawn <- code }, nil
}

func (n *codeNetwork) JoinCode(ctx context.Context, code string) (string, error) {
	return n.join(ctx, code)
}

func (n *codeNetwork) Connection(ctx context.Context, p string) (ConnState, bool) {
	return n.conn, true
}

func (n *codeNetwork) Invite(ctx context.Context, to string, o engine.Options) (GameConn, error) {
	n.invited <- to
	return n.game, nil
}

// blockUntilDone waits for ctx to end and returns its error.
func blockUntilDone(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

// runCodeApp runs the application on a simulated 80×24 screen with net.
func runCodeApp(t *testing.T, net *codeNetwork) (*App, tcell.SimulationScreen) {
	t.Helper()
	game := newLiveRecord(t, "go", protocol.Inviter)
	net.fakeNetwork = &fakeNetwork{game: game, bot: make(chan engine.Options, 1), invitations: make(chan *Invitation, 1),
		accepted: make(chan GameConn)}
	net.withdrawn, net.invited = make(chan string, 4), make(chan string, 4)
	s := tcell.NewSimulationScreen("UTF-8")
	s.SetSize(80, 24)
	app := NewApp(AppConfig{Network: net, Defaults: options(t, engine.VariantGo, 5), SaveDir: t.TempDir(), Screen: s})
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	t.Cleanup(func() {
		app.Stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	waitScreen(t, app, s, "kakure — lobby")
	return app, s
}

// typeText types text into the simulated screen.
func typeText(s tcell.SimulationScreen, text string) {
	for _, r := range text {
		s.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
}

// TestUILobbyHostCode hosts a code (^O): the dialog shows the code big
// and this peer's ID; Esc withdraws it. Esc while the relays are still
// registering it stops that; no relay configured is an error in the
// dialog; a game that starts withdraws the code.
func TestUILobbyHostCode(t *testing.T) {
	net := &codeNetwork{}
	registering := make(chan struct{}, 1)
	var mode string
	net.host = func(ctx context.Context) (string, error) {
		switch mode {
		case "slow":
			registering <- struct{}{}
			return "", blockUntilDone(ctx)
		case "no relay":
			return "", errors.New("no relay configured: invite codes need a kakure relay; start kakure play with --relay MULTIADDR")
		}
		return "maple-otter-quail", nil
	}
	app, s := runCodeApp(t, net)
	id := net.ID()

	s.InjectKey(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	text := waitScreen(t, app, s, "M A P L E   ·   O T T E R   ·   Q U A I L")
	for _, want := range []string{"maple-otter-quail", id, "Esc withdraws the code"} {
		if !strings.Contains(text, want) {
			t.Errorf("the host dialog lacks %q:\n%s", want, text)
		}
	}
	s.InjectKey(tcell.KeyEsc, 0, tcell.ModNone)
	select {
	case code := <-net.withdrawn:
		if code != "maple-otter-quail" {
			t.Errorf("withdrew %q", code)
		}
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatal("Esc did not withdraw the code")
	}
	waitScreen(t, app, s, "The code maple-otter-quail was withdrawn.")

	mode = "slow"
	s.InjectKey(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	<-registering
	waitScreen(t, app, s, "Registering a code (on the relays, or the DHT)")
	s.InjectKey(tcell.KeyEsc, 0, tcell.ModNone)
	waitGone(t, app, s, "Registering")

	mode = "no relay"
	s.InjectKey(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	waitScreen(t, app, s, "No code: No relay configured")
	s.InjectKey(tcell.KeyEsc, 0, tcell.ModNone)
	waitGone(t, app, s, "No code:")

	// Hosting again: the guest's invitation comes over the code's dialog,
	// with its peer ID and the connection; y starts the game, which
	// withdraws the code.
	mode = ""
	net.conn = ConnState{Kind: "hole-punched", RTT: 23400 * time.Microsecond}
	s.InjectKey(tcell.KeyCtrlO, 0, tcell.ModCtrl)
	waitScreen(t, app, s, "Q U A I L")
	guest := "12D3KooWGuestOfTheCodexxxxxxxxxxxxxxxxxxxxxxxxxxxG1"
	net.invitations <- &Invitation{From: guest, Options: options(t, engine.VariantGo, 5), Deadline: time.Now().Add(30 * time.Second),
		Answer: func(err error) {
			if err == nil {
				go func() { net.accepted <- net.game }()
			}
		}}
	text = waitScreen(t, app, s, "Connection: hole-punched, round trip 23.4 ms")
	if !strings.Contains(text, "Peer ID: "+guest) {
		t.Errorf("the invitation does not show the guest's peer ID:\n%s", text)
	}
	s.InjectKey(tcell.KeyRune, 'y', tcell.ModNone)
	select {
	case <-net.withdrawn:
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatal("the game started and the code was not withdrawn")
	}
	waitScreen(t, app, s, "Connection: hole-punched, round trip 23.4 ms")
}

// TestUILobbyJoinCode joins with a code (^E): an unknown code and no
// relay are errors in the dialog, the code still typed; Esc while
// connecting stops; a code found shows the host's peer ID and the
// connection, invites the host and opens the game, whose screen shows
// them too.
func TestUILobbyJoinCode(t *testing.T) {
	net := &codeNetwork{conn: ConnState{Kind: "relayed", RTT: 48 * time.Millisecond}}
	const host = "12D3KooWHostOfTheCodexxxxxxxxxxxxxxxxxxxxxxxxxxxxH1"
	connecting := make(chan struct{}, 1)
	release := make(chan struct{})
	net.join = func(ctx context.Context, code string) (string, error) {
		switch code {
		case "acorn-acorn-acorn":
			return "", fmt.Errorf("node: looking up %s: %w", code, rendezvous.ErrNotFound)
		case "bagel-bagel-bagel":
			return "", errors.New("no relay configured: invite codes need a kakure relay; start kakure play with --relay MULTIADDR")
		case "cabin-cabin-cabin":
			connecting <- struct{}{}
			return "", blockUntilDone(ctx)
		}
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return host, nil
	}
	app, s := runCodeApp(t, net)
	s.InjectKey(tcell.KeyCtrlE, 0, tcell.ModCtrl)
	waitScreen(t, app, s, "Join with a code")

	clear := func() { s.InjectKey(tcell.KeyCtrlU, 0, tcell.ModCtrl) } // tview: delete the line
	typeText(s, "ACORN acorn-acorn")
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	waitScreen(t, app, s, "no one hosts the code acorn-acorn-acorn")
	waitScreen(t, app, s, "Code: ACORN acorn-acorn")

	clear()
	typeText(s, "bag bag bag")
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	waitScreen(t, app, s, "Error: No relay configured")
	waitScreen(t, app, s, "Code: bag bag bag")

	clear()
	typeText(s, "cabin cabin cabin")
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	<-connecting
	waitScreen(t, app, s, "Looking for the host of cabin-cabin-cabin")
	s.InjectKey(tcell.KeyEsc, 0, tcell.ModNone)
	waitScreen(t, app, s, "Error: Stopped.")
	waitScreen(t, app, s, "Code: cabin cabin cabin")

	clear()
	typeText(s, "maple.otter.quail")
	s.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	waitScreen(t, app, s, "Looking for the host of maple-otter-quail")
	close(release)
	select {
	case to := <-net.invited:
		if to != host {
			t.Errorf("invited %q, want the host %q", to, host)
		}
	case <-time.After(testenv.Duration(10 * time.Second)):
		t.Fatal("the host was not invited")
	}
	// The join dialog shows the connection too, before the game screen
	// opens: wait for the game screen first, then its connection line.
	waitScreen(t, app, s, "Opponent's peer ID:")
	waitScreen(t, app, s, "Connection: relayed, round trip 48.0 ms")
}

// loosely reports whether screen shows text, whatever the spaces and line
// breaks between its words.
// The borders of boxes and dialogs do not count.
func loosely(screen, text string) bool {
	screen = strings.NewReplacer("│", " ", "║", " ").Replace(screen)
	return strings.Contains(strings.Join(strings.Fields(screen), " "), strings.Join(strings.Fields(text), " "))
}

// waitGone waits until the simulated screen of app no longer shows text.
func waitGone(t *testing.T, app *App, s tcell.SimulationScreen, text string) string {
	t.Helper()
	deadline := testenv.Deadline(10 * time.Second)
	for {
		screen := waitScreen(t, app, s, "kakure")
		if !strings.Contains(screen, text) {
			return screen
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen still shows %q:\n%s", text, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestUIConnState checks how a connection reads.
func TestUIConnState(t *testing.T) {
	for _, tc := range []struct {
		c    ConnState
		want string
	}{
		{ConnState{}, "not connected"},
		{ConnState{Kind: "none", RTT: time.Second}, "not connected"},
		{ConnState{Kind: "none", Reconnecting: "reconnecting via relay (3rd try)"}, "not connected: reconnecting via relay (3rd try)"},
		{ConnState{Kind: "direct"}, "direct"},
		{ConnState{Kind: "direct", RTT: 312 * time.Microsecond}, "direct, round trip 0.31 ms"},
		{ConnState{Kind: "hole-punched", RTT: 23456 * time.Microsecond}, "hole-punched, round trip 23.5 ms"},
		{ConnState{Kind: "relayed", RTT: 1500 * time.Millisecond}, "relayed, round trip 1.50 s"},
	} {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestUILobbyShowsNetStatus (issue 23): the lobby shows under the peer's
// ID where it stands on the internet, and follows its changes.
func TestUILobbyShowsNetStatus(t *testing.T) {
	var mu sync.Mutex
	status := "DHT: 0 peers; reachability: unknown; relay reservations: 0"
	net := &codeNetwork{status: func() string {
		mu.Lock()
		defer mu.Unlock()
		return status
	}}
	app, s := runCodeApp(t, net)
	waitScreen(t, app, s, "Internet: DHT: 0 peers; reachability: unknown")
	mu.Lock()
	status = "DHT: 12 peers; reachability: private; relay reservations: 2"
	mu.Unlock()
	waitScreen(t, app, s, "Internet: DHT: 12 peers; reachability: private; relay")
}
