package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/testenv"
	"github.com/kakure/kakure/node"
)

// TestT1FilesArePrivate plays a game between two peers started as the
// binary starts them, then walks both homes: the home and the games
// directory are 0700, the identity key, the records, the secrets and the
// logs 0600; nothing in a home is open to other users.
func TestT1FilesArePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix file modes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Duration(30*time.Second))
	defer cancel()
	var homes [2]string
	var peers [2]*peerHandle
	for i := range peers {
		homes[i] = filepath.Join(t.TempDir(), "config", "kakure")
		p, err := startPeer(ctx, homes[i], []string{"/ip4/127.0.0.1/tcp/0"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer p.close()
		peers[i] = p
	}
	id, err := peers[0].node.Connect(ctx, peers[1].node.Addrs()[0].String())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		g := <-peers[1].service.Accepted()
		_, err := bot.Run(ctx, g, bot.NewRandom(2))
		done <- err
	}()
	g, err := peers[0].service.Invite(ctx, id, engine.Options{Variant: engine.VariantHMG, Size: 5, Cards: 2, CardsSet: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bot.Run(ctx, g, bot.NewRandom(1)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, home := range homes {
		want := map[string]os.FileMode{
			".":                    0o700,
			node.IdentityFile:      0o600,
			node.LogFileName:       0o600,
			"games":                0o700,
			"games.log":            0o600,
			"games/*.record.json":  0o600,
			"games/*.secrets.json": 0o600,
		}
		for pattern, mode := range want {
			paths, _ := filepath.Glob(filepath.Join(home, pattern))
			if len(paths) == 0 {
				t.Errorf("%s: nothing matches %s", home, pattern)
			}
			for _, p := range paths {
				info, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if got := info.Mode().Perm(); got != mode {
					t.Errorf("%s has mode %04o, want %04o", p, got, mode)
				}
			}
		}
		filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err == nil && info.Mode().Perm()&0o077 != 0 {
				t.Errorf("%s has mode %04o: open to other users", p, info.Mode().Perm())
			}
			return nil
		})
	}
}

// TestT1CommandsRefuseAnAccessibleKey: the commands that start a node
// refuse to run with an identity key other users can read, and say which
// chmod to run.
func TestT1CommandsRefuseAnAccessibleKey(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix file modes")
	}
	home := t.TempDir()
	if _, err := node.LoadOrCreateIdentity(home, nil); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(home, node.IdentityFile)
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"id", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0"},
		{"bot", "--home", home, "--listen", "/ip4/127.0.0.1/tcp/0"},
	} {
		var stdout, stderr bytes.Buffer
		status := run(&environment{stdout: &stdout, stderr: &stderr}, args)
		if status == 0 || !strings.Contains(stderr.String(), "chmod 600 "+key) {
			t.Errorf("kakure %s: status %d, stderr %q; want a refusal naming the chmod", args[0], status, stderr.String())
		}
	}
}
