// Package mdpdf renders a small Markdown subset (headings, paragraphs, lists, pipe tables) to
// a PDF with a real text layer, so that Weir's demo documents and the document tests have PDFs
// that can be rebuilt byte for byte from their Markdown source: no dates, no compression, the
// standard Helvetica and Courier fonts in WinAnsi encoding, one text object per line.
package mdpdf

import (
	"bytes"
	"fmt"
	"strings"
)

// font is one of the standard fonts the writer declares on every page.
type font struct {
	res  string // the resource name in content streams
	base string // the standard-14 font name
}

var (
	regular = font{"F1", "Helvetica"}
	bold    = font{"F2", "Helvetica-Bold"}
	mono    = font{"F3", "Courier"}
	fonts   = []font{regular, bold, mono}
)

// textLine is one line of text placed on a page.
type textLine struct {
	f    font
	size float64
	x, y float64
	text string
}

// writer assembles PDF objects and their cross-reference table.
type writer struct {
	buf     bytes.Buffer
	offsets []int // byte offset of object i+1
}

func (w *writer) object(body string) int {
	w.offsets = append(w.offsets, w.buf.Len())
	n := len(w.offsets)
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", n, body)
	return n
}

// reserve allocates an object number whose body is written later with fill.
func (w *writer) reserve() int {
	w.offsets = append(w.offsets, -1)
	return len(w.offsets)
}

func (w *writer) fill(n int, body string) {
	w.offsets[n-1] = w.buf.Len()
	fmt.Fprintf(&w.buf, "%d 0 obj\n%s\nendobj\n", n, body)
}

// encode writes pages of lines as a complete PDF file.
func encode(title string, width, height float64, pages [][]textLine) []byte {
	w := &writer{}
	w.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	catalog := w.reserve()
	pagesObj := w.reserve()
	fontRefs := make([]string, len(fonts))
	for i, f := range fonts {
		n := w.object(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 255 /Widths %s >>", f.base, widthsArray(f)))
		fontRefs[i] = fmt.Sprintf("/%s %d 0 R", f.res, n)
	}
	resources := "<< /Font << " + strings.Join(fontRefs, " ") + " >> >>"
	kids := make([]string, len(pages))
	for i, lines := range pages {
		content := contentStream(lines)
		c := w.object(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
		p := w.object(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %s %s] /Resources %s /Contents %d 0 R >>",
			pagesObj, num(width), num(height), resources, c))
		kids[i] = fmt.Sprintf("%d 0 R", p)
	}
	w.fill(pagesObj, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)))
	w.fill(catalog, fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj))
	info := w.object(fmt.Sprintf("<< /Title %s /Producer (Weir mdpdf) >>", pdfString(title)))
	xref := w.buf.Len()
	fmt.Fprintf(&w.buf, "xref\n0 %d\n0000000000 65535 f \n", len(w.offsets)+1)
	for _, off := range w.offsets {
		fmt.Fprintf(&w.buf, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&w.buf, "trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(w.offsets)+1, catalog, info, xref)
	return w.buf.Bytes()
}

func contentStream(lines []textLine) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "BT /%s %s Tf %s %s Td %s Tj ET\n", l.f.res, num(l.size), num(l.x), num(l.y), pdfString(l.text))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// num formats a coordinate with at most two decimals and no trailing zeros.
func num(v float64) string {
	s := strings.TrimRight(fmt.Sprintf("%.2f", v), "0")
	return strings.TrimSuffix(s, ".")
}

// pdfString is s as a PDF literal string in WinAnsi encoding.
func pdfString(s string) string {
	var b strings.Builder
	b.WriteByte('(')
	for _, c := range winAnsi(s) {
		switch c {
		case '(', ')', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(')')
	return b.String()
}

func widthsArray(f font) string {
	parts := make([]string, 0, 224)
	for c := 32; c <= 255; c++ {
		parts = append(parts, fmt.Sprint(glyphWidth(f, byte(c))))
	}
	return "[" + strings.Join(parts, " ") + "]"
}
