package testenv

import (
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"
)

// reapMargin is how long before go test's -timeout the test binary ends
// what its tests started (at most; a tenth of the time left when the
// first test asks, if that is less): the timeout's panic runs no
// t.Cleanup.
const reapMargin = 10 * time.Second

var reaper struct {
	mu      sync.Mutex
	next    int
	kills   map[int]func()
	watched bool
}

// Reap makes sure kill runs once, whatever happens to the test: when t
// ends (t.Cleanup), and also when the test binary comes within 10 s of
// go test's -timeout (whose panic runs no cleanup) or receives SIGINT
// or SIGTERM (after which the binary exits). kill ends what the test
// started outside its own process: a process group (KillGroup), a tmux
// server, a network namespace. A run that fails or times out thus
// leaves nothing running behind it.
func Reap(t testing.TB, kill func()) {
	t.Helper()
	var once sync.Once
	run := func() { once.Do(kill) }
	reaper.mu.Lock()
	if reaper.kills == nil {
		reaper.kills = map[int]func(){}
	}
	id := reaper.next
	reaper.next++
	reaper.kills[id] = run
	if !reaper.watched {
		reaper.watched = true
		watch(t)
	}
	reaper.mu.Unlock()
	t.Cleanup(func() {
		run()
		reaper.mu.Lock()
		delete(reaper.kills, id)
		reaper.mu.Unlock()
	})
}

// watch starts the goroutine that reaps everything before the test
// binary's deadline (that of go test's -timeout, which t reports) or on
// SIGINT and SIGTERM, after which the binary exits as the signal would
// have ended it.
func watch(t testing.TB) {
	var deadline <-chan time.Time
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if at, ok := d.Deadline(); ok {
			left := time.Until(at)
			deadline = time.After(left - min(reapMargin, left/10))
		}
	}
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-deadline:
			reapAll()
			// The timeout's panic follows, and names the test that hung.
		case s := <-signals:
			reapAll()
			signal.Stop(signals)
			if p, err := os.FindProcess(os.Getpid()); err == nil {
				p.Signal(s)
			}
			time.Sleep(time.Second)
			os.Exit(2)
		}
	}()
}

// reapAll runs every kill still registered.
func reapAll() {
	reaper.mu.Lock()
	kills := make([]func(), 0, len(reaper.kills))
	for _, k := range reaper.kills {
		kills = append(kills, k)
	}
	reaper.mu.Unlock()
	var wg sync.WaitGroup
	for _, k := range kills {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k()
		}()
	}
	wg.Wait()
}

// StartGroup starts cmd in a process group of its own, so that KillGroup
// ends it with every process it started (a kakure child's children, the
// program `ip netns exec` runs), and has the group killed by Reap: at
// the test's end, and before go test's -timeout.
func StartGroup(t testing.TB, cmd *exec.Cmd) error {
	t.Helper()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return err
	}
	Reap(t, func() { KillGroup(cmd) })
	return nil
}

// KillGroup sends SIGKILL to the process group that cmd leads (started
// by StartGroup). It does not wait for cmd.
func KillGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
