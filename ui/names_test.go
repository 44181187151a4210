package ui

import (
	"strings"
	"testing"

	"github.com/rivo/tview"
)

// TestPeerLabelUntrustedNames (UI-D30): a name from the other peer never
// reaches the screen as markup or control characters, is cut to
// MaxNameRunes, and always stands beside the short peer ID.
func TestPeerLabelUntrustedNames(t *testing.T) {
	const id = "12D3KooWDzEsNErrGSh6vy98ujs7aRDgnaFAovkLJhfGtKfTn386"
	short := ShortPeer(id)
	for _, tt := range []struct{ name, want string }{
		{"", short},
		{"Alice", "Alice (" + short + ")"},
		{"[red]Alice[-]", "(red)Alice(-) (" + short + ")"},
		{"Al\x1b[31mice\x07", "Al(31mice (" + short + ")"},
		{"Eve\u202egnp.exe", "Evegnp.exe (" + short + ")"},
		{"  two\n\tlines  ", "two lines (" + short + ")"},
		{"\x00\u200b", short},
		{strings.Repeat("é", 30), strings.Repeat("é", MaxNameRunes) + "… (" + short + ")"},
		{ShortPeer("12D3KooWSomeoneElse1234"), ShortPeer("12D3KooWSomeoneElse1234") + " (" + short + ")"},
	} {
		got := Petnames(nil).PeerLabel(tt.name, id)
		if got != tt.want {
			t.Errorf("PeerLabel(%q) = %q, want %q", tt.name, got, tt.want)
		}
		if tview.Escape(got) != got {
			t.Errorf("PeerLabel(%q) = %q holds tview markup", tt.name, got)
		}
		if !strings.HasSuffix(got, short+")") && got != short {
			t.Errorf("PeerLabel(%q) = %q does not end with the peer ID", tt.name, got)
		}
	}
}
