package ui

import (
	"fmt"
	"os"
	"strings"

	"github.com/kakure/kakure/protocol"
	"github.com/kakure/kakure/protocol/session"
	"github.com/kakure/kakure/protocol/sgfexport"
)

// SaveRecord writes a game's record to path and its SGF export beside it
// (path without .record.json or .json, plus .sgf), and returns the SGF's
// path.
func SaveRecord(t *protocol.Transcript, path string) (sgfPath string, err error) {
	if path == "" {
		return "", fmt.Errorf("no file name")
	}
	if err := session.SaveTranscript(t, path); err != nil {
		return "", err
	}
	data, err := sgfexport.Export(t)
	if err != nil {
		return "", err
	}
	sgfPath = trimRecordExt(path) + ".sgf"
	if err := os.WriteFile(sgfPath, data, 0o644); err != nil {
		return "", fmt.Errorf("write SGF: %w", err)
	}
	return sgfPath, nil
}

// trimRecordExt takes .record.json or .json off a record's path.
func trimRecordExt(path string) string {
	for _, ext := range []string{".record.json", ".json"} {
		if len(path) > len(ext) && strings.HasSuffix(path, ext) {
			return strings.TrimSuffix(path, ext)
		}
	}
	return path
}
