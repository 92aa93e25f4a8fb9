package gateway

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentenceEnd returns the length of the first complete sentence of s that ends after
// from, or -1 when s holds none yet; resume is then where the next call may start
// scanning, so that text arriving piece by piece is scanned once (linear in its length).
// A sentence ends with a newline, or with . ! ? … (repeated, and followed by closing
// quotes or brackets) followed by a space or a newline; the space is part of the sentence.
// A terminator at the end of s is undecided: more text may follow it. A period inside a
// number (21.956,62) is followed by a digit and ends nothing; a period after an
// abbreviation (e.g., dott., a single initial) ends nothing either.
func sentenceEnd(s []byte, from int) (end, resume int) {
	for i := from; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		switch r {
		case '\n':
			return i + size, 0
		case '.', '!', '?', '…':
			j := i + size
			for j < len(s) {
				r2, n := utf8.DecodeRune(s[j:])
				if !strings.ContainsRune(".!?…\"')]»”’", r2) {
					break
				}
				j += n
			}
			if j >= len(s) {
				return -1, i
			}
			if c := s[j]; (c == ' ' || c == '\n' || c == '\t' || c == '\r') && !(r == '.' && abbreviation(s[:i])) {
				return j + 1, 0
			}
			i = j
			continue
		}
		i += size
	}
	return -1, len(s)
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
func abbreviation(before []byte) bool {
	word := before[bytes.LastIndexAny(before, " \n\t(\"'")+1:]
	if len(word) == 0 || len(word) > 8 {
		return false
	}
	w := strings.ToLower(string(word))
	if abbreviations[w] || strings.Contains(w, ".") {
		return true
	}
	r, n := utf8.DecodeRune(word)
	return n == len(word) && unicode.IsUpper(r)
}
