package docs

import "strings"

// snippetWords is the length of a snippet.
const snippetWords = 30

// snippet returns the window of text with the most distinct matching terms, with "…"
// where it cuts the text. Text that fits is returned whole.
func snippet(text string, t terms) string {
	words := strings.Fields(text)
	if len(words) <= snippetWords {
		return strings.Join(words, " ")
	}
	hits := make([]string, len(words)) // the term key each word matches, or ""
	for i, w := range words {
		for _, tok := range tokens(w) {
			if t.matches(tok) {
				hits[i] = tok
				break
			}
		}
	}
	best, bestScore := 0, -1
	for start := 0; start+snippetWords <= len(words); start++ {
		distinct := map[string]bool{}
		for _, h := range hits[start : start+snippetWords] {
			if h != "" {
				distinct[h] = true
			}
		}
		if len(distinct) > bestScore {
			best, bestScore = start, len(distinct)
		}
	}
	s := strings.Join(words[best:best+snippetWords], " ")
	if best > 0 {
		s = "…" + s
	}
	if best+snippetWords < len(words) {
		s += "…"
	}
	return s
}
