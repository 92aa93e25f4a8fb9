package grounding

import (
	"math"
	"strings"
	"unicode/utf8"
)

// token is a number found by the scanner, with what matching needs.
type token struct {
	Number
	scale  float64    // factor of a scale word ("k", "mln"), 1 when none
	reads  [2]reading // reads[0] is the primary reading
	nreads int
	neg    bool
	amb    byte // separator of an ambiguous numeral ('.' or ','), 0 otherwise
	zeros  bool // the ambiguous numeral ends in "000" ("25.000", "1,000")
	out    bool // the value is out of the range of float64: never grounded
}

// Extract finds the quantities in text as people write them (English and
// Italian). See the package documentation for what counts as a quantity.
func Extract(text string) []Number {
	toks := extract(text)
	out := make([]Number, len(toks))
	for i := range toks {
		out[i] = toks[i].Number
	}
	return out
}

// extract scans the folded text (see fold) and reports spans in the
// original one.
func extract(orig string) []token {
	f := fold(orig)
	toks := scan(f.s)
	if f.segs != nil {
		for k := range toks {
			t := &toks[k]
			t.Start, t.End = f.start(t.Start), f.end(t.End)
			t.Text = orig[t.Start:t.End]
		}
	}
	return toks
}

// scan finds the quantities of a folded text.
func scan(s string) []token {
	toks := make([]token, 0, digitRuns(s))
	var st style
	masks := findMasks(s)
	mi, floor := 0, 0
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		for mi < len(masks) && masks[mi].end <= i {
			mi++
		}
		if mi < len(masks) && masks[mi].start <= i {
			i = masks[mi].end
			continue
		}
		if l := identifierBefore(s, i); l != labelNone && !labelledQuantity(s, i, l) {
			i = skipIdentifier(s, i)
			continue
		}
		if end, ok := dateOrTime(s, i); ok {
			i = end
			continue
		}
		if end, ok := phoneEnd(s, i); ok {
			i = end
			continue
		}
		t, end, ok := scanNumber(s, i, floor, &st)
		if ok {
			floor = t.End
			toks = append(toks, t)
		}
		i = end
	}
	toks = addWordNumbers(s, toks, masks)
	linkRanges(s, toks)
	resolveStyle(s, toks, st)
	return toks
}

// addWordNumbers adds the numbers written in words (see words.go) to the
// numbers written in digits, in text order. Words inside a digit number
// ("22 mila") or a masked span are not read again.
func addWordNumbers(s string, toks []token, masks []span) []token {
	var words []token
	var ph phraseBuf
	mi, ti := 0, 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			i++
			continue
		}
		if !isLetterAt(s, i) {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		end := wordEnd(s, i)
		for ti < len(toks) && toks[ti].End <= i {
			ti++
		}
		for mi < len(masks) && masks[mi].end <= i {
			mi++
		}
		inside := ti < len(toks) && toks[ti].Start <= i || mi < len(masks) && masks[mi].start <= i
		if !inside && mayStartNumber(s, i) && (i == 0 || !isDigit(s[i-1])) {
			if t, e, ok := ph.wordNumber(s, i); ok && (ti >= len(toks) || e <= toks[ti].Start) {
				words = append(words, t)
				end = e
			}
		}
		i = end
	}
	if len(words) == 0 {
		return toks
	}
	return mergeTokens(toks, words)
}

// mergeTokens merges two lists of tokens sorted by start.
func mergeTokens(a, b []token) []token {
	out := make([]token, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Start <= b[0].Start {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// digitRuns counts the runs of digits in s, a bound on the numbers in it.
func digitRuns(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); i++ {
		d := isDigit(s[i])
		if d && !in {
			n++
		}
		in = d
	}
	return n
}

// scanNumber reads the quantity whose digits start at i. It returns the end
// of what it consumed and false when the digits are no quantity. Its prefix
// may not reach back before floor, the end of the previous number.
func scanNumber(s string, i, floor int, st *style) (token, int, bool) {
	var t token
	p := readPrefix(s, i)
	if p.start < floor {
		p = prefix{start: i} // the previous number took these bytes as its suffix
	}
	if r, end, ok := readBased(s, i); ok {
		return basedNumber(s, p, r, end)
	}
	nm := scanNumeral(s, i)
	reads, n, amb := nm.interpret(s, st)
	if n == 0 {
		return t, skipIdentifier(s, i), false
	}
	exp, end := 1.0, nm.end
	if e, k, ok := readExponent(s, nm.end); ok {
		exp, end = pow10(e), k
	} else if r, k, ok := readPower(s, &nm, reads[0]); ok && n == 1 {
		reads[0], end = r, k
	} else if r, k, ok := readFraction(s, &nm, reads[0]); ok && n == 1 {
		reads[0], end = r, k
	}
	sf := readSuffix(s, end, p.currency != "")
	switch {
	case sf.ident:
		return t, skipIdentifier(s, nm.end), false
	case sf.ordinal:
		return t, nm.end, false
	}
	bare := !p.signed && p.currency == ""
	if bare && listMarker(s, &nm, i) {
		return t, nm.end, false
	}
	plain := bare && sf.currency == "" && !sf.pct && sf.scale == 1 && !sf.unit && end == nm.end &&
		!timesJoin(s, nm.end) && !timesJoin(s, i-1) // "1920x1080" holds no year
	if plain && nm.n == 1 {
		v := reads[0].mant
		if nm.glen(0) == 4 && v >= 1900 && v <= 2100 {
			return t, nm.end, false // a year
		}
		if monthDay(s, i, nm.end, v) {
			return t, nm.end, false
		}
	}
	t = newToken(s, p, sf, exp, reads, n)
	if amb {
		t.amb = nm.seps[1]
		t.zeros = s[nm.groups[1][0]:nm.groups[1][1]] == "000"
		t.setValue()
	}
	return t, sf.end, true
}

// newToken is the number with prefix p, suffix sf and readings reads,
// times exp (a scientific exponent, 1 when none).
func newToken(s string, p prefix, sf suffix, exp float64, reads [2]reading, n int) token {
	var t token
	t.Start, t.End = p.start, sf.end
	t.Text = s[t.Start:t.End]
	t.Percent = sf.pct
	t.Currency = p.currency
	if t.Currency == "" {
		t.Currency = sf.currency
	}
	t.scale, t.neg = sf.scale*exp, p.neg
	t.reads, t.nreads = reads, n
	t.setValue()
	return t
}

func (t *token) setValue() {
	r := t.reads[0]
	v := 0.0
	if r.mant != 0 {
		v = scaled(r.mant, t.scale) // "0e999" is 0
	}
	t.out = r.out || math.IsInf(v, 0) || v == 0 && r.mant != 0
	if t.out {
		v = outOfRange(v)
	}
	if t.neg {
		v = -v
	}
	t.Value, t.Decimals = v, r.dec
	t.Trivial = r.dec == 0 && !t.Percent && t.Currency == "" && t.scale == 1 && math.Abs(v) <= 10
}

// outOfRange is the Value reported for a number beyond float64
// ("21956.62e48213", "1e-400"): the largest or the smallest positive float,
// which keeps the policy input finite. Such a number is never grounded.
func outOfRange(v float64) float64 {
	if v == 0 {
		return math.SmallestNonzeroFloat64
	}
	return math.MaxFloat64
}

// resolveStyle settles the readings of ambiguous numerals ("1.234",
// "1,234"). Evidence, strongest first:
//
//  1. the text's unambiguous numbers: where they use the decimal comma
//     ("35,02", "21.956,62", "1.234.567"), "1,234" is 1.234 (1234 is kept as
//     the alternative) and "1.234" is 1234 only; with the decimal point, the
//     other way round;
//  2. a currency next to the numeral: a dot is a thousands separator
//     ("25.000 €", "$25.000"), and so is a comma next to "$", "£", "USD" or
//     "GBP" ("$25,000"); money is not written with three decimals;
//  3. the words of the text: Italian ("il", "è", "di", "euro", "mila", ...)
//     counts like the decimal comma, English ("the", "and", "was", ...) like
//     the decimal point;
//  4. a last group "000" ("25,000 units", "25.000") is thousands only.
//
// With no evidence at all both readings are kept, 1234 first.
func resolveStyle(s string, toks []token, st style) {
	words := 2 // not counted yet
	for i := range toks {
		t := &toks[i]
		if t.amb == 0 {
			continue
		}
		var dec byte // the decimal separator the evidence points to
		switch {
		case st.it > st.en:
			dec = sepComma
		case st.en > st.it:
			dec = sepDot
		case t.amb == sepDot && t.Currency != "",
			t.amb == sepComma && (t.Currency == "USD" || t.Currency == "GBP"):
			dec = otherSep(t.amb)
		default:
			if words == 2 {
				words = wordStyle(s)
			}
			if words > 0 {
				dec = sepComma
			} else if words < 0 {
				dec = sepDot
			}
		}
		switch {
		case dec == t.amb:
			t.reads[0], t.reads[1] = t.reads[1], t.reads[0]
			t.setValue()
		case dec != 0, t.zeros:
			t.nreads, t.amb = 1, 0
		}
	}
}

// wordStyle tells from common words whether s is Italian (1), English (−1)
// or neither (0), for the numbers whose separators leave it open.
func wordStyle(s string) int {
	it, en := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80) {
			i++
			continue
		}
		j := i
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 0x80) {
			j++
		}
		if j-i <= 5 {
			var b [5]byte
			for k := i; k < j; k++ {
				c := s[k]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b[k-i] = c
			}
			switch string(b[:j-i]) {
			case "è", "il", "lo", "gli", "di", "del", "della", "dei", "delle", "che", "sono", "con",
				"nel", "nella", "un", "una", "e", "euro", "mila":
				it++
			case "the", "of", "and", "is", "was", "were", "are", "with", "from", "this", "that", "to":
				en++
			}
		}
		i = j
	}
	switch {
	case it > en:
		return 1
	case en > it:
		return -1
	}
	return 0
}

// linkRanges shares percent, currency and scale across the two ends of a
// range: "10-20%", "€10–20", "tra 3 e 5 milioni".
func linkRanges(s string, toks []token) {
	for k := 1; k < len(toks); k++ {
		a, b := &toks[k-1], &toks[k]
		if !isRange(s, a, b) {
			continue
		}
		if !a.Percent && b.Percent && a.Currency == "" {
			a.Percent = true
		}
		if a.Currency == "" && b.Currency != "" && !a.Percent {
			a.Currency = b.Currency
		}
		if b.Currency == "" && a.Currency != "" && !b.Percent {
			b.Currency = a.Currency
		}
		if a.scale == 1 && b.scale != 1 {
			a.scale = b.scale
		}
		a.setValue()
		b.setValue()
	}
}

func isRange(s string, a, b *token) bool {
	gap := strings.TrimSpace(s[a.End:b.Start])
	switch gap {
	case "-", "–", "—":
		return true
	case "to", "a", "e", "and", "al", "fino a":
	default:
		return false
	}
	k := a.Start
	for k > 0 && s[k-1] == ' ' {
		k--
	}
	w := k
	for w > 0 && (s[w-1] >= 'a' && s[w-1] <= 'z' || s[w-1] >= 'A' && s[w-1] <= 'Z') {
		w--
	}
	switch strings.ToLower(s[w:k]) {
	case "from", "between", "da", "dal", "dai", "tra", "fra":
		return true
	}
	return false
}
