package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LockFile is the name of the file in the home directory that a running
// program holds locked (T-16).
const LockFile = "lock"

// ErrHomeInUse means another program holds the home directory: two programs
// on one home would sign under one key, and could sign two different
// messages with the same sequence number (T-16). Errors that wrap it are
// *HomeInUseError values, which name the running program.
var ErrHomeInUse = errors.New("node: home directory in use")

// LockHolder describes the program holding a home directory, as it wrote
// itself into the lock file.
type LockHolder struct {
	// PID is the process ID of the running program.
	PID int `json:"pid"`
	// Command is its command line.
	Command string `json:"command"`
	// Started is when it took the lock.
	Started time.Time `json:"started"`
	// PeerID is the peer ID it runs as, once its node has started.
	PeerID string `json:"peer_id,omitempty"`
	// Addrs are the addresses it listens on, once its node has started.
	Addrs []string `json:"addrs,omitempty"`
}

// HomeInUseError is the error of LockHome when another program holds the
// home directory.
type HomeInUseError struct {
	// Home is the directory.
	Home string
	// Holder is what the running program wrote of itself; its fields are
	// zero if it could not be read.
	Holder LockHolder
}

// Error names the running program and what to do.
func (e *HomeInUseError) Error() string {
	who := "another kakure program"
	if e.Holder.PID != 0 {
		who = fmt.Sprintf("another kakure program (pid %d", e.Holder.PID)
		if e.Holder.Command != "" {
			who += fmt.Sprintf(", `%s`", e.Holder.Command)
		}
		if !e.Holder.Started.IsZero() {
			who += ", started " + e.Holder.Started.Local().Format("2006-01-02 15:04:05")
		}
		who += ")"
	}
	return fmt.Sprintf("node: home directory %s is in use by %s: one identity signs from one program at a time; stop that program or give this one another --home", e.Home, who)
}

// Unwrap makes the error match ErrHomeInUse.
func (e *HomeInUseError) Unwrap() error { return ErrHomeInUse }

// HomeLock is a held lock on a home directory. The operating system
// releases it when the process ends, however it ends, so a crash never
// leaves a home locked.
type HomeLock struct {
	file   *os.File
	holder LockHolder
}

// LockHome takes the lock of home (created with mode 0700 if missing) for
// this process, or returns a *HomeInUseError naming the program that holds
// it. The lock file records this process's ID and command line for the
// next program's message.
func LockHome(home string) (*HomeLock, error) {
	if home == "" {
		return nil, errors.New("node: no home directory given")
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, fmt.Errorf("node: creating home directory: %w", err)
	}
	path := filepath.Join(home, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("node: opening the home's lock file: %w", err)
	}
	locked, err := tryLockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("node: locking %s: %w", path, err)
	}
	if !locked {
		holder, _ := readLockHolder(f)
		f.Close()
		return nil, &HomeInUseError{Home: home, Holder: holder}
	}
	l := &HomeLock{file: f, holder: LockHolder{
		PID:     os.Getpid(),
		Command: strings.Join(os.Args, " "),
		Started: time.Now().UTC().Truncate(time.Second),
	}}
	if err := l.write(); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// ReadLockHolder returns what the program holding home wrote of itself,
// and false if no program holds it.
func ReadLockHolder(home string) (LockHolder, bool, error) {
	l, err := LockHome(home)
	var inUse *HomeInUseError
	switch {
	case errors.As(err, &inUse):
		return inUse.Holder, true, nil
	case err != nil:
		return LockHolder{}, false, err
	}
	l.Release()
	return LockHolder{}, false, nil
}

// setNode records the running node's peer ID and addresses in the lock
// file, for `kakure id` to print while the program runs.
func (l *HomeLock) setNode(peerID string, addrs []string) error {
	l.holder.PeerID = peerID
	l.holder.Addrs = addrs
	return l.write()
}

// write replaces the lock file's content with the holder's description.
func (l *HomeLock) write() error {
	b, err := json.Marshal(l.holder)
	if err != nil {
		return fmt.Errorf("node: encoding the lock file: %w", err)
	}
	if err := l.file.Truncate(0); err != nil {
		return fmt.Errorf("node: writing the lock file: %w", err)
	}
	if _, err := l.file.WriteAt(append(b, '\n'), 0); err != nil {
		return fmt.Errorf("node: writing the lock file: %w", err)
	}
	return nil
}

// Release gives the lock up; the next program may take the home. The lock
// file stays (removing it would let a third program lock a new file while
// a second still waits on the old one).
func (l *HomeLock) Release() {
	if l == nil || l.file == nil {
		return
	}
	unlockFile(l.file)
	l.file.Close()
	l.file = nil
}

// readLockHolder reads a lock file's description of its holder.
func readLockHolder(f *os.File) (LockHolder, error) {
	b, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, 0, 1<<16), 1<<16))
	if err != nil {
		return LockHolder{}, err
	}
	var h LockHolder
	if err := json.Unmarshal(b, &h); err != nil {
		return LockHolder{}, fmt.Errorf("node: reading the lock file: %w", err)
	}
	return h, nil
}
