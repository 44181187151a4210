//go:build unix

package gtp

import (
	"os/exec"
	"syscall"
)

// detach starts the engine in a process group of its own, so that the
// signals of the terminal (Ctrl-C) reach kakure and not the engine:
// kakure decides what an interrupted game becomes, and an engine killed
// by the same Ctrl-C would otherwise fail its game (GTP-D7, GTP-D8). The engine
// still ends with kakure, when its standard input closes.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
