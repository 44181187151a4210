package testenv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// reapChild is the environment variable that makes the test binary run
// as the child of TestReapEndsProcessGroups: it starts a process group
// (a shell and its sleep), writes the shell's ID to the file named, and
// then hangs until go test's -timeout or a signal ends it.
const reapChild = "KAKURE_TESTENV_REAP_CHILD"

// TestReapChild is the child's part of TestReapEndsProcessGroups (it
// does nothing unless run as the child).
func TestReapChild(t *testing.T) {
	pidFile := os.Getenv(reapChild)
	if pidFile == "" {
		return
	}
	cmd := exec.Command("sh", "-c", "sleep 600 & sleep 600")
	if err := StartGroup(t, cmd); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o600); err != nil {
		t.Fatal(err)
	}
	select {} // until the timeout, or a signal
}

// groupAlive reports whether a process of group pgid still runs.
func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

// TestReapEndsProcessGroups: a process group a test starts with
// StartGroup (here a shell with a child of its own) is gone after the
// test binary hits go test's -timeout, whose panic runs no t.Cleanup,
// and after it is interrupted (SIGINT, as ^C); and at the end of a test
// that ends normally.
func TestReapEndsProcessGroups(t *testing.T) {
	if os.Getenv(reapChild) != "" {
		t.Skip("the child runs TestReapChild only")
	}
	for _, how := range []string{"timeout", "interrupt"} {
		t.Run(how, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			cmd := exec.Command(os.Args[0], "-test.run=^TestReapChild$", "-test.timeout=4s")
			cmd.Env = append(os.Environ(), reapChild+"="+pidFile)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			pgid := 0
			for deadline := Deadline(10 * time.Second); pgid == 0; time.Sleep(20 * time.Millisecond) {
				if data, err := os.ReadFile(pidFile); err == nil && len(data) > 0 {
					pgid, _ = strconv.Atoi(string(data))
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatalf("the child never started its processes:\n%s", out.String())
				}
			}
			t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
			if !groupAlive(pgid) {
				t.Fatal("the child's process group is not running")
			}
			if how == "interrupt" {
				cmd.Process.Signal(os.Interrupt)
			}
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("the child passed:\n%s", out.String())
				}
			case <-time.After(Duration(20 * time.Second)):
				cmd.Process.Kill()
				t.Fatalf("the child did not end:\n%s", out.String())
			}
			if how == "timeout" && !strings.Contains(out.String(), "test timed out") {
				t.Errorf("the child did not time out:\n%s", out.String())
			}
			for deadline := Deadline(2 * time.Second); groupAlive(pgid); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the child's process group %d still runs after the child's %s", pgid, how)
				}
			}
		})
	}
	t.Run("cleanup", func(t *testing.T) {
		var cmd *exec.Cmd
		t.Run("starts", func(t *testing.T) {
			cmd = exec.Command("sh", "-c", "sleep 600 & sleep 600")
			if err := StartGroup(t, cmd); err != nil {
				t.Fatal(err)
			}
			go cmd.Wait()
		})
		for deadline := Deadline(2 * time.Second); groupAlive(cmd.Process.Pid); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				t.Fatal("the process group outlived the test that started it")
			}
		}
	})
}
