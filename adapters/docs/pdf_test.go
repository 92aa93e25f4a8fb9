package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// longDoc is Markdown that fills several pages: section 1 with paragraphs para0-para99
// carrying alphaword, then section 2 with betaword.
func longDoc() string {
	var b strings.Builder
	b.WriteString("# Test protocol\n\n## 1 Alpha\n\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "Paragraph para%d about alphaword, long enough to take a line or two of the page when it is laid out.\n\n", i)
	}
	b.WriteString("## 2 Beta\n\nThe betaword section.\n")
	return b.String()
}

func TestExtractPDFPages(t *testing.T) {
	pages, err := extractPDF([]byte(pdfOf(longDoc())))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 3 {
		t.Fatalf("%d pages, want at least 3", len(pages))
	}
	blocks := pdfBlocks(pages)
	last, seen := 0, map[int]bool{}
	if len(blocks) != 101 {
		t.Errorf("%d blocks, want the 101 paragraphs (none taken for a running footer)", len(blocks))
	}
	for _, b := range blocks {
		if strings.Contains(b.text, "Test document") || strings.Contains(b.text, "Page ") {
			t.Errorf("page furniture left in block on page %d: %q", b.page, b.text)
		}
		if b.page < last {
			t.Errorf("pages go backwards: %d after %d", b.page, last)
		}
		last, seen[b.page] = b.page, true
		want := "1 Alpha" // a numbered heading's level is its number's depth: 1 replaces the title
		if strings.Contains(b.text, "betaword") {
			want = "2 Beta"
		}
		if b.section != want {
			t.Errorf("block on page %d %.30q: section %q, want %q", b.page, b.text, b.section, want)
		}
	}
	for p := 1; p <= len(pages); p++ {
		if !seen[p] {
			t.Errorf("no text on page %d", p)
		}
	}
	if !strings.HasPrefix(blocks[0].text, "Paragraph para0 about alphaword") || blocks[0].page != 1 {
		t.Errorf("first block = %+v", blocks[0])
	}
}

func TestPageLines(t *testing.T) {
	glyphs := []pdf.Text{
		{Font: "Helvetica-Bold", FontSize: 12, X: 10, Y: 700, W: 6, S: "H"},
		{Font: "Helvetica-Bold", FontSize: 12, X: 16, Y: 700, W: 6, S: "i"},
		{Font: "Helvetica", FontSize: 10, X: 10, Y: 684, W: 5, S: "a"},
		{Font: "Helvetica", FontSize: 10, X: 30, Y: 684, W: 5, S: "b"}, // a gap: an implicit space
		{Font: "Helvetica", FontSize: 10, X: 10, Y: 650, W: 5, S: "c"},
	}
	got := pageLines(glyphs)
	want := []pdfLine{{text: "Hi", size: 12, bold: true}, {text: "a b", size: 10, gap: 16}, {text: "c", size: 10, gap: 34}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pageLines = %+v, want %+v", got, want)
	}
}

func TestPDF20Header(t *testing.T) {
	data := []byte(pdfOf("# Title\n\nSome text.\n"))
	copy(data, "%PDF-2.0")
	pages, err := extractPDF(data)
	if err != nil || len(pages) != 1 || pages[0][1].text != "Some text." {
		t.Fatalf("PDF 2.0 header: %v %+v", err, pages)
	}
}

// TestBadPDF: broken files are errors that name the file, never a panic.
func TestBadPDF(t *testing.T) {
	good := pdfOf("# T\n\ntext\n")
	tests := map[string]string{
		"text.pdf":      "just some text, not a PDF\n",
		"empty.pdf":     "",
		"truncated.pdf": good[:len(good)/2],
		"badxref.pdf":   "%PDF-1.4\n1 0 obj\n<< >>\nendobj\nstartxref\n999999\n%%EOF\n",
		"badobjs.pdf":   strings.Replace(good, "/Type /Pages", "/Type /Pages /Kids 7", 1),
		// Tj with two operands: the reader panics inside the content stream
		"badcontent.pdf": strings.Replace(good, " Td (", " Tj (", 1),
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{name: content})
			_, err := Open(context.Background(), Config{Name: "d", BaseDir: dir, Paths: []string{name}})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), filepath.Join(dir, name)) {
				t.Errorf("error does not name the file: %v", err)
			}
		})
	}
}

// TestDemoProtocolExtracts: the shipped PDF has a text layer on every page.
func TestDemoProtocolExtracts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(clinicalDocs, "protocol.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := extractPDF(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, lines := range pages {
		if len(lines) < 10 {
			t.Errorf("page %d has %d lines", i+1, len(lines))
		}
	}
}
