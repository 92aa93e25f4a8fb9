package docs

import (
	"reflect"
	"strings"
	"testing"
)

func wordsOf(paras ...string) []word {
	var out []word
	for _, p := range paras {
		for i, w := range strings.Fields(p) {
			out = append(out, word{s: w, start: i == 0})
		}
	}
	return out
}

func TestWindows(t *testing.T) {
	tests := []struct {
		name          string
		words         []word
		size, overlap int
		want          []string
	}{
		{"fits in one", wordsOf("a b c"), 5, 1, []string{"a b c"}},
		{"overlap repeats words", wordsOf("1 2 3 4 5 6 7 8 9 10"), 4, 1, []string{"1 2 3 4", "4 5 6 7", "7 8 9 10"}},
		{"no overlap", wordsOf("1 2 3 4 5 6"), 3, 0, []string{"1 2 3", "4 5 6"}},
		{"ends at a paragraph in the second half", wordsOf("1 2 3", "4 5 6 7 8"), 4, 1, []string{"1 2 3", "3\n4 5 6", "6 7 8"}},
		{"ignores a paragraph in the first half", wordsOf("1", "2 3 4 5 6"), 4, 0, []string{"1\n2 3 4", "5 6"}},
		{"paragraphs kept as lines", wordsOf("a b", "c d"), 10, 2, []string{"a b\nc d"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := windows(tc.words, tc.size, tc.overlap); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("windows = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestChunkBlocks(t *testing.T) {
	blocks := []block{
		{page: 1, section: "1 Intro", text: "alpha beta"},
		{page: 1, section: "1 Intro", text: "gamma"},
		{page: 1, section: "2 Design", text: "delta"},
		{page: 2, section: "2 Design", text: "epsilon zeta eta theta"},
	}
	got := chunkBlocks("docs/p.pdf", blocks, 3, 1)
	want := []chunk{
		{id: "docs/p.pdf#p1.1", file: "docs/p.pdf", page: 1, section: "1 Intro", text: "alpha beta\ngamma"},
		{id: "docs/p.pdf#p1.2", file: "docs/p.pdf", page: 1, section: "2 Design", text: "delta"},
		{id: "docs/p.pdf#p2.1", file: "docs/p.pdf", page: 2, section: "2 Design", text: "epsilon zeta eta"},
		{id: "docs/p.pdf#p2.2", file: "docs/p.pdf", page: 2, section: "2 Design", text: "eta theta"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunkBlocks =\n%+v\nwant\n%+v", got, want)
	}
	md := chunkBlocks("sap.md", []block{{section: "A", text: "x"}, {section: "B", text: "y"}}, 10, 2)
	if md[0].id != "sap.md#1" || md[1].id != "sap.md#2" || md[1].page != 0 {
		t.Errorf("markdown chunk ids = %+v", md)
	}
}

// TestChunkIDsStable: the same input gives the same ids, so an unchanged file keeps its
// citations across rebuilds.
func TestChunkIDsStable(t *testing.T) {
	blocks := parseMarkdown("# A\n\none two three\n\n# B\n\nfour\n")
	a, b := chunkBlocks("f.md", blocks, 20, 2), chunkBlocks("f.md", blocks, 20, 2)
	if !reflect.DeepEqual(a, b) || len(a) != 2 {
		t.Errorf("chunks differ or wrong count: %+v / %+v", a, b)
	}
}
