package docs

import (
	"strings"
	"unicode/utf8"
)

// snippetWords is the most words a snippet holds.
const snippetWords = 40

// snippet returns the stretch of text, starting at a sentence, that best matches the
// terms: the one with the largest sum of distinct matched terms, each weighted by its
// length (longer words are rarer: a stand-in for IDF that needs no corpus statistics)
// and less the further from the start it is, so that the snippet begins with its match.
// "…" marks where it cuts the text; text that fits is returned whole.
func snippet(text string, t terms) string {
	words := strings.Fields(text)
	if len(words) <= snippetWords {
		return strings.Join(words, " ")
	}
	hits := make([]string, len(words)) // the term each word matches, or ""
	for i, w := range words {
		for _, tok := range tokens(w) {
			if k := t.match(tok); k != "" {
				hits[i] = k
				break
			}
		}
	}
	best, bestScore := 0, -1.0
	for _, start := range sentenceStarts(words) {
		end := min(start+snippetWords, len(words))
		distinct, score := map[string]bool{}, 0.0
		for k, h := range hits[start:end] {
			if h != "" && !distinct[h] {
				distinct[h] = true
				score += float64(utf8.RuneCountInString(h)) * (1 - float64(k)/(2*snippetWords))
			}
		}
		if score > bestScore {
			best, bestScore = start, score
		}
	}
	end := min(best+snippetWords, len(words))
	s := strings.Join(words[best:end], " ")
	if best > 0 {
		s = "…" + s
	}
	if end < len(words) {
		s += "…"
	}
	return s
}

// sentenceStarts are the indexes of the words that begin a sentence: the first, and each
// after a word ending in . ; : ? or !.
func sentenceStarts(words []string) []int {
	starts := []int{0}
	for i := 1; i < len(words); i++ {
		if strings.ContainsAny(words[i-1][len(words[i-1])-1:], ".;:?!") {
			starts = append(starts, i)
		}
	}
	return starts
}
