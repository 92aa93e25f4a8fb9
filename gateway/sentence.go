package gateway

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentenceEnd returns the length of the first complete sentence of s, or -1 when s holds
// none yet. A sentence ends with a newline, or with . ! ? … (repeated, and followed by
// closing quotes or brackets) followed by a space or a newline; the space is part of the
// sentence. A terminator at the end of s is undecided: more text may follow it. A period
// inside a number (21.956,62) is followed by a digit and ends nothing; a period after an
// abbreviation (e.g., dott., a single initial) ends nothing either.
func sentenceEnd(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n':
			return i + size
		case '.', '!', '?', '…':
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRuneInString(s[j:])
				if !strings.ContainsRune(".!?…\"')]»”’", r2) {
					break
				}
				j += n
			}
			if j >= len(s) {
				return -1
			}
			if c := s[j]; (c == ' ' || c == '\n' || c == '\t' || c == '\r') && !(r == '.' && abbreviation(s[:i])) {
				return j + 1
			}
			i = j
			continue
		}
		i += size
	}
	return -1
}

// abbreviations are words whose period does not end a sentence (lower case, without the
// period).
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "vs": true, "ca": true, "cfr": true, "es": true, "ecc": false,
	"dott": true, "sig": true, "prof": true, "dr": true, "mr": true, "mrs": true, "ms": true,
	"nr": true, "n": true, "pag": true, "art": true, "approx": true, "etc": false,
}

// abbreviation reports whether the word before a period is an abbreviation: a listed
// word, a word with a period of its own (e.g, U.S) or a single capital letter (an initial).
func abbreviation(before string) bool {
	word := before[strings.LastIndexAny(before, " \n\t(\"'")+1:]
	if word == "" {
		return false
	}
	w := strings.ToLower(word)
	if abbreviations[w] || strings.Contains(w, ".") {
		return true
	}
	r, n := utf8.DecodeRuneInString(word)
	return n == len(word) && unicode.IsUpper(r)
}
