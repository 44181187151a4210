//go:build unix

package bot

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system), so
// that the benchmarks can report a cost that does not depend on how busy
// the machine is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
