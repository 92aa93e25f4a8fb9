package nl

import (
	"fmt"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data/semantic"
)

// Parser reads questions against one semantic model. It is built once per snapshot and
// safe for concurrent use.
type Parser struct {
	v *vocab
}

// New compiles a parser for a model (its vocabulary, values and the generic lexicon).
func New(m *semantic.Model) *Parser { return &Parser{v: compile(m)} }

// Model is the model the parser reads against.
func (p *Parser) Model() *semantic.Model { return p.v.model }

// item is one unit of a question: a phrase of the vocabulary, a number, a code, a time
// expression or an unknown word.
type item struct {
	i, j int
	gen  gen
	ms   []meaning
	date *dateExpr
	num  *token
	word string
	// used marks an item an interpretation has consumed.
	used bool
}

func (it *item) is(g gen) bool { return it.gen == g && len(it.ms) == 0 }

func (it *item) kind(k mkind) *meaning {
	for i := range it.ms {
		if it.ms[i].kind == k {
			return &it.ms[i]
		}
	}
	return nil
}

// Parse reads a question into a semantic query. now resolves relative periods.
func (p *Parser) Parse(text string, now time.Time) *semantic.Query {
	text, purposes := stripPurpose(text)
	text, preambles := p.stripPreamble(text)
	ts := tokenize(text)
	items := p.items(ts)
	var notes []string
	if fixed := p.correctTypos(ts, items); len(fixed) > 0 {
		items, notes = p.items(ts), fixed
	}
	r := &reader{p: p, ts: ts, items: items, now: now, q: &semantic.Query{}}
	for _, n := range notes {
		r.note(n)
	}
	for _, c := range purposes {
		r.note(fmt.Sprintf("%q is what the answer is for, no condition on the data", c))
	}
	for _, c := range preambles {
		r.note(fmt.Sprintf("%q speaks of the one asking, no condition on the data", c))
	}
	r.read()
	return r.q
}

// correctTypos reads each unknown word as the vocabulary word it is one edit away from
// (typos.go), in ts, and returns a note per word read so.
func (p *Parser) correctTypos(ts []token, items []*item) []string {
	var notes []string
	for _, it := range items {
		if it.j != it.i+1 || it.date != nil || it.num != nil || it.gen != 0 || len(it.ms) > 0 || ts[it.i].id {
			continue
		}
		if c, ok := p.v.correct(ts[it.i].w); ok {
			notes = append(notes, fmt.Sprintf("%q read as %q", ts[it.i].orig, c))
			ts[it.i].w = c
		}
	}
	return notes
}

// items splits tokens into items: time expressions first, then the longest phrases of the
// vocabulary, numbers, codes, words inside free-text values, and unknown words.
func (p *Parser) items(ts []token) []*item {
	taken := make([]bool, len(ts))
	var out []*item
	byStart := map[int]*item{}
	for _, d := range dates(ts) {
		e := d
		it := &item{i: d.i, j: d.j, date: &e}
		byStart[d.i] = it
		for k := d.i; k < d.j; k++ {
			taken[k] = true
		}
	}
	for i := 0; i < len(ts); {
		if it := byStart[i]; it != nil {
			out = append(out, it)
			i = it.j
			continue
		}
		if taken[i] {
			i++
			continue
		}
		it := p.match(ts, i, taken)
		out = append(out, it)
		i = it.j
	}
	return firstRow(topBeforeNumber(fieldValueWords(p.mergeTokens(out))))
}

// firstRow reads "first" right before a row noun, with no number, as the earliest: "the
// first finding ever identified" is the oldest finding, not the top kind of findings.
func firstRow(items []*item) []*item {
	for k, it := range items {
		if it.gen != gTop || len(it.ms) > 0 || !firstWords[it.word] {
			continue
		}
		n := k + 1
		for n < len(items) && items[n].gen == gFiller {
			n++
		}
		if n < len(items) && items[n].kind(mRows) != nil {
			it.gen = gOldest
		}
	}
	return items
}

var firstWords = set("first", "primo", "prima", "the first")

// topBeforeNumber reads a word of "top N" that also names a value ("i primi": the Primi,
// and the first N) as "top" when a number follows it: "i primi 5 piatti".
func topBeforeNumber(items []*item) []*item {
	for k, it := range items {
		if it.gen == gTop && len(it.ms) > 0 && k+1 < len(items) && items[k+1].num != nil {
			it.ms = nil
		}
	}
	return items
}

// fieldValueWords reads a value alias that is also a word of the lexicon ("media": average,
// and Medium severity) as the value only right after its field's word ("gravità media",
// "priorità alta", "severity medium"); elsewhere it is the lexicon's word ("la media dei
// rilievi"). Fillers that are also aliases ("done") stay values: they ask nothing else; so
// do the values' own names ("Primi", a category), and words of "top N" ("primi"), which
// are the value unless a number follows them.
func fieldValueWords(items []*item) []*item {
	for k, it := range items {
		if it.gen == gTop && aliasOnly(it.ms) && !namesAlias(it) {
			it.ms = nil // "prima" (before, first) shares the stem of "primi", no alias of Primi
			continue
		}
		if it.gen == 0 || it.gen == gFiller || it.gen == gTop || !aliasOnly(it.ms) {
			continue // gTop ("primi": first courses, and the first N) is the value unless a number follows (values.go)
		}
		var own []meaning
		if k > 0 && items[k-1].j == it.i {
			for _, m := range it.ms {
				if f := items[k-1].kind(mField); m.kind == mValue && f != nil && f.src == m.src && f.field == m.field {
					own = append(own, m)
				}
			}
		}
		if len(own) > 0 {
			it.ms, it.gen = own, 0
			continue
		}
		var rest []meaning
		for _, m := range it.ms {
			if m.kind != mValue {
				rest = append(rest, m)
			}
		}
		it.ms = rest
	}
	return items
}

// namesAlias reports an item whose words are one of its values' aliases as declared, not
// a word that only shares their stem.
func namesAlias(it *item) bool {
	for _, m := range it.ms {
		if m.kind != mValue {
			continue
		}
		for _, a := range append([]string{m.alias}, m.src.Decl.Fields[m.field].Aliases[m.alias]...) {
			if strings.Join(splitWords(a), " ") == it.word {
				return true
			}
		}
	}
	return false
}

// aliasOnly reports values named only through aliases.
func aliasOnly(ms []meaning) bool {
	n := 0
	for _, m := range ms {
		if m.kind == mValue {
			if m.alias == "" {
				return false
			}
			n++
		}
	}
	return n > 0
}

// match reads the item at token i.
func (p *Parser) match(ts []token, i int, taken []bool) *item {
	t := ts[i]
	if ms := p.v.capsTokens[stem(t.w)]; len(ms) > 0 && capitalised(t.orig) {
		if it := p.phraseAt(ts, i, taken); it == nil || it.j == i+1 && len(it.ms) == 0 {
			return &item{i: i, j: i + 1, ms: append([]meaning(nil), ms...), word: t.w}
		}
	}
	if it := p.phraseAt(ts, i, taken); it != nil {
		return it
	}
	if t.isNum {
		return &item{i: i, j: i + 1, num: &ts[i], word: t.w}
	}
	if ms := p.v.tokens[stem(t.w)]; len(ms) > 0 && (!t.id || p.v.tokenIDs[t.w]) {
		return &item{i: i, j: i + 1, ms: append([]meaning(nil), ms...), word: t.w}
	}
	return &item{i: i, j: i + 1, word: t.w}
}

// phraseAt finds the longest phrase at i; at equal length, the one matched with more exact
// words. Words match exactly or by stem (both at least four letters).
func (p *Parser) phraseAt(ts []token, i int, taken []bool) *item {
	cands := append(append([]*phrase(nil), p.v.byFirst[ts[i].w]...), p.v.byStem[stem(ts[i].w)]...)
	bestLen, bestExact := 0, 0
	var best []*phrase
	modelHere := false // a phrase of the model starts here: a filler never hides it
	// modelExact: a phrase of the model matched here word for word; a generic phrase
	// matched by a stem of its first word does not hide it either.
	modelExact := false
	for _, ph := range cands {
		if n, exact, ok := matchPhrase(ph, ts, i, taken); ok && len(ph.meanings) > 0 {
			modelHere, modelExact = true, modelExact || exact == n
		}
	}
	for _, ph := range cands {
		n, exact, ok := matchPhrase(ph, ts, i, taken)
		if !ok || n < bestLen || (n == bestLen && exact < bestExact) || (modelHere && quiet(ph)) {
			continue
		}
		if modelExact && len(ph.meanings) == 0 && ts[i].w != ph.words[0] {
			continue // "orders by month": the orders, grouped; not "order by"
		}
		if ph.gen == gFiller && len(ph.meanings) == 0 && exact < n {
			continue // a filler is its own words: "port" is no "porta", it stays unknown
		}
		if n > bestLen || exact > bestExact {
			best = nil
		}
		bestLen, bestExact = n, exact
		if !containsPhrase(best, ph) {
			best = append(best, ph)
		}
	}
	if bestLen == 0 {
		return nil
	}
	it := &item{i: i, j: i + bestLen}
	var words []string
	for k := i; k < i+bestLen; k++ {
		words = append(words, ts[k].w)
	}
	it.word = strings.Join(words, " ")
	for _, ph := range best {
		if ph.gen != 0 && it.gen == 0 {
			it.gen = ph.gen
		}
		for _, m := range ph.meanings {
			if m.caseSensitive && ts[i].orig != m.orig {
				continue // "it" the pronoun, not "IT" the department
			}
			it.ms = append(it.ms, m)
		}
	}
	if it.gen == 0 && len(it.ms) == 0 {
		return nil
	}
	if onlyKind(it.ms, mContext) { // words that name the dataset itself ask nothing
		it.ms, it.gen = nil, gFiller
	}
	return it
}

// quiet reports a lexicon phrase that never hides a phrase of the model starting at the
// same word: a filler, or a word of a text search ("related to" beside the value Related).
func quiet(ph *phrase) bool {
	return len(ph.meanings) == 0 && (ph.gen == gFiller || ph.gen == gAbout || ph.gen == gMention)
}

func capitalised(s string) bool {
	for _, r := range s {
		return r >= 'A' && r <= 'Z'
	}
	return false
}

// onlyKind reports meanings that are all of kind k: words that name the dataset itself
// (mContext), the basis words of a measure matched as themselves and by their stem (mBasis).
func onlyKind(ms []meaning, k mkind) bool {
	for _, m := range ms {
		if m.kind != k {
			return false
		}
	}
	return len(ms) > 0
}

func containsPhrase(list []*phrase, p *phrase) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

func matchPhrase(ph *phrase, ts []token, i int, taken []bool) (n, exact int, ok bool) {
	if i+len(ph.words) > len(ts) {
		return 0, 0, false
	}
	for k, w := range ph.words {
		t := ts[i+k]
		if taken[i+k] {
			return 0, 0, false
		}
		switch {
		case t.w == w:
			exact++
		case len(t.w) >= 4 && len(w) >= 4 && stem(t.w) == stem(w):
		default:
			return 0, 0, false
		}
	}
	return len(ph.words), exact, true
}

// mergeTokens joins words found inside free-text values of the same field, next to each
// other or across filler words, into one item whose values contain them all ("water
// leak", "bottiglia di Montepulciano").
func (p *Parser) mergeTokens(items []*item) []*item {
	var out []*item
	last := -1 // index in out of the last value item, while only fillers follow it
	for _, it := range items {
		if tokenItem(it) && last >= 0 {
			if merged := intersect(out[last].ms, it.ms); len(merged) > 0 {
				prev := out[last]
				prev.ms, prev.j = merged, it.j
				prev.word += " " + it.word
				out = out[:last+1] // the fillers between belong to the value
				continue
			}
		}
		out = append(out, it)
		switch {
		case tokenItem(it):
			last = len(out) - 1
		case !it.is(gFiller):
			last = -1
		}
	}
	return absorbNumbers(out)
}

// absorbNumbers joins a number to the value word right next to it when the values hold the
// two words in that order: "Inspiron 15", "55 inch LED TV" name one product, not a product
// and a count ("more than 15 laptops" stays a number).
func absorbNumbers(items []*item) []*item {
	var out []*item
	for k := 0; k < len(items); k++ {
		it := items[k]
		if it.num == nil {
			out = append(out, it)
			continue
		}
		if n := len(out); n > 0 && tokenItem(out[n-1]) && out[n-1].j == it.i {
			if ms := withWords(out[n-1].ms, lastWord(out[n-1].word), it.word); len(ms) > 0 {
				out[n-1].ms, out[n-1].j, out[n-1].word = ms, it.j, out[n-1].word+" "+it.word
				continue
			}
		}
		if k+1 < len(items) && tokenItem(items[k+1]) && items[k+1].i == it.j {
			if ms := withWords(items[k+1].ms, it.word, firstWord(items[k+1].word)); len(ms) > 0 {
				next := items[k+1]
				next.ms, next.i, next.word = ms, it.i, it.word+" "+next.word
				continue
			}
		}
		out = append(out, it)
	}
	return out
}

func lastWord(s string) string  { f := strings.Fields(s); return f[len(f)-1] }
func firstWord(s string) string { return strings.Fields(s)[0] }

// withWords keeps the values in which word a is directly followed by word b, as in the
// question ("inspiron 15", "55 inch"); words compare by stem.
func withWords(ms []meaning, a, b string) []meaning {
	var out []meaning
	for _, m := range ms {
		var vals []string
		for _, v := range m.values {
			w := splitWords(v)
			for i := 0; i+1 < len(w); i++ {
				if stem(w[i]) == stem(a) && stem(w[i+1]) == stem(b) {
					vals = append(vals, v)
					break
				}
			}
		}
		if len(vals) > 0 {
			m.values = vals
			out = append(out, m)
		}
	}
	return out
}

// tokenItem reports an item made only of value meanings (a value phrase or words inside
// free text).
func tokenItem(it *item) bool {
	if it.gen != 0 || len(it.ms) == 0 || it.date != nil {
		return false
	}
	for _, m := range it.ms {
		if m.kind != mValue {
			return false
		}
	}
	return true
}

// intersect keeps, per field, the values both readings share.
func intersect(a, b []meaning) []meaning {
	var out []meaning
	for _, x := range a {
		for _, y := range b {
			if x.src != y.src || x.field != y.field {
				continue
			}
			var vals []string
			for _, v := range x.values {
				if contains(y.values, v) {
					vals = append(vals, v)
				}
			}
			if len(vals) > 0 {
				m := x
				m.values, m.pos = vals, min(x.pos, y.pos)
				out = append(out, m)
			}
		}
	}
	return out
}

// Negated reports whether a text negates (not, no, excluding, non-...): the polarity of a
// question the layer cannot read completely.
func Negated(text string) bool {
	n := 0
	for _, t := range tokenize(text) {
		if g := lexicon[t.w]; g == gNot || g == gNone {
			n++
		}
	}
	return n%2 == 1
}
