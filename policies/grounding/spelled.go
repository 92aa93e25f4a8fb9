package grounding

import "strconv"

// Digits spelled one by one and decimals in words: "quattro-otto-due-uno-tre
// virgola sette-sette", "four eight two one three point seven seven",
// "ventuno virgola nove", "zero point five", "tre virgola due milioni". A
// reader reads them as the digits they spell, so they are read as those
// digits: "quattro-otto-due-uno-tre virgola sette-sette euro" is 48213.77 €
// at the precision of "48213,77", "tre virgola due milioni" is "3,2 milioni".
//
//   - Digits one by one need at least three digit words ("zero" to "nine",
//     "zero" to "nove"): two are a range in Italian prose ("due-tre giorni",
//     "in due tre settimane") and a score ("tre-uno").
//   - A decimal word — "point" in English, "virgola" in Italian — after a
//     number phrase or digit words, followed by digit words or a small
//     number phrase ("virgola venticinque"), makes a decimal, whatever its
//     size: "tre virgola cinque per cento" is 3.5%. Italian "punto" is not
//     read: "il punto due del piano" names a point.

// decimalWords separate the integer and the fraction of a spelled number.
var decimalWords = map[string]bool{"point": true, "virgola": true}

// maxSpelled bounds the digits of a spelled number: its words, or an
// integer phrase's digits, and the decimal point.
const maxSpelled = maxPhraseWords + 24

// spelled reads the number at words as digits spelled one by one or as a
// decimal in words; p and n are the number phrase evalPhrase read there.
// It reports false for number words the usual rules read (words.go).
func (ph *phraseBuf) spelled(s string, words []phraseWord, p phrase, n int) (token, int, bool) {
	var buf [maxSpelled]byte
	digits := buf[:0]
	k := digitWords(words)
	var end int
	switch {
	case k >= 3:
		digits, end = appendDigits(digits, words[:k]), words[k-1].end
	case n > 0 && !p.half && p.total+p.cur == float64(int64(p.total+p.cur)):
		digits, end = strconv.AppendInt(digits, int64(p.total+p.cur), 10), words[n-1].end
	case k > 0: // "zero"
		digits, end = appendDigits(digits, words[:k]), words[k-1].end
	default:
		return token{}, 0, false
	}
	intLen := len(digits)
	// The fraction's words take the room the phrase left in ph.words.
	digits, fend := fraction(s, end, append(digits, '.'), ph.words[len(words):len(words)])
	if len(digits) == intLen+1 {
		if k < 3 {
			return token{}, 0, false
		}
		digits, fend = digits[:intLen], end
	}
	decAt := -1
	if len(digits) > intLen {
		decAt = 1
	}
	nm := scanNumeral(string(digits), 0)
	t := token{}
	t.reads[0], t.nreads = nm.read(string(digits), decAt), 1
	sf := readSuffix(s, fend, false)
	if sf.ident || sf.ordinal {
		return token{}, 0, false
	}
	t.Start, t.End = words[0].start, sf.end
	t.Text = s[t.Start:t.End]
	t.scale, t.Percent, t.Currency = sf.scale, sf.pct, sf.currency
	t.setValue()
	return t, t.End, true
}

// fraction appends the digits of the fraction that a decimal word after end
// introduces ("virgola sette-sette", "point five", "virgola venticinque")
// and returns where it ends; digits come back unchanged when there is none.
// Its words are read into room.
func fraction(s string, end int, digits []byte, room []phraseWord) ([]byte, int) {
	if end >= len(s) || s[end] != ' ' {
		return digits, end
	}
	j := wordEnd(s, end+1)
	if !decimalWords[lowerWord(s[end+1:j])] || j+1 >= len(s) || s[j] != ' ' || !isLetterAt(s, j+1) {
		return digits, end
	}
	words := readPhrase(s, j+1, room)
	if k := digitWords(words); k > 0 {
		return appendDigits(digits, words[:k]), words[k-1].end
	}
	p, n := evalPhrase(words)
	v := p.total + p.cur
	if n == 0 || p.half || p.scale != 1 || v != float64(int64(v)) {
		return digits, end
	}
	return strconv.AppendInt(digits, int64(v), 10), words[n-1].end
}

// digitWords counts the words at the start of words that are one digit
// each: "quattro", "otto", "four", "zero" (not the article "un", "a").
func digitWords(words []phraseWord) int {
	k := 0
	for k < len(words) && words[k].n == 1 && (words[k].parts[0].kind == mUnit || words[k].parts[0].kind == mZero) {
		k++
	}
	return k
}

func appendDigits(b []byte, words []phraseWord) []byte {
	for _, w := range words {
		b = append(b, byte('0'+int(w.parts[0].v)))
	}
	return b
}
