package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/engine/gomoku"
	"github.com/kakure/kakure/protocol"
	"github.com/rivo/tview"
)

// focusedLobby returns a lobby with the focus given as tview's application
// gives it, and the function that moves the focus.
func focusedLobby(t *testing.T, defaults engine.Options) (*Lobby, func(tview.Primitive)) {
	t.Helper()
	l := NewLobby("12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx", []string{
		"/ip4/192.0.2.7/tcp/4001/p2p/12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		"/ip4/127.0.0.1/tcp/4001/p2p/12D3KooWLobbyTestPeerIDxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	}, defaults)
	var focused tview.Primitive
	var setFocus func(p tview.Primitive)
	setFocus = func(p tview.Primitive) {
		if focused != nil {
			focused.Blur()
		}
		focused = p
		p.Focus(setFocus)
	}
	setFocus(l)
	return l, setFocus
}

// lobbyKeys sends keys to the lobby as press does.
func lobbyKeys(l *Lobby, setFocus func(tview.Primitive), keys string) {
	for _, r := range keys {
		l.HandleKey(keyEvent(r), setFocus)
	}
}

// TestUILobbyInvite types an address and presses Enter: the lobby asks to
// invite that peer with the form's options. Tab moves to the variant,
// whose first letters choose it.
func TestUILobbyInvite(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	var invited string
	var opts engine.Options
	l.OnInvite = func(p string, o engine.Options) { invited, opts = p, o }
	lobbyKeys(l, setFocus, "\t")
	lobbyKeys(l, setFocus, "hm\n")
	if o, err := l.Options(); err != nil || o.Variant != engine.VariantHMG || o.Cards != 3 || o.Size != 9 {
		t.Fatalf("after choosing hmg: %+v, %v", o, err)
	}
	// Back to the Opponent field (Shift-Tab), type the address, Enter.
	l.HandleKey(tcell.NewEventKey(tcell.KeyBacktab, 0, tcell.ModNone), setFocus)
	addr := "/ip4/127.0.0.1/tcp/4002/p2p/12D3KooWOther"
	lobbyKeys(l, setFocus, addr+"\n")
	if invited != addr || opts.Variant != engine.VariantHMG || opts.Size != 9 {
		t.Errorf("invited %q with %+v", invited, opts)
	}
}

// TestUILobbyOptions checks the options the form gives: the fields of
// other variants are not used, empty fields are the defaults, errors name
// the field.
func TestUILobbyOptions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		defaults engine.Options
		size     string
		komi     string
		want     string
	}{
		{"go defaults", engine.Options{Variant: engine.VariantGo}, "", "", "go 9 7.5  0 "},
		{"fgo komi 0", engine.Options{Variant: engine.VariantFGo}, "13", "", "fgo 13 0  0 nz"},
		{"phantom hamburg", engine.Options{Variant: engine.VariantPhantom, Rules: engine.RulesHamburg}, "", "6.5", "phantom 9 6.5 hamburg 0 "},
		{"hmg", engine.Options{Variant: engine.VariantHMG, Cards: 5}, "9", "", "hmg 9 7.5  5 "},
		{"bad size", engine.Options{Variant: engine.VariantGo}, "25", "", "error: board size 25"},
		{"bad komi", engine.Options{Variant: engine.VariantGo}, "", "x", "error: komi: \"x\" is not a number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, _ := focusedLobby(t, tc.defaults)
			l.size.SetText(tc.size)
			l.komi.SetText(tc.komi)
			o, err := l.Options()
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				got = strings.Join([]string{string(o.Variant), itoa(o.Size), formatPoints(o.Komi), string(o.Rules), itoa(o.Cards), string(o.Suicide)}, " ")
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func itoa(n int) string { return formatPoints(float64(n)) }

// TestUILobbyInvitation checks an incoming invitation: a dialog asks, y
// accepts, n declines, and one left unanswered is declined at its
// deadline.
func TestUILobbyInvitation(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	answers := map[string]error{}
	invite := func(from string, deadline time.Time) {
		l.Invited(&Invitation{From: from, Options: options(t, engine.VariantBridge, 7), Deadline: deadline,
			Answer: func(err error) { answers[from] = err }})
	}
	soon := time.Now().Add(30 * time.Second)
	invite("12D3KooWFirstInviterxxxxxxxxxxxxxxxxxxxxxxxxAAAA", soon)
	invite("12D3KooWSecondInviterxxxxxxxxxxxxxxxxxxxxxxxBBBB", soon)
	invite("12D3KooWThirdInviterxxxxxxxxxxxxxxxxxxxxxxxxCCCC", time.Now().Add(-time.Second))
	text := drawScreen(t, l, 80, 24)
	if !strings.Contains(text, "12D3Ko…AAAA invites you to a game:") || !strings.Contains(text, "Bridge Go 7×7") {
		t.Errorf("no dialog for the first invitation:\n%s", text)
	}
	lobbyKeys(l, setFocus, "y")
	if err, ok := answers["12D3KooWFirstInviterxxxxxxxxxxxxxxxxxxxxxxxxAAAA"]; !ok || err != nil {
		t.Errorf("y answered %v (answered %v)", err, ok)
	}
	if text := drawScreen(t, l, 80, 24); !strings.Contains(text, "12D3Ko…BBBB invites you") {
		t.Errorf("the second invitation is not asked next:\n%s", text)
	}
	lobbyKeys(l, setFocus, "n")
	if err := answers["12D3KooWSecondInviterxxxxxxxxxxxxxxxxxxxxxxxBBBB"]; err == nil {
		t.Error("n accepted the invitation")
	}
	l.Expire(time.Now())
	if err := answers["12D3KooWThirdInviterxxxxxxxxxxxxxxxxxxxxxxxxCCCC"]; err == nil {
		t.Error("an invitation past its deadline was not declined")
	}
	if len(l.Model().Pending) != 0 || l.dialog != nil {
		t.Errorf("invitations left: %d, dialog open: %v", len(l.Model().Pending), l.dialog != nil)
	}
}

// TestUILobbyShowsPeer checks that the lobby shows this peer's ID and
// every address in full, wrapped on a narrow terminal, and writes them to
// a file with ^W.
func TestUILobbyShowsPeer(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	l.OnWriteAddrs = func() (string, error) { return "/home/x/addresses.txt", nil }
	text := drawScreen(t, l, 200, 30)
	for _, a := range l.Model().Addrs {
		if !strings.Contains(text, a) {
			t.Errorf("address %s not shown:\n%s", a, text)
		}
	}
	narrow := strings.ReplaceAll(strings.ReplaceAll(drawScreen(t, l, 80, 24), "\n", ""), " ", "")
	for _, a := range l.Model().Addrs {
		if !strings.Contains(narrow, a) {
			t.Errorf("address %s not shown whole at 80 columns", a)
		}
	}
	lobbyKeys(l, setFocus, "\x17")
	if !strings.Contains(l.Model().Status, "/home/x/addresses.txt") {
		t.Errorf("^W: status %q", l.Model().Status)
	}
	l.OnWriteAddrs = func() (string, error) { return "", errors.New("disk full") }
	lobbyKeys(l, setFocus, "\x17")
	if !strings.Contains(l.Model().Status, "disk full") {
		t.Errorf("^W failing: status %q", l.Model().Status)
	}
	if err := l.Keys().Check(); err != nil {
		t.Error(err)
	}
}

// TestUILobbyResume chooses an unfinished game with ^G and Enter, and a
// finished one, listed after them, to replay it.
func TestUILobbyResume(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
	lobbyKeys(l, setFocus, "\x07")
	if !strings.Contains(l.Model().Status, "no saved game") {
		t.Errorf("^G without games: status %q", l.Model().Status)
	}
	ids := []protocol.GameID{{1}, {2}}
	for _, id := range ids {
		l.Model().Unfinished = append(l.Model().Unfinished, SavedGame{ID: id, Opponent: "12D3KooWx", Options: options(t, engine.VariantGo, 9)})
	}
	l.Render()
	var resumed []protocol.GameID
	l.OnResume = func(id protocol.GameID) { resumed = append(resumed, id) }
	lobbyKeys(l, setFocus, "\x07")
	l.HandleKey(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone), setFocus)
	lobbyKeys(l, setFocus, "\n")
	if len(resumed) != 1 || resumed[0] != ids[1] {
		t.Errorf("resumed %v, want the second game", resumed)
	}
	if !l.opponent.HasFocus() {
		t.Error("the focus did not come back to the form")
	}
	finished := protocol.GameID{3}
	l.Model().Finished = []SavedGame{{ID: finished, Opponent: "12D3KooWy", Options: options(t, engine.VariantGo, 9), Result: "W+7.5"}}
	l.Render()
	if text := drawScreen(t, l, 100, 30); !strings.Contains(text, "result W+7.5") {
		t.Errorf("the finished game's result is not listed:\n%s", text)
	}
	var opened []protocol.GameID
	l.OnOpen = func(id protocol.GameID) { opened = append(opened, id) }
	lobbyKeys(l, setFocus, "\x07")
	l.HandleKey(tcell.NewEventKey(tcell.KeyHome, 0, tcell.ModNone), setFocus)
	for range 2 {
		l.HandleKey(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone), setFocus)
	}
	lobbyKeys(l, setFocus, "\n")
	if len(opened) != 1 || opened[0] != finished || len(resumed) != 1 {
		t.Errorf("opened %v (resumed %v), want the finished game opened", opened, resumed)
	}
}

// TestSavedGamesReadApart: two unfinished games of the same kind against
// the same opponent are listed with how far each went and when it was
// last played, so that the lobby's lines differ (issue 20, bug 8).
func TestSavedGamesReadApart(t *testing.T) {
	o := engine.Options{Variant: engine.VariantPhantom, Size: 9}
	a := SavedGame{Options: o, Bot: true, Messages: 12, Updated: time.Date(2026, 11, 26, 1, 20, 0, 0, time.Local)}
	b := SavedGame{Options: o, Bot: true, Messages: 40, Updated: time.Date(2026, 11, 26, 2, 5, 0, 0, time.Local)}
	if a.Describe(nil) == b.Describe(nil) {
		t.Fatalf("two different games read the same: %q", a.Describe(nil))
	}
	for _, want := range []string{"Phantom Go 9×9", "the bot", "12 messages", "Nov 26 01:20"} {
		if !strings.Contains(a.Describe(nil), want) {
			t.Errorf("%q does not say %q", a.Describe(nil), want)
		}
	}
}

// TestLobbyLongStatusWraps: a long error in the lobby's status line is shown
// whole, wrapped, not cut at the edge of the screen (issue 20, bug 10).
func TestLobbyLongStatusWraps(t *testing.T) {
	l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	end := "give its full address, such as /ip4/192.0.2.7/tcp/4001/p2p/12D3KooW…"
	l.Model().Status = "The invitation failed: no address known for 12D3KooWAbCdEfGhIjKlMnOpQrStUvWxYz: " + end
	l.Render()
	text := drawScreen(t, l, 80, 30)
	// Compared without spaces and line breaks: a long address breaks
	// anywhere.
	if !strings.Contains(strings.Join(strings.Fields(text), ""), strings.Join(strings.Fields(end), "")) {
		t.Errorf("the status is cut:\n%s", text)
	}
}

// TestUID25LobbyReadsOnAnyTerminal: the lobby draws with the terminal's
// own colours (no white, yellow or blue of tview's theme, which do not read
// on a light terminal), and the focused field is marked without colour
// (issue 20: colours on light terminals, the focused field visible).
func TestUID25LobbyReadsOnAnyTerminal(t *testing.T) {
	saved := tview.Styles
	defer func() { tview.Styles = saved }()
	useTerminalColours()
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantGo, Size: 9})
	text := drawScreen(t, l, 100, 30)
	if !strings.Contains(text, focusMark+"Opponent") || strings.Contains(text, focusMark+"Variant") {
		t.Errorf("the focused field (Opponent) is not marked alone:\n%s", text)
	}
	lobbyKeys(l, setFocus, "\t")
	text = drawScreen(t, l, 100, 30)
	if !strings.Contains(text, focusMark+"Variant") || strings.Contains(text, focusMark+"Opponent") {
		t.Errorf("after Tab the mark did not move to Variant:\n%s", text)
	}
	v, _ := simScreens.Load(t)
	cells, w, h := v.(tcell.SimulationScreen).GetContents()
	for i := range w * h {
		fg, bg, _ := cells[i].Style.Decompose()
		if fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("cell (%d, %d) %q is drawn in %v on %v, not the terminal's colours", i%w, i/w, string(cells[i].Runes), fg, bg)
		}
	}
}

// TestGomokuResultNamesXAndO: gomoku's results name its sides X and O, not
// Go's B and W (issue 20, bug 10).
func TestGomokuResultNamesXAndO(t *testing.T) {
	for _, c := range []struct {
		winner engine.Color
		want   string
	}{{gomoku.X, "X wins (X+)"}, {gomoku.O, "O wins (O+)"}} {
		got := DescribeOutcome(protocol.Outcome{Result: engine.Result{Winner: c.winner, By: engine.ByWin}}, engine.Empty, engine.VariantGomoku)
		if !strings.Contains(got, c.want) || strings.Contains(got, "B+") || strings.Contains(got, "W+") {
			t.Errorf("DescribeOutcome = %q, want %q", got, c.want)
		}
	}
	if got := DescribeOutcome(protocol.Outcome{Result: engine.Result{Winner: engine.White, By: engine.ByResignation}}, engine.Empty, engine.VariantGo); !strings.Contains(got, "W+R") {
		t.Errorf("plain Go: %q, want W+R", got)
	}
}

// TestUILobbyInviteLANPeer: ^P then Enter on a peer found on the LAN
// invites it at once with the form's options, by its peer ID (its
// addresses came with it).
func TestUILobbyInviteLANPeer(t *testing.T) {
	l, setFocus := focusedLobby(t, engine.Options{Variant: engine.VariantPhantom, Size: 5})
	var invited string
	var opts engine.Options
	calls := 0
	l.OnInvite = func(p string, o engine.Options) { invited, opts, calls = p, o, calls+1 }
	lobbyKeys(l, setFocus, "\x10")
	if !strings.Contains(l.Model().Status, "no peer found on the LAN") {
		t.Errorf("^P with no peer: status %q", l.Model().Status)
	}
	id := "12D3KooWNeighbourxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQa"
	l.Model().AddLANPeer(LANPeer{ID: "12D3KooWFirstxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQa", Addrs: []string{"/ip4/192.0.2.8/tcp/4001"}})
	l.Model().AddLANPeer(LANPeer{ID: id, Addrs: []string{"/ip4/192.0.2.9/tcp/4001"}})
	l.Render()
	lobbyKeys(l, setFocus, "\x10")
	l.HandleKey(tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone), setFocus)
	l.HandleKey(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone), setFocus)
	if calls != 1 || invited != id || opts.Variant != engine.VariantPhantom || opts.Size != 5 {
		t.Errorf("after ^P, Down, Enter: %d invitations, to %q with %+v; want one to %s, Phantom Go 5×5", calls, invited, opts, id)
	}
}

// TestUILobbyLANPeerStaleAndGone (NET-D25): a LAN peer reported stale is
// listed as not answering until heard of again; one reported gone
// leaves the list; news of a peer not listed adds nothing.
func TestUILobbyLANPeerStaleAndGone(t *testing.T) {
	l := NewLobby("12D3KooWMexxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQa", nil, engine.Options{Variant: engine.VariantGo})
	m := l.Model()
	a := LANPeer{ID: "12D3KooWFirstxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQa", Addrs: []string{"/ip4/192.0.2.8/tcp/4001"}}
	b := LANPeer{ID: "12D3KooWSecondxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxQa", Addrs: []string{"/ip4/192.0.2.9/tcp/4001"}}
	m.AddLANPeer(a)
	m.AddLANPeer(b)
	m.AddLANPeer(LANPeer{ID: a.ID, Addrs: a.Addrs, Stale: true})
	if len(m.LAN) != 2 || !m.LAN[0].Stale || m.LAN[1].Stale {
		t.Fatalf("after a is stale: %+v", m.LAN)
	}
	l.Render()
	if got := l.lan.GetItemCount(); got != 2 {
		t.Fatalf("%d items listed, want 2", got)
	}
	if main, _ := l.lan.GetItemText(0); !strings.Contains(main, "(not answering)") {
		t.Errorf("the stale peer is listed as %q", main)
	}
	m.AddLANPeer(a) // heard of again
	if m.LAN[0].Stale {
		t.Error("still stale after it was heard of again")
	}
	m.AddLANPeer(LANPeer{ID: a.ID, Gone: true})
	if len(m.LAN) != 1 || m.LAN[0].ID != b.ID {
		t.Errorf("after a left: %+v, want b alone", m.LAN)
	}
	m.AddLANPeer(LANPeer{ID: a.ID, Gone: true})
	if len(m.LAN) != 1 {
		t.Errorf("news of a peer not listed changed the list: %+v", m.LAN)
	}
}

// TestSPECD12InvitationShowsTheBroadcastDelay: the dialog of an
// invitation that sets a broadcast delay says so before the player
// accepts; one without a delay says nothing of it (SPEC-D12).
func TestSPECD12InvitationShowsTheBroadcastDelay(t *testing.T) {
	for _, c := range []struct {
		delay protocol.BroadcastDelay
		want  string
	}{
		{protocol.BroadcastDelay{Moves: 20, Seconds: 600}, "Spectators: a broadcast delay of 20 moves and 10m0s"},
		{protocol.BroadcastDelay{}, ""},
	} {
		l, _ := focusedLobby(t, engine.Options{Variant: engine.VariantGo})
		l.Invited(&Invitation{From: "12D3KooWFirstInviterxxxxxxxxxxxxxxxxxxxxxxxxAAAA", Options: options(t, engine.VariantGo, 9),
			Broadcast: c.delay, Deadline: time.Now().Add(30 * time.Second), Answer: func(error) {}})
		text := drawScreen(t, l, 80, 24)
		if c.want != "" && !strings.Contains(text, c.want) {
			t.Errorf("the dialog of an invitation with %s does not say %q:\n%s", c.delay, c.want, text)
		}
		if c.want == "" && strings.Contains(text, "Spectators:") {
			t.Errorf("the dialog of an invitation without a delay speaks of one:\n%s", text)
		}
	}
}
