package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
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
	key, err := node.LoadOrCreateIdentity(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := peer.IDFromPrivateKey(key); id != want {
		t.Errorf("printed peer ID %s, the key in home is %s", id, want)
	}
	// The tests' nodes stay off the DHT (KAKURE_DHT=off, NET-D16).
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "internet: DHT: off; reachability: ") {
		t.Errorf("last line %q, want the internet status with the DHT off", last)
	}
	var tcp, quic int
	for _, line := range lines[2 : len(lines)-1] {
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

// TestT1IDProtect: `kakure id --protect` puts the identity key under the
// passphrase (from KAKURE_PASSPHRASE here; on a terminal it is typed
// twice) and keeps the peer ID; later programs ask for it when they
// start: the right one prints the same ID, a wrong one is a clear error
// naming the wrong passphrase, none (no terminal, no KAKURE_PASSPHRASE)
// says how to give it. Without --protect the key stays unprotected.
func TestT1IDProtect(t *testing.T) {
	home := t.TempDir()
	var stdin io.Reader // none, until the end
	idOf := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: stdin, stdout: &stdout, stderr: &stderr}
		status := run(env, append([]string{"id", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0"}, args...))
		first, _, _ := strings.Cut(stdout.String(), "\n")
		return status, first, stderr.String()
	}
	status, before, errOut := idOf()
	if status != 0 {
		t.Fatalf("kakure id: %d %s", status, errOut)
	}
	if p, err := node.IdentityProtected(home); err != nil || p {
		t.Fatalf("a new key is protected: %v %v", p, err)
	}
	t.Setenv("KAKURE_PASSPHRASE", "correct horse battery")
	status, after, errOut := idOf("--protect")
	if status != 0 || after != before {
		t.Fatalf("kakure id --protect: status %d, %q (was %q), %s", status, after, before, errOut)
	}
	if p, err := node.IdentityProtected(home); err != nil || !p {
		t.Fatalf("after --protect the key is not protected: %v %v", p, err)
	}
	if status, again, errOut := idOf(); status != 0 || again != before {
		t.Fatalf("with the passphrase: status %d, %q, %s", status, again, errOut)
	}
	if status, _, errOut := idOf("--protect"); status == 0 || !strings.Contains(errOut, "protected already") {
		t.Errorf("protecting twice: status %d, %s", status, errOut)
	}
	t.Setenv("KAKURE_PASSPHRASE", "wrong")
	if status, out, errOut := idOf(); status == 0 || strings.Contains(out, "peer ID") || !strings.Contains(errOut, "wrong passphrase") {
		t.Errorf("a wrong passphrase: status %d, %q, %s", status, out, errOut)
	}
	os.Unsetenv("KAKURE_PASSPHRASE")
	// No terminal to type it on: idOf's standard input is none, and
	// /dev/null is a file but no terminal (a test run from a terminal
	// must not wait for it).
	if status, _, errOut := idOf(); status == 0 || !strings.Contains(errOut, "KAKURE_PASSPHRASE") {
		t.Errorf("no passphrase and no standard input: status %d, %s", status, errOut)
	}
	notATerminal, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer notATerminal.Close()
	stdin = notATerminal
	if status, _, errOut := idOf(); status == 0 || !strings.Contains(errOut, "KAKURE_PASSPHRASE") {
		t.Errorf("no passphrase and no terminal: status %d, %s", status, errOut)
	}
}

// TestT1EveryNodeAsksForThePassphrase: every command that starts a node
// on a home with a protected identity key asks for its passphrase
// (node.Config.Passphrase): with a wrong one in KAKURE_PASSPHRASE each
// stops at once naming the wrong passphrase, which only a passphrase
// asked for and tried can give (with none, the node refuses the key
// saying none was given).
func TestT1EveryNodeAsksForThePassphrase(t *testing.T) {
	protectedHome := func(home string) string {
		if _, err := node.LoadOrCreateIdentity(home, nil); err != nil {
			t.Fatal(err)
		}
		if err := node.ProtectIdentity(home, []byte("correct horse")); err != nil {
			t.Fatal(err)
		}
		return home
	}
	home := protectedHome(t.TempDir())
	out := t.TempDir()
	protectedHome(filepath.Join(out, "peers", peerNames[0]))
	t.Setenv("KAKURE_PASSPHRASE", "wrong horse")
	loopback := "/ip4/127.0.0.1/tcp/0"
	for _, args := range [][]string{
		{"id", "--home", home, "--listen", loopback},
		{"play", "--home", home, "--listen", loopback},
		{"bot", "--home", home, "--listen", loopback},
		{"relay", "--home", home, "--listen", loopback},
		{"match", "--out", out, "--size", "5"},
	} {
		var stdout, stderr bytes.Buffer
		env := &environment{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}
		if status := run(env, args); status == 0 || !strings.Contains(stderr.String(), "wrong passphrase") {
			t.Errorf("kakure %s: status %d, %s", strings.Join(args, " "), status, stderr.String())
		}
	}
}
