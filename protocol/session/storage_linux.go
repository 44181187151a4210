package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// fdatasync flushes f's data (and the size that reaches it) to the disk.
func fdatasync(f *os.File) error {
	for {
		err := unix.Fdatasync(int(f.Fd()))
		if err != unix.EINTR {
			return err
		}
	}
}
