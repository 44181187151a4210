package session

import (
	"github.com/kakure/kakure/protocol"

	"fmt"
	"os"
	"path/filepath"
)

// The record on disk: the session reads and writes record files whole
// here; the rules read and check a record from its bytes (ParseTranscript).

// LoadTranscript reads and checks a record file, either form (see
// ParseTranscript).
func LoadTranscript(path string) (*protocol.Transcript, error) {
	t, _, err := loadRecord(path)
	return t, err
}

// loadRecord reads and checks a record file and tells its writer where
// its valid part ends.
func loadRecord(path string) (*protocol.Transcript, protocol.RecordState, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, protocol.RecordState{}, fmt.Errorf("protocol: %w", err)
	}
	t, st, err := protocol.ParseRecord(data)
	if err != nil {
		return t, st, fmt.Errorf("%s: %w", path, err)
	}
	return t, st, nil
}

// writeFileAtomic writes data to path so that a crash leaves either the old
// file or the new one, never a torn one: write a temporary file beside it,
// sync it, rename it over path, sync the directory.
func writeFileAtomic(path string, data []byte, perm os.FileMode, durable bool) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("protocol: save %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("protocol: save %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("protocol: save %s: %w", path, err)
	}
	bytesWritten.Add(int64(len(data)))
	if err := syncIf(durable, tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("protocol: save %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("protocol: save %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("protocol: save %s: %w", path, err)
	}
	if durable {
		if d, err := os.Open(dir); err == nil {
			d.Sync()
			d.Close()
		}
	}
	return nil
}

// SaveTranscript writes the record t to path atomically and durably:
// write a temporary file, sync it, rename it over path, sync the
// directory.
func SaveTranscript(t *protocol.Transcript, path string) error {
	data, err := t.MarshalJSON()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data, 0o600, true)
}

func syncIf(durable bool, f *os.File) error {
	if !durable {
		return nil
	}
	return f.Sync()
}
