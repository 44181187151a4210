package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/mattn/go-runewidth"
	"github.com/rivo/tview"
)

// dialog is a box drawn over a screen that asks the player something. While
// it is open its owner gives it every key. It shows lines of text and
// optionally a body below them: an input field or a scrolling text.
type dialog struct {
	*tview.Box
	lines []string
	body  tview.Primitive
	// footer are lines of text below the body.
	footer []string
	// bodyHeight is the height of the body (0: what is left).
	bodyHeight int
	// width and height fix the box's size (0: from the text).
	width, height int
	// handle gets the keys.
	handle func(ev *tcell.EventKey)
}

// newDialog returns a dialog with a title and lines of text.
func newDialog(title string, lines ...string) *dialog {
	d := &dialog{Box: tview.NewBox(), lines: lines}
	d.SetBorder(true).SetTitle(" " + title + " ").SetBackgroundColor(tcell.ColorDefault)
	return d
}

// Draw draws the dialog centred in the rectangle it was given.
func (d *dialog) Draw(screen tcell.Screen) {
	x, y, w, h := d.GetRect()
	width, height := d.width, d.height
	if width == 0 {
		for _, l := range append(d.lines, d.footer...) {
			width = max(width, runewidth.StringWidth(l))
		}
		width = max(width+4, 40)
	}
	width = min(width, w)
	// Lines wider than the box wrap at word boundaries (UI-D38: a
	// question cut at 80 columns hides what the key does).
	lines := wrapDialogLines(d.lines, width-4)
	if height == 0 {
		height = len(lines) + len(d.footer) + 2
		if d.body != nil {
			height += max(d.bodyHeight, 1) + 1
		}
	}
	width, height = min(width, w), min(height, h)
	bx, by := x+(w-width)/2, y+(h-height)/2
	// Clear the box's cells, then draw it there, then restore the rect.
	for cy := by; cy < by+height; cy++ {
		for cx := bx; cx < bx+width; cx++ {
			screen.SetContent(cx, cy, ' ', nil, tcell.StyleDefault)
		}
	}
	d.Box.SetRect(bx, by, width, height)
	d.Box.DrawForSubclass(screen, d)
	ix, iy, iw, ih := d.GetInnerRect()
	for i, l := range lines {
		if i >= ih {
			break
		}
		tview.Print(screen, l, ix+1, iy+i, iw-2, tview.AlignLeft, tcell.ColorDefault)
	}
	if d.body != nil {
		top := iy + len(lines)
		if len(lines) > 0 {
			top++
		}
		bh := ih - (top - iy) - len(d.footer)
		if d.bodyHeight > 0 {
			bh = min(bh, d.bodyHeight)
		}
		d.body.SetRect(ix+1, top, iw-2, max(bh, 0))
		d.body.Draw(screen)
		for i, l := range d.footer {
			tview.Print(screen, tview.Escape(l), ix+1, top+bh+i, iw-2, tview.AlignLeft, tcell.ColorDefault)
		}
	}
	d.Box.SetRect(x, y, w, h)
}

// wrapDialogLines escapes lines for tview and wraps each wider than width
// columns at word boundaries; an empty line stays one empty line.
func wrapDialogLines(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		e := tview.Escape(l)
		if width <= 0 || runewidth.StringWidth(l) <= width {
			out = append(out, e)
			continue
		}
		out = append(out, tview.WordWrap(e, width)...)
	}
	return out
}
