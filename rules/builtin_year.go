package rules

import (
	"strconv"
	"strings"
)

// scanFY reads fiscal years (fy2023, fy23, fy 2023, fy-2023) exactly as the expression
// `\bfy[ -]?(\d{4}|\d{2})\b` would, without running a regex over the whole text.
func scanFY(text string, hs []hit) []hit {
	for i := 0; i+2 < len(text); {
		k := strings.Index(text[i:], "fy")
		if k < 0 {
			break
		}
		s := i + k
		i = s + 1
		if isREWord(byteAt(text, s-1)) {
			continue
		}
		j := s + 2
		if c := byteAt(text, j); c == ' ' || c == '-' {
			j++
		}
		n := 0
		for j+n < len(text) && isDigit(text[j+n]) {
			n++
		}
		if n != 2 && n != 4 || isREWord(byteAt(text, j+n)) {
			continue
		}
		y, _ := strconv.Atoi(text[j : j+n])
		if n == 2 {
			y += 2000
		}
		hs = append(hs, hit{yearValue(y), s, j + n})
		i = j + n
	}
	return hs
}

// relYearPhrases are the fixed relative-year phrases, by the year they mean relative to the
// clock: last, this and next year. relYearTails end the counted form "<number> years ago".
var (
	relYearPhrases = [3][]string{
		{"last year", "previous year", "past year", "l'anno scorso", "anno scorso", "lo scorso anno", "l'anno passato",
			"anno passato", "a year ago", "a year fa", "a years ago", "a years fa", "an year ago", "an year fa",
			"an years ago", "an years fa", "one year ago", "one year fa", "one years ago", "one years fa",
			"un year ago", "un year fa", "un years ago", "un years fa", "un anno fa"},
		{"this year", "current year", "quest'anno", "questo anno", "l'anno corrente", "anno corrente", "anno in corso"},
		{"next year", "l'anno prossimo", "anno prossimo", "il prossimo anno", "prossimo anno"},
	}
	relYearTails = []string{" years ago", " anni fa"}
	// relYearByFirst holds the phrases by their first byte, in the order above (the first
	// match wins), each with the years it adds to the clock.
	relYearByFirst = func() (idx [256][]relPhrase) {
		for g, phrases := range relYearPhrases {
			for _, ph := range phrases {
				idx[ph[0]] = append(idx[ph[0]], relPhrase{ph, g - 1})
			}
		}
		return idx
	}()
)

// relPhrase is a relative-year phrase and the years it adds to the clock.
type relPhrase struct {
	text  string
	delta int
}

// scanRelYears finds years relative to the clock. It scans only windows around the keywords
// every phrase contains, and reads each window as the expression
// `\b(?:(LAST)|(THIS)|(NEXT)|([a-z0-9]+(?:-[a-z]+)?) (?:years ago|anni fa))\b` would (the
// phrases above, first group first), without running a regex.
func scanRelYears(text string, now timeFunc, hs []hit) []hit {
	var buf [8]int
	year := 0
	nearWindows(text, keywordSpots(buf[:0], text, "year", "anno", "anni"), 32, 24, func(ws, we int) {
		w := text[ws:we]
		for i := 0; i < len(w); {
			end, delta, valid := relYearAt(w, i)
			if end < 0 {
				i++
				continue
			}
			if valid {
				if year == 0 {
					year = now().Year() // the clock is read only for a relative year
				}
				hs = append(hs, hit{yearValue(year + delta), ws + i, ws + end})
			}
			i = end // a match is consumed even when its number does not parse
		}
	})
	return hs
}

// relYearAt matches a relative-year phrase at w[i:], returning its end (-1: none) and the
// years it adds to the clock; valid is false for a counted form whose number does not read.
func relYearAt(w string, i int) (end, delta int, valid bool) {
	if isREWord(byteAt(w, i-1)) || !isREWord(w[i]) {
		return -1, 0, false
	}
	for _, ph := range relYearByFirst[w[i]] {
		if strings.HasPrefix(w[i:], ph.text) && !isREWord(byteAt(w, i+len(ph.text))) {
			return i + len(ph.text), ph.delta, true
		}
	}
	j := i
	for j < len(w) && (isDigit(w[j]) || 'a' <= w[j] && w[j] <= 'z') {
		j++
	}
	if j == i {
		return -1, 0, false
	}
	k := j
	if byteAt(w, k) == '-' && 'a' <= byteAt(w, k+1) && byteAt(w, k+1) <= 'z' {
		for k++; k < len(w) && 'a' <= w[k] && w[k] <= 'z'; k++ {
		}
	}
	for _, tail := range relYearTails {
		if strings.HasPrefix(w[k:], tail) && !isREWord(byteAt(w, k+len(tail))) {
			n, ok := parseIntWord(w[i:k])
			return k + len(tail), -n, ok && n <= 1000
		}
	}
	return -1, 0, false
}

// scanYears finds absolute, fiscal and relative years.
func scanYears(text string, now timeFunc, hs []hit) []hit {
	eachDigitRun(text, func(i, j int) {
		if j-i == 4 && !isLetter(byteAt(text, i-1)) && !isLetter(byteAt(text, j)) && !isAmount(text, i, j) {
			if y, _ := strconv.Atoi(text[i:j]); y >= 1900 && y <= 2099 {
				hs = append(hs, hit{yearValue(y), i, j})
			}
		}
	})
	hs = scanFY(text, hs)
	hs = scanRelYears(text, now, hs)
	return sortHits(hs)
}

// yearValues holds the years 1900–2099 boxed once: a year found in a question then costs no
// allocation.
var yearValues = func() (vs [200]any) {
	for i := range vs {
		vs[i] = 1900 + i
	}
	return vs
}()

// yearValue returns y as an any, from yearValues when it is there.
func yearValue(y int) any {
	if y >= 1900 && y < 2100 {
		return yearValues[y-1900]
	}
	return y
}

// currencies are the words and symbols that make the number before them an amount of
// money; currencySymbols may also stand before it ("$2000", "€ 1999").
var (
	currencies      = []string{"euro", "euros", "eur", "€", "$", "usd", "dollars", "dollar", "dollari", "dollaro", "£", "gbp", "pounds", "sterline"}
	currencySymbols = []string{"$", "€", "£"}
)

// isAmount reports whether the digits text[i:j] are an amount of money, not a year: "tra
// 1000 e 2000 euro", "$2000", "€ 1999". A currency word must end at a word boundary
// ("2024 europe" is a year).
func isAmount(text string, i, j int) bool {
	after := text[j:]
	after = strings.TrimPrefix(after, " ")
	for _, c := range currencies {
		if strings.HasPrefix(after, c) && (!isREWord(c[0]) || !isREWord(byteAt(after, len(c)))) {
			return true
		}
	}
	before := strings.TrimSuffix(text[:i], " ")
	for _, c := range currencySymbols {
		if strings.HasSuffix(before, c) {
			return true
		}
	}
	return false
}
