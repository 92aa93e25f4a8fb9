package grounding

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Numbers written in words, in English and Italian: "twenty-two thousand",
// "ventiduemila", "due milioni e mezzo", "mezzo milione", "a dozen",
// "tre quarti", "a third of". A number word is read like the digits it
// stands for ("ventiduemila" like "22 mila": 22000 ± 500) and grounded like
// any other number.
//
// What is a quantity: words are prose far more often than digits are, so
//
//   - a number word up to ten on its own ("tre leve", "two months", "one
//     of the best", "un cliente") is counting prose, not read — unless a
//     percent or a currency follows ("dieci per cento", "five euros");
//   - an article ("a", "an", "un", "una", "uno") or "one" is 1 only inside
//     a number: before a scale, "hundred", "dozen" or a fraction ("a
//     million", "un milione", "a dozen", "un terzo");
//   - ordinals ("terzo trimestre", "the third quarter") are no fractions: a
//     fraction needs a numerator ("un terzo", "due terzi", "a third of",
//     "three quarters of"; English fractions also need "of");
//   - "half", "metà" and plural scales on their own ("migliaia di
//     clienti", "thousands of orders", "la metà dei tavoli") are vague and
//     not read; "mezzo milione", "half a million", "X and a half", "X e
//     mezzo" are;
//   - verbs and adverbs of ratio ("doubled", "tripled", "raddoppiato",
//     "twice") are claims about a ratio, not numbers: not read.

// morpheme kinds
const (
	mNone    = iota
	mUnit    // 1–9
	mTeen    // 10–19
	mTens    // 20–90
	mHundred // "hundred", "cento"
	mScale   // "thousand", "mila", "mille", "million", "milioni", ...
	mDozen   // "dozen", "dozzina"
	mArticle // "a", "an", "un", "una", "uno", "one"
	mHalf    // "half", "mezzo", "mezza"
	mAnd     // "and", "e"
	mFrac1   // a singular denominator: "third", "terzo", "quarter", "quarto"
	mFracN   // a plural denominator: "thirds", "terzi", "quarters", "quarti"
	mMille   // "mille": a thousand that needs no multiplier
	mZero    // "zero": a digit only where digits are spelled one by one (spelled.go)
)

type morpheme struct {
	kind int
	v    float64
}

var englishWords = map[string]morpheme{
	"one": {mUnit, 1}, "a": {mArticle, 1}, "an": {mArticle, 1},
	"two": {mUnit, 2}, "three": {mUnit, 3}, "four": {mUnit, 4}, "five": {mUnit, 5},
	"six": {mUnit, 6}, "seven": {mUnit, 7}, "eight": {mUnit, 8}, "nine": {mUnit, 9},
	"ten": {mTeen, 10}, "eleven": {mTeen, 11}, "twelve": {mTeen, 12}, "thirteen": {mTeen, 13},
	"fourteen": {mTeen, 14}, "fifteen": {mTeen, 15}, "sixteen": {mTeen, 16}, "seventeen": {mTeen, 17},
	"eighteen": {mTeen, 18}, "nineteen": {mTeen, 19},
	"twenty": {mTens, 20}, "thirty": {mTens, 30}, "forty": {mTens, 40}, "fifty": {mTens, 50},
	"sixty": {mTens, 60}, "seventy": {mTens, 70}, "eighty": {mTens, 80}, "ninety": {mTens, 90},
	"hundred": {mHundred, 100}, "thousand": {mScale, 1e3}, "million": {mScale, 1e6}, "billion": {mScale, 1e9},
	"dozen": {mDozen, 12}, "half": {mHalf, 0.5}, "and": {mAnd, 0}, "zero": {mZero, 0},
	"third": {mFrac1, 3}, "quarter": {mFrac1, 4}, "fifth": {mFrac1, 5}, "sixth": {mFrac1, 6},
	"seventh": {mFrac1, 7}, "eighth": {mFrac1, 8}, "ninth": {mFrac1, 9}, "tenth": {mFrac1, 10},
	"thirds": {mFracN, 3}, "quarters": {mFracN, 4}, "fifths": {mFracN, 5}, "sixths": {mFracN, 6},
	"sevenths": {mFracN, 7}, "eighths": {mFracN, 8}, "ninths": {mFracN, 9}, "tenths": {mFracN, 10},
}

// italianWords are the Italian words that stand alone; compounds
// ("ventiduemila", "centoventitré") are split by italianCompound.
var italianWords = map[string]morpheme{
	"un": {mArticle, 1}, "una": {mArticle, 1}, "uno": {mUnit, 1},
	"milione": {mScale, 1e6}, "milioni": {mScale, 1e6}, "miliardo": {mScale, 1e9}, "miliardi": {mScale, 1e9},
	"migliaio": {mScale, 1e3}, "dozzina": {mDozen, 12}, "dozzine": {mDozen, 12},
	"mezzo": {mHalf, 0.5}, "mezza": {mHalf, 0.5}, "e": {mAnd, 0},
	"terzo": {mFrac1, 3}, "quarto": {mFrac1, 4}, "quinto": {mFrac1, 5}, "sesto": {mFrac1, 6},
	"settimo": {mFrac1, 7}, "ottavo": {mFrac1, 8}, "nono": {mFrac1, 9}, "decimo": {mFrac1, 10},
	"terzi": {mFracN, 3}, "quarti": {mFracN, 4}, "quinti": {mFracN, 5}, "sesti": {mFracN, 6},
	"settimi": {mFracN, 7}, "ottavi": {mFracN, 8}, "noni": {mFracN, 9}, "decimi": {mFracN, 10},
}

// italianParts are the pieces of an Italian compound number, longest first
// where one is a prefix of another. "vent", "trent", ... and "cent" are the
// forms elided before a vowel ("ventuno", "trentotto", "centottanta").
type italianPart struct {
	text string
	m    morpheme
}

// partsByFirst are italianParts by their first letter, in the same order.
var partsByFirst [26][]italianPart

var italianParts = []italianPart{
	{"diciassette", morpheme{mTeen, 17}}, {"diciannove", morpheme{mTeen, 19}}, {"quattordici", morpheme{mTeen, 14}},
	{"diciotto", morpheme{mTeen, 18}}, {"cinquanta", morpheme{mTens, 50}}, {"cinquant", morpheme{mTens, 50}},
	{"quaranta", morpheme{mTens, 40}}, {"quarant", morpheme{mTens, 40}}, {"sessanta", morpheme{mTens, 60}},
	{"sessant", morpheme{mTens, 60}}, {"settanta", morpheme{mTens, 70}}, {"settant", morpheme{mTens, 70}},
	{"ottanta", morpheme{mTens, 80}}, {"ottant", morpheme{mTens, 80}}, {"novanta", morpheme{mTens, 90}},
	{"novant", morpheme{mTens, 90}}, {"quindici", morpheme{mTeen, 15}}, {"tredici", morpheme{mTeen, 13}},
	{"quattro", morpheme{mUnit, 4}}, {"undici", morpheme{mTeen, 11}}, {"dodici", morpheme{mTeen, 12}},
	{"sedici", morpheme{mTeen, 16}}, {"trenta", morpheme{mTens, 30}}, {"trent", morpheme{mTens, 30}},
	{"cinque", morpheme{mUnit, 5}}, {"dieci", morpheme{mTeen, 10}}, {"venti", morpheme{mTens, 20}},
	{"vent", morpheme{mTens, 20}}, {"sette", morpheme{mUnit, 7}}, {"cento", morpheme{mHundred, 100}},
	{"cent", morpheme{mHundred, 100}}, {"mille", morpheme{mMille, 1e3}}, {"mila", morpheme{mScale, 1e3}},
	{"nove", morpheme{mUnit, 9}}, {"otto", morpheme{mUnit, 8}}, {"uno", morpheme{mUnit, 1}},
	{"due", morpheme{mUnit, 2}}, {"tré", morpheme{mUnit, 3}}, {"tre", morpheme{mUnit, 3}},
	{"sei", morpheme{mUnit, 6}}, {"un", morpheme{mUnit, 1}},
}

// italianCompound splits w into the parts of an Italian number word, or
// reports false. An elided part must be followed by a part that starts
// with a vowel.
func italianCompound(w string, out []morpheme) ([]morpheme, bool) {
	for len(w) > 0 {
		found := false
		if w[0] < 'a' || w[0] > 'z' {
			return out, false
		}
		for _, p := range partsByFirst[w[0]-'a'] {
			if !strings.HasPrefix(w, p.text) || len(out) == cap(out) {
				continue
			}
			rest := w[len(p.text):]
			last := p.text[len(p.text)-1]
			if last == 't' && (rest == "" || !strings.ContainsRune("uo", rune(rest[0]))) {
				continue // "vent" only before "uno"/"otto"
			}
			out = append(out, p.m)
			w, found = rest, true
			break
		}
		if !found {
			return out, false
		}
	}
	return out, true
}

// maxParts bounds the parts of one word ("novecentonovantanovemila" has
// five).
const maxParts = 6

// phraseWord is one word of a candidate number phrase and its parts.
type phraseWord struct {
	start, end int
	parts      [maxParts]morpheme
	n          int
}

func (w *phraseWord) ms() []morpheme { return w.parts[:w.n] }

// maxPhraseWords bounds a number phrase ("one hundred and twenty-five
// thousand three hundred and forty" has twelve words).
const maxPhraseWords = 16

// phraseBuf is the scratch space of wordNumber, reused for every word of a
// text.
type phraseBuf struct {
	words [maxPhraseWords]phraseWord
}

// wordNumber reads the number phrase whose first word starts at i. It
// returns the token and the end of the phrase, or false when the words
// there are no quantity (see the rules above).
func (ph *phraseBuf) wordNumber(s string, i int) (token, int, bool) {
	words := readPhrase(s, i, ph.words[:0])
	if len(words) == 0 {
		return token{}, i, false
	}
	if t, end, ok := fractionWords(s, words); ok {
		return t, end, true
	}
	p, n := evalPhrase(words)
	if t, end, ok := ph.spelled(s, words, p, n); ok {
		return t, end, true
	}
	if n == 0 {
		return token{}, words[0].end, false
	}
	end := words[n-1].end
	t := token{}
	t.Start, t.End = i, end
	t.scale = p.scale
	t.reads[0], t.nreads = p.mantissa(), 1
	sf := readSuffix(s, end, false)
	if sf.ident || sf.ordinal {
		return token{}, end, false
	}
	if sf.scale != 1 && p.scale == 1 {
		t.scale = sf.scale // "ventidue milioni" read as 22 × million by the suffix
	}
	t.Percent, t.Currency = sf.pct, sf.currency
	if !p.quantity && !sf.pct && sf.currency == "" && t.scale == 1 {
		return token{}, end, false // "tre leve", "two months"
	}
	t.End = sf.end
	t.Text = s[t.Start:t.End]
	t.setValue()
	return t, t.End, true
}

// readPhrase collects the words from i on that may belong to a number:
// number words separated by one space or hyphen, at most cap(out).
func readPhrase(s string, i int, out []phraseWord) []phraseWord {
	for len(out) < cap(out) {
		j := wordEnd(s, i)
		if j == i {
			break
		}
		w := lowerWord(s[i:j])
		pw := phraseWord{start: i, end: j, n: 1}
		if m, ok := englishWords[w]; ok {
			pw.parts[0] = m
		} else if m, ok := italianWords[w]; ok {
			pw.parts[0] = m
		} else if c, ok := italianCompound(w, pw.parts[:0]); ok {
			pw.n = len(c)
		} else {
			break
		}
		out = append(out, pw)
		if j+1 < len(s) && (s[j] == ' ' || s[j] == '-') && isLetterAt(s, j+1) {
			i = j + 1
			continue
		}
		break
	}
	return out
}

// phrase is the value of a number phrase being read.
type phrase struct {
	total, cur float64
	scale      float64 // the largest scale word, 1 when none
	last       float64 // the last scale word ("e mezzo" halves it); 0 when none
	half       bool    // a leading "mezzo"/"half" waits for its scale or dozen
	pending    bool    // an article, "and" or "half" waits for what completes it
	quantity   bool    // more than a small count: a scale, hundred, dozen or half
}

// mantissa is the reading of the phrase as the digits before its largest
// scale: "ventiduemila" reads like "22 mila", "due milioni e mezzo" like
// "2,5 milioni".
func (p phrase) mantissa() reading {
	v := (p.total + p.cur) / p.scale
	if v != float64(int64(v)) {
		return fractionReading(v)
	}
	return exactReading(v)
}

// evalPhrase evaluates the longest well-formed prefix of words and returns
// its value and how many words it took (0: none).
func evalPhrase(words []phraseWord) (phrase, int) {
	p := phrase{scale: 1}
	best, bestN := phrase{}, 0
	prev := mNone
	for n, w := range words {
		ok := true
		for k, m := range w.ms() {
			next := mNone
			if k+1 < w.n {
				next = w.parts[k+1].kind
			} else if n+1 < len(words) {
				next = words[n+1].parts[0].kind
			}
			if !p.step(m, prev, next) {
				ok = false
				break
			}
			prev = m.kind
		}
		if !ok {
			break
		}
		if !p.pending && p.total+p.cur > 0 {
			best, bestN = p, n+1
		}
	}
	if best.total+best.cur > 10 {
		best.quantity = true
	}
	return best, bestN
}

// step adds one morpheme to the phrase; false when it cannot follow prev.
func (p *phrase) step(m morpheme, prev, next int) bool {
	small := prev == mUnit || prev == mTeen || prev == mTens
	p.pending = false
	switch m.kind {
	case mUnit:
		if prev == mUnit || prev == mTeen || prev == mArticle {
			return false
		}
		p.cur += m.v
	case mTeen, mTens:
		if small || prev == mArticle {
			return false
		}
		p.cur += m.v
	case mHundred:
		if p.cur >= 10 || prev == mHundred {
			return false
		}
		p.cur = max(p.cur, 1) * 100
		p.quantity = true
	case mScale, mMille:
		return p.addScale(m, prev)
	case mDozen:
		if prev == mDozen {
			return false
		}
		if p.half {
			p.cur, p.half = 6, false
		} else {
			p.cur = max(p.cur, 1) * 12
		}
		p.quantity = true
	case mArticle:
		return p.addArticle(prev, next)
	case mHalf:
		return p.addHalf(prev, next)
	case mAnd:
		// "one hundred and five", "un milione e duecentomila", "two and a half", "X e mezzo"
		p.pending = true
		return prev == mScale || prev == mMille || prev == mHundred || (small || prev == mDozen) && (next == mArticle || next == mHalf)
	default:
		return false
	}
	return true
}

// addArticle reads "a"/"un" as 1 where it is part of a number: before a
// scale, "hundred" or "dozen" ("a million", "un milione"), and the article
// of "and a half" or "half a million".
func (p *phrase) addArticle(prev, next int) bool {
	p.pending = true
	switch {
	case next == mHalf && prev == mAnd:
		return true
	case next == mScale || next == mHundred || next == mDozen:
		if prev == mHalf {
			return true // "half a million": the half is the multiplier
		}
		if prev != mNone && prev != mAnd {
			return false
		}
		p.cur = 1
		return true
	}
	return false
}

// addScale applies a scale word. Scales decrease ("two million three
// hundred thousand"); a scale needs a multiplier, except "mille".
func (p *phrase) addScale(m morpheme, prev int) bool {
	if p.last != 0 && m.v >= p.last || prev == mAnd {
		return false
	}
	g := p.cur
	switch {
	case p.half:
		g, p.half = 0.5, false
	case m.kind == mMille && g == 0:
		g = 1
	case g == 0:
		return false // "milioni di clienti", "thousand"
	}
	p.total += g * m.v
	p.cur, p.last, p.quantity = 0, m.v, true
	p.scale = max(p.scale, m.v)
	return true
}

// addHalf reads "mezzo milione", "half a million", "mezza dozzina",
// "X e mezzo", "X and a half".
func (p *phrase) addHalf(prev, next int) bool {
	switch {
	case prev == mNone && (next == mScale || next == mArticle || next == mDozen):
		p.half, p.pending = true, true
		return true
	case prev == mAnd || prev == mArticle:
		if p.cur > 0 {
			p.cur += 0.5
		} else if p.last != 0 {
			p.total += 0.5 * p.last
		} else {
			return false
		}
		p.quantity = true
		return true
	}
	return false
}

// fractionWords reads "un terzo", "due terzi", "tre quarti", "a third of",
// "two thirds of", "three quarters of".
func fractionWords(s string, words []phraseWord) (token, int, bool) {
	if len(words) < 2 || words[0].n != 1 || words[1].n != 1 {
		return token{}, 0, false
	}
	num, den := words[0].parts[0], words[1].parts[0]
	switch {
	case den.kind == mFrac1 && num.kind == mArticle:
	case den.kind == mFracN && (num.kind == mUnit || num.kind == mTeen && num.v == 10) && num.v < den.v:
	default:
		return token{}, 0, false
	}
	end := words[1].end
	if !fractionFollows(s, end, isASCIIWord(s[words[1].start:end]) && englishWords[lowerWord(s[words[1].start:end])].kind != mNone) {
		return token{}, 0, false
	}
	t := token{}
	t.Start, t.End, t.Text = words[0].start, end, s[words[0].start:end]
	t.scale, t.nreads = 1, 1
	t.reads[0] = fractionReading(num.v / den.v)
	t.setValue()
	return t, end, true
}

// fractionFollows reports what must follow a fraction: "of" in English;
// in Italian a "di" form, punctuation or the end.
func fractionFollows(s string, end int, english bool) bool {
	k := end + spaceAt(s, end)
	w, _ := wordAt(s, k)
	w = strings.ToLower(w)
	if english {
		return k > end && w == "of"
	}
	switch w {
	case "di", "del", "della", "dello", "dei", "degli", "delle", "dell":
		return k > end
	case "":
		return k == len(s) || strings.IndexByte(" .,;:!?)\n", s[k]) >= 0
	}
	return false
}

// wordEnd returns the end of the run of letters at i.
func wordEnd(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			return i
		}
		i += n
	}
	return i
}

func isLetterAt(s string, i int) bool {
	if c := s[i]; c < utf8.RuneSelf {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

func isASCIIWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lowerWord lower-cases w, allocating only when it has upper-case letters.
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return strings.ToLower(w)
		}
	}
	return w
}

// wordHeads holds the first three letters (index 26: the word ends) of
// every word that may start a number phrase: a cheap test before the
// dictionaries, as most words of a text start no number ("di", "del",
// "the" do not pass it).
var wordHeads [26][27][27]bool

func init() {
	add := func(w string) {
		var k [3]int
		for i := range k {
			k[i] = 26
			if i < len(w) && w[i] >= 'a' && w[i] <= 'z' {
				k[i] = int(w[i] - 'a')
			}
		}
		if k[0] < 26 {
			wordHeads[k[0]][k[1]][k[2]] = true
		}
	}
	for w, m := range englishWords {
		if m.kind != mAnd && m.kind != mFrac1 && m.kind != mFracN {
			add(w)
		}
	}
	for w, m := range italianWords {
		if m.kind != mAnd && m.kind != mFrac1 && m.kind != mFracN {
			add(w)
		}
	}
	for _, p := range italianParts {
		add(p.text)
		partsByFirst[p.text[0]-'a'] = append(partsByFirst[p.text[0]-'a'], p)
	}
}

// mayStartNumber reports whether the word at i may start a number phrase.
func mayStartNumber(s string, i int) bool {
	var k [3]int
	for n := range k {
		k[n] = 26
		if i+n < len(s) {
			if c := s[i+n] | 0x20; c >= 'a' && c <= 'z' {
				k[n] = int(c - 'a')
			} else if n == 0 {
				return false
			}
		}
		if k[n] == 26 {
			for m := n + 1; m < len(k); m++ {
				k[m] = 26
			}
			break
		}
	}
	return wordHeads[k[0]][k[1]][k[2]]
}
