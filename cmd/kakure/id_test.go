package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/kakure/kakure/node"
)

// TestIDCommand runs `kakure id` with a temporary home on loopback: it
// prints the peer ID of the key it created and addresses ending in it.
func TestIDCommand(t *testing.T) {
	home := t.TempDir()
	var stdout, stderr bytes.Buffer
	env := &environment{stdout: &stdout, stderr: &stderr}
	status := run(env, []string{"id", "--home", home,
		"--listen", "/ip4/127.0.0.1/tcp/0", "--listen", "/ip4/127.0.0.1/udp/0/quic-v1"})
	if status != 0 {
		t.Fatalf("status %d, stderr:\n%s", status, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	idText, ok := strings.CutPrefix(lines[0], "peer ID: ")
	if !ok {
		t.Fatalf("first line %q, want the peer ID", lines[0])
	}
	id, err := peer.Decode(idText)
	if err != nil {
		t.Fatalf("peer ID %q: %v", idText, err)
	}
	key, err := node.LoadOrCreateIdentity(home)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := peer.IDFromPrivateKey(key); id != want {
		t.Errorf("printed peer ID %s, the key in home is %s", id, want)
	}
	var tcp, quic int
	for _, line := range lines[2:] {
		addr := strings.TrimSpace(line)
		if _, err := node.ParsePeerAddr(addr); err != nil || !strings.HasSuffix(addr, "/p2p/"+id.String()) {
			t.Errorf("address line %q is not a shareable address of %s (%v)", line, id, err)
		}
		if strings.Contains(addr, "/tcp/") {
			tcp++
		}
		if strings.Contains(addr, "/quic-v1/") {
			quic++
		}
	}
	if tcp != 1 || quic != 1 {
		t.Errorf("%d TCP and %d QUIC addresses, want one of each:\n%s", tcp, quic, stdout.String())
	}
	if !strings.Contains(stderr.String(), "random port") {
		t.Errorf("no note about random ports on stderr: %q", stderr.String())
	}

	// The same home gives the same ID.
	stdout.Reset()
	if status := run(env, []string{"id", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0"}); status != 0 {
		t.Fatalf("second run: status %d", status)
	}
	if !strings.HasPrefix(stdout.String(), "peer ID: "+id.String()+"\n") {
		t.Errorf("second run printed another ID:\n%s", stdout.String())
	}
}

func TestIDCommandErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"bad listen address", []string{"--listen", "/ip4/127.0.0.1/tcp/port"}, 1, "/ip4/127.0.0.1/tcp/port"},
		{"extra argument", []string{"extra"}, 2, `unexpected argument "extra"`},
		{"unknown flag", []string{"--colour"}, 2, "colour"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := &environment{stdout: &stdout, stderr: &stderr}
			args := append([]string{"id", "--home", t.TempDir()}, tt.args...)
			if status := run(env, args); status != tt.status {
				t.Errorf("status %d, want %d; stderr:\n%s", status, tt.status, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr %q does not mention %q", stderr.String(), tt.want)
			}
		})
	}
}

func TestIDIsRandomPort(t *testing.T) {
	for addr, want := range map[string]bool{
		"/ip4/0.0.0.0/tcp/0":            true,
		"/ip6/::/udp/0/quic-v1":         true,
		"/ip4/0.0.0.0/tcp/4001":         false,
		"/ip4/0.0.0.0/udp/4001/quic-v1": false,
		"/ip4/10.0.0.1/tcp/40":          false,
	} {
		if got := idIsRandomPort(addr); got != want {
			t.Errorf("idIsRandomPort(%q) = %v, want %v", addr, got, want)
		}
	}
}
