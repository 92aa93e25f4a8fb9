package mdpdf

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []block
	}{
		{"heading and paragraph", "# Title\n\nOne\ntwo.\n", []block{{kind: heading, level: 1, text: "Title"}, {kind: paragraph, text: "One two."}}},
		{"deep heading capped at 3", "#### Deep ##\n", []block{{kind: heading, level: 3, text: "Deep"}}},
		{"inline markup removed", "Some **bold**, *em*, `code` and [a link](http://x).\n", []block{{kind: paragraph, text: "Some bold, em, code and a link."}}},
		{"lists", "- one\n  more\n2. two\n", []block{{kind: listItem, mark: "•", text: "one more"}, {kind: listItem, mark: "2.", text: "two"}}},
		{"table without separator row", "| a | b |\n| --- | --- |\n| 1 | 2 |\n", []block{{kind: table, rows: [][]string{{"a", "b"}, {"1", "2"}}}}},
		{"comment is a break", "a\n<!-- x -->\nb\n", []block{{kind: paragraph, text: "a"}, {kind: paragraph, text: "b"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parse(tc.src); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parse = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestWinAnsi(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain (x)", "plain (x)"},
		{"è ± µ", "\xe8 \xb1 \xb5"},
		{"• – —", "\x95 \x96 \x97"},
		{"≥ 15", ">= 15"},
		{"中", "?"},
	}
	for _, tc := range tests {
		if got := string(winAnsi(tc.in)); got != tc.want {
			t.Errorf("winAnsi(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := pdfString(`a(b)\c`); got != `(a\(b\)\\c)` {
		t.Errorf("pdfString = %s", got)
	}
}

func TestWrapChars(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  []string
	}{
		{"one two three", 7, []string{"one two", "three"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"", 4, nil},
	}
	for _, tc := range tests {
		if got := wrapChars(tc.in, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("wrapChars(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

func TestWrapFitsTheTextWidth(t *testing.T) {
	text := strings.Repeat("Participants are randomised in a 1:1:1 ratio to three arms. ", 20)
	for _, line := range wrap(styles["body"], text, textWidth0) {
		if w := textWidth(regular, 10, line); w > textWidth0 {
			t.Errorf("line %q is %.0f pt wide, more than %d", line, w, textWidth0)
		}
	}
}

// TestRenderDeterministic: the same source gives the same bytes (no dates, no map order),
// a well-formed file, and new pages when the text does not fit one.
func TestRenderDeterministic(t *testing.T) {
	src := []byte("# T\n\n" + strings.Repeat("A paragraph of words that fills the page.\n\n", 120))
	a, b := Render(src, Options{Title: "t"}), Render(src, Options{Title: "t"})
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings differ")
	}
	if !bytes.HasPrefix(a, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(a, []byte("%%EOF\n")) {
		t.Errorf("not a PDF file: %q … %q", a[:10], a[len(a)-10:])
	}
	if n := bytes.Count(a, []byte("/Type /Page ")); n < 3 {
		t.Errorf("%d pages, want at least 3", n)
	}
}
