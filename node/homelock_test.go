package node_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kakure/kakure/node"
)

// TestT16SecondNodeOnOneHomeRefused: while a node runs on a home, a second
// node on the same home is refused with an error that names the first
// program; once the first closes, the home can be used again.
func TestT16SecondNodeOnOneHomeRefused(t *testing.T) {
	home := t.TempDir()
	first, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	second, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err == nil {
		second.Close()
		first.Close()
		t.Fatal("T-16: a second node started on a home another node holds: two programs could sign under one key")
	}
	var inUse *node.HomeInUseError
	if !errors.As(err, &inUse) || !errors.Is(err, node.ErrHomeInUse) {
		t.Fatalf("T-16: the second node's error is %v (%T), want a HomeInUseError", err, err)
	}
	if inUse.Holder.PID != os.Getpid() || inUse.Holder.PeerID != first.ID().String() || len(inUse.Holder.Addrs) == 0 {
		t.Errorf("T-16: the error names holder %+v, want pid %d, peer %s and its addresses", inUse.Holder, os.Getpid(), first.ID())
	}
	if msg := err.Error(); !strings.Contains(msg, fmt.Sprintf("pid %d", os.Getpid())) || !strings.Contains(msg, home) {
		t.Errorf("T-16: the message %q should name the running program's pid and the home", msg)
	}
	holder, held, err := node.ReadLockHolder(home)
	if err != nil || !held || holder.PeerID != first.ID().String() {
		t.Errorf("ReadLockHolder while held = %+v, %v, %v", holder, held, err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, held, err := node.ReadLockHolder(home); err != nil || held {
		t.Fatalf("after Close the home is still held (%v, %v)", held, err)
	}
	again, err := node.New(t.Context(), node.Config{Home: home, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatalf("T-16: the home stays locked after its node closed: %v", err)
	}
	if again.ID() != first.ID() {
		t.Errorf("the identity changed across the lock: %s then %s", first.ID(), again.ID())
	}
	again.Close()
}

// TestT16LockHeldByAnotherProcess: the lock holds across processes, names
// the other process, and is gone when that process is killed (a crash never
// leaves a home locked).
func TestT16LockHeldByAnotherProcess(t *testing.T) {
	if os.Getenv("KAKURE_HOLD_HOME") != "" {
		holdHomeForTest()
		return
	}
	home := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestT16LockHeldByAnotherProcess$")
	cmd.Env = append(os.Environ(), "KAKURE_HOLD_HOME="+home)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "locked") {
		t.Fatalf("the holding process said %q, %v", line, err)
	}
	_, err = node.LockHome(home)
	var inUse *node.HomeInUseError
	if !errors.As(err, &inUse) {
		t.Fatalf("T-16: LockHome while another process holds the home = %v, want HomeInUseError", err)
	}
	if inUse.Holder.PID != cmd.Process.Pid {
		t.Errorf("T-16: the error names pid %d, the holder is %d", inUse.Holder.PID, cmd.Process.Pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	l, err := node.LockHome(home)
	if err != nil {
		t.Fatalf("T-16: the home stays locked after its holder was killed: %v", err)
	}
	l.Release()
	if _, err := os.Stat(filepath.Join(home, node.LockFile)); err != nil {
		t.Errorf("lock file: %v", err)
	}
}

// holdHomeForTest is the child of TestT16LockHeldByAnotherProcess: it locks
// the home, says so and waits to be killed.
func holdHomeForTest() {
	l, err := node.LockHome(os.Getenv("KAKURE_HOLD_HOME"))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	defer l.Release()
	fmt.Println("locked")
	time.Sleep(time.Hour) // until killed
}
