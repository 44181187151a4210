package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kakure/kakure/engine"
)

// gameNotes is the file of a game's private notes (the m key): the points
// as vertices. It never leaves the player's home directory and is never
// sent (UI-D9).
type gameNotes struct {
	Size   int      `json:"size"`
	Points []string `json:"points"`
}

// loadNotes reads the notes of a board of side size from path; a missing
// file is no notes.
func loadNotes(path string, size int) ([]engine.Point, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading notes: %w", err)
	}
	var n gameNotes
	if err := json.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("notes %s: %w", path, err)
	}
	if n.Size != size {
		return nil, fmt.Errorf("notes %s are for %d×%d, the game is %d×%d", path, n.Size, n.Size, size, size)
	}
	points := make([]engine.Point, 0, len(n.Points))
	for _, v := range n.Points {
		p, err := engine.ParseVertex(size, v)
		if err != nil || p == engine.Pass {
			return nil, fmt.Errorf("notes %s: %q is no point of the board", path, v)
		}
		points = append(points, p)
	}
	return points, nil
}

// saveNotes writes the notes of a board of side size to path (mode 0600,
// replaced whole, so a crash leaves the old notes or the new ones).
func saveNotes(path string, size int, points []engine.Point) error {
	n := gameNotes{Size: size, Points: []string{}}
	for _, p := range points {
		n.Points = append(n.Points, p.Vertex(size))
	}
	b, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("saving notes: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".notes-*.tmp")
	if err != nil {
		return fmt.Errorf("saving notes: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("saving notes: %w", err)
	}
	return nil
}

// SetNotesPath keeps the player's private notes of this game in path: the
// notes saved there before are put back on the board (after leaving and
// resuming a game), and every note set or taken away is saved at once.
func (s *GameScreen) SetNotesPath(path string) {
	size := s.model.Size()
	points, err := loadNotes(path, size)
	if err != nil {
		s.model.Message = friendlyError(err)
	}
	m := s.board.Model()
	for _, p := range points {
		if m.OnBoard(p) {
			m.Points[p].Marks |= MarkNote
		}
	}
	s.board.SetModel(m)
	s.board.SetNoteFunc(func(engine.Point, bool) {
		bm := s.board.Model()
		var notes []engine.Point
		for p := engine.Point(0); bm.OnBoard(p); p++ {
			if bm.Points[p].Has(MarkNote) {
				notes = append(notes, p)
			}
		}
		if err := saveNotes(path, size, notes); err != nil {
			s.model.Message = friendlyError(err)
		}
	})
}
