package protocol

import (
	"fmt"
	"os"
)

// readRecordFile reads the record at path as ParseTranscript does: the
// core's tests read golden records without the session's LoadTranscript.
func readRecordFile(path string) (*Transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := ParseTranscript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}
