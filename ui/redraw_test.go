package ui

import (
	"bytes"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/kakure/kakure/protocol"
	"github.com/rivo/tview"
)

// recordingTty is a terminal of w×h cells that keeps what is written to
// it (tcell.Tty): the bytes a screen sends to the player's terminal.
type recordingTty struct {
	mu      sync.Mutex
	w, h    int
	out     bytes.Buffer
	drained chan struct{}
	once    sync.Once
}

func (r *recordingTty) Start() error        { return nil }
func (r *recordingTty) Stop() error         { return nil }
func (r *recordingTty) NotifyResize(func()) {}
func (r *recordingTty) Close() error        { return nil }

// Drain wakes the reader, which then reads no more (no keys come).
func (r *recordingTty) Drain() error {
	r.once.Do(func() { close(r.drained) })
	return nil
}

func (r *recordingTty) Read(p []byte) (int, error) {
	<-r.drained
	return 0, io.EOF
}
func (r *recordingTty) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.Write(p)
}
func (r *recordingTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: r.w, Height: r.h}, nil
}

// written returns the bytes written since the last call.
func (r *recordingTty) written() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.out.Len()
	r.out.Reset()
	return n
}

// ttyScreen returns a terminfo screen of xterm-256color on a recording
// terminal of w×h cells.
func ttyScreen(t *testing.T, w, h int) (tcell.Screen, *recordingTty) {
	t.Helper()
	tty := &recordingTty{w: w, h: h, drained: make(chan struct{})}
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Skipf("no terminfo for xterm-256color: %v", err)
	}
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Fini)
	return newDiffScreen(s), tty
}

// drawAsTview draws p on s as tview's application draws a frame: clear,
// draw, show.
func drawAsTview(s tcell.Screen, p tview.Primitive) {
	w, h := s.Size()
	p.SetRect(0, 0, w, h)
	s.Clear()
	p.Draw(s)
	s.Show()
}

// TestUID46RedrawsOnlyWhatChanged (issue 34 item 12): a frame that
// changes nothing sends (almost) nothing to the terminal, and a clock's
// tick sends a few cells, not the whole screen: a slow link stays usable.
func TestUID46RedrawsOnlyWhatChanged(t *testing.T) {
	s, g := newRecordScreen(t, "go", protocol.Inviter)
	for range 20 {
		g.next(s)
	}
	scr, tty := ttyScreen(t, 80, 24)
	drawAsTview(scr, s)
	full := tty.written()
	drawAsTview(scr, s)
	same := tty.written()
	s.Tick(time.Now())
	drawAsTview(scr, s)
	tick := tty.written()
	t.Logf("80×24: first frame %d bytes, the same again %d bytes, a tick %d bytes", full, same, tick)
	if same > 64 {
		t.Errorf("a frame that changes nothing sent %d bytes (the first sent %d)", same, full)
	}
	if tick > 64 {
		t.Errorf("a tick without a clock sent %d bytes", tick)
	}
}
