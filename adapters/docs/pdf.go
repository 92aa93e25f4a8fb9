package docs

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfLine is one line of text on a PDF page as the reader sees it.
type pdfLine struct {
	text string
	size float64 // font size of its first glyph
	bold bool    // every glyph in a bold font
	gap  float64 // vertical distance from the previous line's baseline (0 for a page's first)
}

// extractPDF returns the lines of every page of a PDF, page 1 first. The reader library
// signals malformed input by panicking; those panics become errors here.
func extractPDF(data []byte) (pages [][]pdfLine, err error) {
	defer func() {
		if r := recover(); r != nil {
			pages, err = nil, fmt.Errorf("malformed PDF: %v", r)
		}
	}()
	r, err := pdf.NewReader(pdf2Header(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	n := r.NumPage()
	for i := 1; i <= n; i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			return nil, fmt.Errorf("page %d of %d is missing", i, n)
		}
		pages = append(pages, pageLines(p.Content().Text))
	}
	return pages, nil
}

// pdf2Header presents a PDF 2.0 file with a 1.7 header: the reader accepts only 1.x headers,
// and the parts of the format it reads (objects, xref, content streams) did not change.
func pdf2Header(data []byte) io.ReaderAt {
	if bytes.HasPrefix(data, []byte("%PDF-2.")) {
		patched := bytes.Clone(data[:8])
		copy(patched[5:], "1.7")
		return io.NewSectionReader(multiReaderAt{patched, data}, 0, int64(len(data)))
	}
	return bytes.NewReader(data)
}

// multiReaderAt reads head over the first bytes of data.
type multiReaderAt struct{ head, data []byte }

func (m multiReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := bytes.NewReader(m.data).ReadAt(p, off)
	for i := 0; i < n && off+int64(i) < int64(len(m.head)); i++ {
		p[i] = m.head[off+int64(i)]
	}
	return n, err
}

// pageLines rebuilds lines from positioned glyphs in content order: a baseline move of
// more than half the font size starts a line, and a horizontal jump past the previous
// glyph's end adds the space that PDFs often leave implicit.
func pageLines(glyphs []pdf.Text) []pdfLine {
	var lines []pdfLine
	var cur *pdfLine
	var b strings.Builder
	var lastY, lastEnd float64
	bold := true
	end := func() {
		if cur != nil {
			cur.text = strings.Join(strings.Fields(b.String()), " ")
			cur.bold = bold
			if cur.text != "" {
				lines = append(lines, *cur)
			}
		}
		b.Reset()
		bold = true
	}
	for _, g := range glyphs {
		if g.S == "\n" || g.S == "" {
			continue
		}
		size := math.Max(g.FontSize, 1)
		switch {
		case cur == nil || math.Abs(g.Y-lastY) > size/2:
			gap := 0.0
			if cur != nil {
				gap = lastY - g.Y
			}
			end()
			cur = &pdfLine{size: size, gap: gap}
			lastY = g.Y
		case g.X > lastEnd+size*0.2 && !strings.HasSuffix(b.String(), " ") && g.S != " ":
			b.WriteByte(' ')
		}
		b.WriteString(g.S)
		lastEnd = g.X + g.W
		bold = bold && isBoldFont(g.Font)
	}
	end()
	return lines
}

func isBoldFont(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "bold") || strings.Contains(n, "black") || strings.Contains(n, "heavy")
}
