package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kakure/kakure/internal/testenv"
)

// The lab's two NATs' public (wan) addresses (newNetnsLab).
const (
	labNAT1IP = "192.0.0.66"
	labNAT2IP = "192.0.0.67"
)

// punchWatch follows the conntrack table of one of the lab's NATs and
// records each entry between the two NATs' public addresses (hole
// punches, and the direct connections they make) as it appears and when
// its state changes: which packet came first, and whether the NAT mapped
// its player's punch to another port (issue 32: a failed hole punch
// with a permissive NAT is told by these entries, NET-D15, NET-D41).
type punchWatch struct {
	name string
	mu   sync.Mutex
	// state is the last state seen of each entry, by its original
	// direction; inTable the entries of the table being read (an entry
	// that expired and comes back is recorded again).
	state   map[string]string
	inTable map[string]bool
	events  []string
}

// watchPunches starts following nat's conntrack table (every 50 ms,
// /proc/net/nf_conntrack in the namespace) until the end of the test.
func (l *netnsLab) watchPunches(t *testing.T, nat, name string) *punchWatch {
	t.Helper()
	w := &punchWatch{name: name, state: map[string]string{}, inTable: map[string]bool{}}
	cmd := exec.Command("ip", "netns", "exec", nat, "sh", "-c",
		"while :; do cat /proc/net/nf_conntrack; echo ==; sleep 0.05; done")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := testenv.StartGroup(t, cmd); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			w.note(sc.Text())
		}
	}()
	t.Cleanup(func() {
		testenv.KillGroup(cmd)
		<-done
		cmd.Wait()
	})
	return w
}

// note records line, one entry of /proc/net/nf_conntrack, if it is
// between the two NATs and new or changed; "==" ends a reading of the
// table.
func (w *punchWatch) note(line string) {
	if line == "==" { // the end of a reading of the table
		w.mu.Lock()
		for k := range w.state {
			if !w.inTable[k] {
				delete(w.state, k)
			}
		}
		clear(w.inTable)
		w.mu.Unlock()
		return
	}
	f := strings.Fields(line)
	if len(f) < 4 || (f[2] != "udp" && f[2] != "tcp") ||
		!strings.Contains(line, "="+labNAT1IP+" ") || !strings.Contains(line, "="+labNAT2IP+" ") {
		return
	}
	var tuple []string // src, dst, sport, dport: original, then reply
	var flags []string
	for _, x := range f {
		k, v, ok := strings.Cut(x, "=")
		switch {
		case ok && (k == "src" || k == "dst" || k == "sport" || k == "dport"):
			tuple = append(tuple, v)
		case strings.HasPrefix(x, "["):
			flags = append(flags, x)
		case f[2] == "tcp" && !ok && x == strings.ToUpper(x) && len(tuple) == 0:
			flags = append(flags, x) // the TCP state, e.g. SYN_SENT
		}
	}
	if len(tuple) < 8 {
		return
	}
	orig := f[2] + " " + tuple[0] + ":" + tuple[2] + "→" + tuple[1] + ":" + tuple[3]
	st := "reply " + tuple[4] + ":" + tuple[6] + "→" + tuple[5] + ":" + tuple[7] + " " + strings.Join(flags, " ")
	switch {
	case tuple[0] != labNAT1IP && tuple[0] != labNAT2IP && tuple[7] != tuple[2]:
		st += " (mapped to another port: " + tuple[2] + "→" + tuple[7] + ")"
	case (tuple[0] == labNAT1IP || tuple[0] == labNAT2IP) && tuple[4] == tuple[1]:
		st += " (from the other NAT, addressed to this one)"
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inTable[orig] = true
	if w.state[orig] == st {
		return
	}
	w.state[orig] = st
	w.events = append(w.events, time.Now().Format("15:04:05.000")+" "+w.name+": "+orig+", "+st)
}

// log logs the entries recorded.
func (w *punchWatch) log(t *testing.T) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.events {
		t.Logf("  conntrack %s", e)
	}
}

// logHolePunching logs the hole-punching lines of the log file
// (kakure.log) in home: each attempt, its timing and why it failed, and
// each connection opened (direct or relayed, inbound or outbound).
func logHolePunching(t *testing.T, who, home string) {
	t.Helper()
	b, err := os.ReadFile(home + "/kakure.log")
	if err != nil {
		t.Logf("  %s: %v", who, err)
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "hole punch") || strings.Contains(line, "msg=connected") || strings.Contains(line, "hole-punching") || strings.Contains(line, "relayed connection") {
			if i := strings.Index(line, "time="); i >= 0 {
				line = line[i+len("time="):]
			}
			if i := strings.Index(line, " source="); i >= 0 {
				if j := strings.Index(line[i+1:], " "); j >= 0 {
					line = line[:i] + line[i+1+j:]
				}
			}
			t.Logf("  %s: %s", who, line)
		}
	}
}
