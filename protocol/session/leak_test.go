package session_test

import (
	"bytes"
	"encoding/hex"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/leakcheck"
	"github.com/kakure/kakure/protocol/session"
)

// lockedBuffer collects a service's log.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// debugLogs is a configuration for newPair that gives each peer a log
// at debug level, kept in logs.
func debugLogs(logs *[2]*lockedBuffer) func(i int, c *session.Config) {
	return func(i int, c *session.Config) {
		logs[i] = &lockedBuffer{}
		c.Logger = slog.New(slog.NewTextHandler(logs[i], &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
}

// secretSalts returns the salts of every opening a peer's secrets file
// holds (the coin toss, hidden cards, F-Go choices), in hex, with the
// role that owns them.
func secretSalts(t *testing.T, data []byte) (protocol.Role, []string) {
	t.Helper()
	role, openings, err := leakcheck.Openings(data)
	if err != nil {
		t.Fatal(err)
	}
	var salts []string
	for _, o := range openings {
		salts = append(salts, hex.EncodeToString(o.Salt[:]))
	}
	return role, salts
}

// checkNoLeak looks at both peers' files and logs at one moment: a salt
// of a peer's secrets shows in a record only inside an opening message
// of that peer, and never in a log. It returns how many salts it checked
// and false once it found a leak.
func checkNoLeak(t *testing.T, dirs [2]string, logs [2]*lockedBuffer) (checked int, ok bool) {
	t.Helper()
	ok = true
	leak := func(format string, args ...any) {
		t.Errorf(format, args...)
		ok = false
	}
	var records [][]byte
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.record.json"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				records = append(records, data)
			}
		}
	}
	for _, dir := range dirs {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.secrets.json"))
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			owner, salts := secretSalts(t, data)
			for _, salt := range salts {
				checked++
				for i, l := range logs {
					if strings.Contains(l.String(), salt) {
						leak("the log of peer %d holds a salt of the %s's secrets", i, owner)
					}
				}
				for _, rec := range records {
					if !bytes.Contains(rec, []byte(salt)) {
						continue
					}
					// Only the messages' senders, kinds and bodies matter
					// here: the signatures are checked elsewhere.
					msgs, err := recordMessages(rec)
					if err != nil {
						t.Fatalf("record: %v", err)
					}
					opened := false
					for _, m := range msgs {
						if m.From == owner && leakcheck.OpeningKinds[m.Kind] && bytes.Contains(m.Body, []byte(salt)) {
							opened = true
						}
					}
					if !opened {
						leak("a record holds a salt of the %s's secrets outside its openings", owner)
					}
				}
			}
		}
	}
	return checked, ok
}
