package mdpdf

import (
	"fmt"
	"strings"
)

// Options set the page furniture of a rendered document.
type Options struct {
	// Title is the document's Info title.
	Title string
	// Footer, when set, is printed at the bottom left of every page, and "Page N of M" at
	// the bottom right.
	Footer string
}

// A4 portrait, in points, and the text area.
const (
	pageWidth   = 595
	pageHeight  = 842
	marginLeft  = 64
	marginRight = 64
	marginTop   = 72
	marginBot   = 72
	textWidth0  = pageWidth - marginLeft - marginRight
)

// style is the font, size and spacing of one kind of block.
type style struct {
	f             font
	size, leading float64
	before, after float64
	keepWithNext  float64 // room needed below the block so that it is not left alone
}

var styles = map[string]style{
	"h1":   {bold, 15, 19, 8, 8, 60},
	"h2":   {bold, 12.5, 16, 12, 4, 50},
	"h3":   {bold, 10.5, 14, 8, 2, 40},
	"body": {regular, 10, 13, 0, 6, 0},
	"list": {regular, 10, 13, 0, 3, 0},
	"cell": {mono, 8, 10.5, 2, 8, 0},
}

// Render lays Markdown out on A4 pages and returns the PDF file.
func Render(src []byte, opts Options) []byte {
	l := &layout{}
	l.newPage()
	for _, b := range parse(string(src)) {
		l.block(b)
	}
	l.footers(opts.Footer)
	return encode(opts.Title, pageWidth, pageHeight, l.pages)
}

// layout places lines top to bottom, starting a new page when one is full.
type layout struct {
	pages [][]textLine
	y     float64
}

func (l *layout) newPage() {
	l.pages = append(l.pages, nil)
	l.y = pageHeight - marginTop
}

// room makes sure h points fit above the bottom margin, else starts a new page.
func (l *layout) room(h float64) {
	if l.y-h < marginBot && len(l.pages[len(l.pages)-1]) > 0 {
		l.newPage()
	}
}

func (l *layout) put(st style, x float64, text string) {
	l.room(st.leading)
	l.y -= st.leading
	p := &l.pages[len(l.pages)-1]
	*p = append(*p, textLine{f: st.f, size: st.size, x: x, y: l.y, text: text})
}

func (l *layout) block(b block) {
	switch b.kind {
	case heading:
		st := styles[fmt.Sprintf("h%d", b.level)]
		l.room(st.before + st.leading + st.keepWithNext)
		l.y -= st.before
		for _, line := range wrap(st, b.text, textWidth0) {
			l.put(st, marginLeft, line)
		}
		l.y -= st.after
	case paragraph:
		st := styles["body"]
		for _, line := range wrap(st, b.text, textWidth0) {
			l.put(st, marginLeft, line)
		}
		l.y -= st.after
	case listItem:
		l.listItem(b)
	case table:
		l.table(b.rows)
	}
}

func (l *layout) listItem(b block) {
	st := styles["list"]
	const indent = 14
	for i, line := range wrap(st, b.text, textWidth0-indent) {
		if i == 0 {
			l.put(st, marginLeft, b.mark)
			l.y += st.leading // the text goes on the marker's line
		}
		l.put(st, marginLeft+indent, line)
	}
	l.y -= st.after
}

// footers writes the footer text and the page numbers once the page count is known.
func (l *layout) footers(text string) {
	if text == "" {
		return
	}
	st := style{f: regular, size: 8}
	for i := range l.pages {
		num := fmt.Sprintf("Page %d of %d", i+1, len(l.pages))
		right := pageWidth - marginRight - textWidth(st.f, st.size, num)
		l.pages[i] = append(l.pages[i],
			textLine{f: st.f, size: st.size, x: marginLeft, y: marginBot / 2, text: text},
			textLine{f: st.f, size: st.size, x: right, y: marginBot / 2, text: num})
	}
}

// wrap breaks text into lines no wider than width.
func wrap(st style, text string, width float64) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(text) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if cur != "" && textWidth(st.f, st.size, next) > width {
			lines = append(lines, cur)
			next = w
		}
		cur = next
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
