package main

import (
	"path/filepath"
	"testing"
	"time"
)

// permissiveNAT makes nat a home router whose firewall accepts
// unsolicited inbound packets addressed to the router itself (no DROP on
// its INPUT chain from the wan side), as many home routers do. A packet
// of the other peer's hole punch that reaches such a NAT before its own
// player's punch left is accepted there and holds the port's mapping, so
// that the player's punch leaves from another port (NET-D15).
func (l *netnsLab) permissiveNAT(nat string) {
	l.in(nat, "iptables", "-D", "INPUT", "-i", "wan", "-j", "DROP")
}

// TestInternetPlayPermissiveNAT plays TestInternetPlay's game with the
// host's NAT, the guest's or both permissive (permissiveNAT), the others
// port-preserving: the game must complete and both records verify
// (T-13), whether hole punching made the connection direct or it stayed
// relayed; the kind is logged, for docs/internet.md.
func TestInternetPlayPermissiveNAT(t *testing.T) {
	for _, tt := range []struct {
		name       string
		host, gues bool
	}{
		{"host's NAT permissive", true, false},
		{"guest's NAT permissive", false, true},
		{"both NATs permissive", true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newNetnsLab(t)
			if tt.host {
				l.permissiveNAT(l.nat1)
			}
			if tt.gues {
				l.permissiveNAT(l.nat2)
			}
			dir := t.TempDir()
			relay := startKakureIn(t, l.pub, "relay", "--home", filepath.Join(dir, "relay"),
				"--listen", "/ip4/"+labRelayIP+"/tcp/4747", "--listen", "/ip4/"+labRelayIP+"/udp/4747/quic-v1", "--stats", "1s")
			relayAddr := relay.waitLine(t, reRelayAddr, 20*time.Second)[1]
			g := cutGame{guestHome: filepath.Join(dir, "guest"), hostHome: filepath.Join(dir, "host")}
			listen := []string{"--listen", "/ip4/0.0.0.0/udp/0/quic-v1", "--listen", "/ip4/0.0.0.0/tcp/0", "--relay", relayAddr}
			g.host = startKakureIn(t, l.a, append([]string{"bot", "--home", g.hostHome, "--seed", "1", "--host-invite"}, listen...)...)
			code := g.host.waitLine(t, reCode, 20*time.Second)[1]
			g.guest = startKakureIn(t, l.b, append([]string{"bot", "--home", g.guestHome, "--seed", "2",
				"--join", code, "--variant", "go", "--size", "9"}, listen...)...)
			joined := g.guest.waitLine(t, reJoined, 30*time.Second)
			t.Logf("%s: joined in %ss on a %s connection", tt.name, joined[2], joined[3])
			finishAndVerify(t, g)
			if c := g.guest.lastLine(reConnection); c != nil {
				t.Logf("%s: the game ended on a %s connection", tt.name, c[1])
			}
		})
	}
}
