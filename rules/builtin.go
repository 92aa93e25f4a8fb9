package rules

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// hit is one value a built-in extractor found, with its byte span in the text it scanned.
type hit struct {
	value      any
	start, end int
}

// builtin is a built-in extractor: onOriginal says whether it scans the original (capped) text
// instead of the normalized one. scan appends its hits to hs, an empty buffer the caller
// reuses from question to question, and returns it.
type builtin struct {
	onOriginal bool
	scan       func(text string, now timeFunc, hs []hit) []hit
}

// builtins are the extractors a pack can name with `builtin:` (see rules/README.md, "Extractors").
//
// Scanners are hand-written loops or precompiled RE2 expressions, so every one is linear in
// the text and cannot panic on malformed input.
var builtins = map[string]builtin{
	"year":       {scan: scanYears},
	"number":     {scan: scanNumbers},
	"quoted":     {onOriginal: true, scan: scanQuoted},
	"identifier": {onOriginal: true, scan: scanIdentifiers},
	"decorator":  {onOriginal: true, scan: scanDecorators},
	"call":       {onOriginal: true, scan: scanCalls},
	"path":       {onOriginal: true, scan: scanPaths},
	"date":       {scan: scanDates},
	"date_range": {scan: scanDateRanges},
}

// sortHits orders hits by position and drops those overlapping an earlier (or, at the same
// start, longer) one, so "fy 2023" is not also reported as "2023".
func sortHits(hs []hit) []hit {
	slices.SortStableFunc(hs, func(a, b hit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := hs[:0]
	last := -1
	for _, h := range hs {
		if h.start < last {
			continue
		}
		out = append(out, h)
		last = h.end
	}
	return out
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// byteAt returns s[i], or 0 outside s, so boundary checks need no length tests.
func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

// isREWord reports whether c is a word byte for RE2's \b: ASCII letters, digits and '_' only.
func isREWord(c byte) bool { return isAlnum(c) || c == '_' }

// numberWords are the English and Italian number morphemes parseIntWord composes.
var numberWords = map[string]int{
	"zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
	"fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
	"ninety": 90, "dozen": 12, "couple": 2,
	"uno": 1, "un": 1, "una": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7,
	"otto": 8, "nove": 9, "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13, "quattordici": 14,
	"quindici": 15, "sedici": 16, "diciassette": 17, "diciotto": 18, "diciannove": 19,
	"venti": 20, "vent": 20, "trenta": 30, "trent": 30, "quaranta": 40, "quarant": 40,
	"cinquanta": 50, "cinquant": 50, "sessanta": 60, "sessant": 60, "settanta": 70, "settant": 70,
	"ottanta": 80, "ottant": 80, "novanta": 90, "novant": 90, "dozzina": 12,
}

// numberScales multiply what precedes them.
var numberScales = map[string]int{"hundred": 100, "cento": 100, "thousand": 1000, "mille": 1000, "mila": 1000}

// parseIntWord reads an integer written in digits or as an English/Italian number word
// ("10", "ten", "dieci", "twenty", "venti", "twenty-five", "venticinque", "hundred", "cento", up to 1000; "a dozen"/"una dozzina" = 12).
func parseIntWord(s string) (int, bool) {
	s = strings.TrimSpace(normalizeTerm(s, normOptions{lowercase: true, foldDiacritics: true, collapseWhitespace: true}))
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	if s == "" || len(s) > 100 {
		return 0, false
	}
	total, cur, seen := 0, 0, false
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' }) {
		if word == "and" || word == "e" {
			continue
		}
		// Italian writes compounds as one word (venticinque, duecentoventi): split greedily
		// into the longest known morphemes.
		for word != "" {
			k := longestMorpheme(word)
			if k == 0 {
				return 0, false
			}
			m := word[:k]
			word = word[k:]
			seen = true
			switch sc := numberScales[m]; {
			case sc == 100:
				cur = max(cur, 1) * 100
			case sc == 1000:
				total += max(cur, 1) * 1000
				cur = 0
			case m == "dozen" || m == "dozzina":
				cur = max(cur, 1) * 12
			default:
				cur += numberWords[m]
			}
		}
	}
	n := total + cur
	return n, seen && n <= 1000
}

// longestMorpheme returns the length of the longest number morpheme that prefixes w, or 0.
func longestMorpheme(w string) int {
	for k := min(len(w), 11); k > 0; k-- {
		m := w[:k]
		if _, ok := numberWords[m]; ok {
			if (m == "a" || m == "e") && k != len(w) {
				continue // "a"/"e" are articles or conjunctions only as whole words
			}
			return k
		}
		if _, ok := numberScales[m]; ok {
			return k
		}
	}
	return 0
}

// findNear runs re only on windows around spots (byte offsets of anchoring tokens such as
// years), widened by before/after bytes and out to non-word boundaries so \b behaves as on
// the whole text. Dates and year phrases are short and always contain their anchor, so this
// finds the same matches as a full scan at a fraction of the cost on long questions.
func findNear(re *regexp.Regexp, text string, spots []int, before, after int) [][]int {
	var out [][]int
	nearWindows(text, spots, before, after, func(s, e int) {
		for _, m := range re.FindAllStringSubmatchIndex(text[s:e], -1) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += s
				}
			}
			out = append(out, m)
		}
	})
	return out
}

// nearWindows calls fn with the windows findNear scans, in text order.
func nearWindows(text string, spots []int, before, after int, fn func(s, e int)) {
	for i := 0; i < len(spots); {
		s, e := max(0, spots[i]-before), min(len(text), spots[i]+after)
		i++
		for i < len(spots) && spots[i]-before <= e {
			e = min(len(text), spots[i]+after)
			i++
		}
		for s > 0 && isAlnum(text[s-1]) {
			s--
		}
		for e < len(text) && isAlnum(text[e]) {
			e++
		}
		fn(s, e)
	}
}

// eachDigitRun calls fn with the bounds [i, j) of every maximal run of ASCII digits in text.
func eachDigitRun(text string, fn func(i, j int)) {
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		fn(i, j)
		i = j
	}
}

// yearSpots appends to spots the offsets of 4-digit runs: every date and range endpoint
// contains one.
func yearSpots(text string, spots []int) []int {
	eachDigitRun(text, func(i, j int) {
		if j-i == 4 {
			spots = append(spots, i)
		}
	})
	return spots
}

// keywordSpots appends to spots, an empty buffer, the sorted offsets of every occurrence of
// the keywords.
func keywordSpots(spots []int, text string, words ...string) []int {
	for _, w := range words {
		for i := 0; ; {
			k := strings.Index(text[i:], w)
			if k < 0 {
				break
			}
			spots = append(spots, i+k)
			i += k + len(w)
		}
	}
	slices.Sort(spots)
	return spots
}
