package docs

import (
	"regexp"
	"strconv"
	"strings"
)

// pdfBlocks turns extracted pages into blocks: running headers and footers removed,
// headings (larger or bold short lines) turned into sections that carry over page breaks,
// lines joined into paragraphs at the larger vertical gaps.
func pdfBlocks(pages [][]pdfLine) []block {
	pages = dropFurniture(pages)
	body := bodySize(pages)
	var out []block
	var secs sections
	for i, lines := range pages {
		var para []string
		flush := func() {
			if len(para) > 0 {
				out = append(out, block{page: i + 1, section: secs.path(), text: strings.Join(para, " ")})
				para = nil
			}
		}
		for _, l := range lines {
			if isPDFHeading(l, body) {
				flush()
				level, ok := headingLevel(l.text)
				if !ok {
					level = 1
				}
				secs.enter(level, l.text)
				continue
			}
			if l.gap > l.size*1.6 || l.gap < 0 {
				flush()
			}
			para = append(para, l.text)
		}
		flush()
	}
	return out
}

// bodySize is the font size most of the text is set in.
func bodySize(pages [][]pdfLine) float64 {
	chars := map[float64]int{}
	for _, lines := range pages {
		for _, l := range lines {
			chars[l.size] += len(l.text)
		}
	}
	best, n := 0.0, -1
	for size, c := range chars {
		if c > n || (c == n && size < best) {
			best, n = size, c
		}
	}
	return best
}

// isPDFHeading: a short line without a sentence end, set larger than the body or in bold.
func isPDFHeading(l pdfLine, body float64) bool {
	words := strings.Fields(l.text)
	if len(words) == 0 || len(words) > 14 || strings.HasSuffix(l.text, ".") {
		return false
	}
	return l.size >= body*1.12 || (l.bold && l.size >= body*0.95)
}

var digitsRE = regexp.MustCompile(`\d+`)

// dropFurniture removes running headers and footers: lines among the first or last two of
// a page whose text, with the page's number and the page count masked, recurs on at least
// 60% of the pages (3 or more). Only those two numbers are masked, so that body lines that
// differ by a number ("Visit 3", "Visit 4") are never taken for furniture.
func dropFurniture(pages [][]pdfLine) [][]pdfLine {
	if len(pages) < 3 {
		return pages
	}
	count := map[string]int{}
	for i, lines := range pages {
		seen := map[string]bool{}
		for j, l := range lines {
			k := maskPage(l.text, i+1, len(pages))
			if edge(j, len(lines)) && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	out := make([][]pdfLine, len(pages))
	for i, lines := range pages {
		for j, l := range lines {
			if edge(j, len(lines)) && count[maskPage(l.text, i+1, len(pages))]*5 >= len(pages)*3 {
				continue
			}
			out[i] = append(out[i], l)
		}
	}
	return out
}

// maskPage replaces the numbers page and total in text by "#".
func maskPage(text string, page, total int) string {
	p, n := strconv.Itoa(page), strconv.Itoa(total)
	return digitsRE.ReplaceAllStringFunc(text, func(d string) string {
		if d == p || d == n {
			return "#"
		}
		return d
	})
}

func edge(j, n int) bool { return j < 2 || j >= n-2 }
