package docs

import (
	"fmt"
	"strings"
)

// chunk is one indexed passage.
type chunk struct {
	id      string
	file    string
	page    int
	section string
	text    string
}

// word is a word of a segment and whether it starts a block (a paragraph, list item or
// table row), where a chunk prefers to end and where the text keeps a line break.
type word struct {
	s     string
	start bool
}

// chunkBlocks splits a file's blocks into passages of at most size words. A passage never
// spans two sections or two PDF pages, so its section and page are exact; within a long
// section consecutive passages share overlap words, and a passage ends at a block
// boundary when one lies in its second half.
func chunkBlocks(name string, blocks []block, size, overlap int) []chunk {
	var out []chunk
	perPage := map[int]int{}
	for _, seg := range segments(blocks) {
		for _, text := range windows(seg.words, size, overlap) {
			perPage[seg.page]++
			out = append(out, chunk{
				id:      chunkID(name, seg.page, perPage[seg.page]),
				file:    name,
				page:    seg.page,
				section: seg.section,
				text:    text,
			})
		}
	}
	return out
}

// chunkID is stable for unchanged input: the file, the PDF page and the passage's ordinal
// on that page ("docs/protocol.pdf#p4.2"), or in the file ("docs/sap.md#7").
func chunkID(name string, page, n int) string {
	if page > 0 {
		return fmt.Sprintf("%s#p%d.%d", name, page, n)
	}
	return fmt.Sprintf("%s#%d", name, n)
}

// segment is a run of blocks on one page under one section.
type segment struct {
	page    int
	section string
	words   []word
}

func segments(blocks []block) []segment {
	var out []segment
	for _, b := range blocks {
		if len(out) == 0 || out[len(out)-1].page != b.page || out[len(out)-1].section != b.section {
			out = append(out, segment{page: b.page, section: b.section})
		}
		s := &out[len(out)-1]
		for i, w := range strings.Fields(b.text) {
			s.words = append(s.words, word{s: w, start: i == 0})
		}
	}
	return out
}

// windows cuts words into texts of at most size words with overlap words repeated.
func windows(words []word, size, overlap int) []string {
	var out []string
	for start := 0; start < len(words); {
		end := min(start+size, len(words))
		if end < len(words) {
			for b := end; b > start+size/2; b-- {
				if words[b].start {
					end = b
					break
				}
			}
		}
		out = append(out, join(words[start:end]))
		if end == len(words) {
			break
		}
		start = max(end-overlap, start+1)
	}
	return out
}

// join writes words with a line break before each block start but the first.
func join(words []word) string {
	var b strings.Builder
	for i, w := range words {
		switch {
		case i == 0:
		case w.start:
			b.WriteByte('\n')
		default:
			b.WriteByte(' ')
		}
		b.WriteString(w.s)
	}
	return b.String()
}
