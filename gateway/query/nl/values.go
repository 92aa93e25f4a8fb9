package nl

import (
	"fmt"
	"strings"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// valueGroup is a run of values of one field: "Marco e Giulia", "critical or high".
type valueGroup struct {
	m      *meaning
	values []string
	items  []int // item indexes
	not    bool
	// sides are the group's values as separate sides ("Sara o Luca, chi"), when the
	// question compares them.
	sides [][]string
}

// readValues turns the values a question names into filters, lists (in), exclusions
// (notIn) and the sides of a comparison.
func (r *reader) readValues() {
	groups := r.valueGroups()
	if r.compareValues(groups) {
		return
	}
	for _, g := range groups {
		r.addValueFilter(g)
	}
}

// valueGroups collects the value items into runs per field.
func (r *reader) valueGroups() []*valueGroup {
	var out []*valueGroup
	var cur *valueGroup
	for k, it := range r.items {
		if it.used { // a text condition's words ("begins with 'CÔNG TY'")
			cur = nil
			continue
		}
		if it.kind(mValue) == nil || (it.gen == gTop && r.next(k, 1) >= 0 && r.items[r.next(k, 1)].num != nil) {
			if cur != nil && !r.listGlue(it) {
				cur = nil
			}
			continue
		}
		m := r.pick(it)
		if m == nil {
			continue
		}
		if cur != nil && cur.m.src == m.src && cur.m.field == m.field && !r.vsBetween(cur.items[len(cur.items)-1], k) {
			cur.values = appendNew(cur.values, m.values...)
			cur.items = append(cur.items, k)
			cur.sides = append(cur.sides, m.values)
			continue
		}
		cur = &valueGroup{m: m, values: append([]string(nil), m.values...), items: []int{k}, sides: [][]string{m.values}}
		cur.not = r.negated(k)
		out = append(out, cur)
	}
	for _, g := range out {
		if !g.not {
			g.not = r.excludedAfter(g.items[len(g.items)-1])
		}
	}
	return out
}

// excludedWords say after the values that they are left out: "contanti esclusi",
// "bevande escluse", "Japan excluded".
var excludedWords = set("esclusi", "escluse", "escluso", "esclusa", "excluded", "exempted", "aside", "eccettuati", "eccettuate")

// excludedAfter reports an exclusion participle right after item k.
func (r *reader) excludedAfter(k int) bool {
	j := r.next(k, 1)
	if j < 0 || !r.items[j].is(gNot) || !excludedWords[r.items[j].word] || r.items[j].used {
		return false // used: it excludes the values after it ("pizze, esclusi i vini")
	}
	if n := r.next(j, 1); n >= 0 && r.items[n].kind(mValue) != nil {
		return false
	}
	r.items[j].used = true
	return true
}

// listGlue is what may separate the values of one list: and, or, fillers, commas.
func (r *reader) listGlue(it *item) bool {
	return it.is(gAnd) || it.is(gOr) || it.is(gFiller)
}

// periodsCompared reports a "vs" between two periods ("2022 vs 2025").
func (r *reader) periodsCompared() bool {
	for k, it := range r.items {
		if !it.is(gVs) {
			continue
		}
		if p, n := r.prev(k, 1), r.next(k, 1); p >= 0 && n >= 0 && r.items[p].date != nil && r.items[n].date != nil {
			return true
		}
	}
	return false
}

func (r *reader) vsBetween(a, b int) bool {
	for k := a + 1; k < b; k++ {
		if r.items[k].gen == gVs {
			return true
		}
	}
	return false
}

// negated reports a negation shortly before item k: "not closed", "escluse bevande",
// "non sono stati pagati in contanti", "not paid by credit card" ("by" right before a
// value says who or how, it groups nothing).
func (r *reader) negated(k int) bool {
	for j := k - 1; j >= 0 && j >= k-5; j-- {
		it := r.items[j]
		switch {
		case it.gen == gNot:
			it.used = true
			return true
		case it.is(gBy) && j == k-1:
		case it.is(gFiller), it.kind(mField) != nil, it.kind(mRows) != nil, it.is(gWith), it.is(gAny):
		default:
			return false
		}
	}
	return false
}

func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		if !contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

func (r *reader) addValueFilter(g *valueGroup) {
	for _, k := range g.items {
		r.items[k].used = true
		if n := r.next(k, 1); n >= 0 && len(r.items[n].ms) == 1 {
			if f := r.items[n].kind(mField); f != nil && f.src == g.m.src && f.field == g.m.field {
				r.items[n].used = true // "the High Dose group", "the Quality department": the value's own field
			}
		}
	}
	if p := r.prev(g.items[0], 1); p >= 0 && (r.items[p].is(gAnd) || r.items[p].is(gOr)) {
		if pp := r.prev(p, 1); pp >= 0 && len(r.items[pp].ms) == 1 && r.items[pp].kind(mField) != nil && r.items[pp].kind(mField).field != g.m.field {
			// "how many different dishes and drinks": the drinks are one more kind counted,
			// or the dishes' condition — two readings, two numbers
			r.uncover("whether %q is a condition or more %s", r.items[g.items[0]].word, r.items[pp].word)
			return
		}
	}
	if g.not && len(g.values) > 1 && r.excludesAll(g) {
		// "not closed yet — open, in progress or deferred": the values after the first spell
		// out what "not closed" leaves, they are not excluded too
		if rest := g.values[1:]; len(g.items) > 1 && g.items[1]-g.items[0] >= 2 && r.complementOf(g.m, g.values[:1], rest) {
			r.note(fmt.Sprintf("%s read as not %s: %s are what that leaves", g.m.field, g.values[0], strings.Join(rest, ", ")))
			g.values = g.values[:1]
		} else {
			r.uncover("a negation that leaves no value of %s (%s)", g.m.field, valuesText(toAny(g.values)))
			return
		}
	}
	r.q.Filters = append(r.q.Filters, filterOf(g.m.src.Name, g.m.field, g.values, g.not))
}

// fieldValues are every value a field is known to have: its schema's closed list and the
// values read from the data.
func fieldValues(m *meaning) []string {
	var all []string
	if f := m.src.Field(m.field); f != nil {
		all = appendNew(all, f.Values...)
	}
	return appendNew(all, m.src.Values[m.field]...)
}

// excludesAll reports an exclusion of every value the field is known to have.
func (r *reader) excludesAll(g *valueGroup) bool {
	all := fieldValues(g.m)
	if len(all) == 0 {
		return false
	}
	for _, v := range all {
		if !contains(g.values, v) {
			return false
		}
	}
	return true
}

// complementOf reports that rest is exactly what the field's values leave without first.
func (r *reader) complementOf(m *meaning, first, rest []string) bool {
	var left []string
	for _, v := range fieldValues(m) {
		if !contains(first, v) {
			left = append(left, v)
		}
	}
	return sameValues(toAny(left), toAny(rest))
}

func toAny(vs []string) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// filterOf is an equals or in condition (their negations with not) on values of a field.
func filterOf(src, field string, values []string, not bool) semantic.Filter {
	f := semantic.Filter{Source: src, Field: field, Op: data.OpIn}
	for _, v := range values {
		f.Values = append(f.Values, v)
	}
	if not {
		f.Op = data.OpNotIn
	}
	return f
}

// compareValues reads a comparison of values of one field: "Pizze vs Primi", "Hotel vs
// School", "confronta contanti e carta", "Sara o Luca, chi ha fatturato di più". The
// sides become the comparison; the other values stay filters.
func (r *reader) compareValues(groups []*valueGroup) bool {
	difference := r.differenceAsked() && !r.has(gVs) && !r.has(gCompare) || r.differenceSaid()
	compare := r.has(gVs) || r.has(gCompare) || difference
	which := r.moreOfEither(groups)
	var pair []*valueGroup
	for i := 0; i+1 < len(groups); i++ {
		a, b := groups[i], groups[i+1]
		if a.m.src != b.m.src || a.m.field != b.m.field {
			continue
		}
		last, first := a.items[len(a.items)-1], b.items[0]
		if compare && r.vsBetween(last, first) || which && r.orBetween(last, first) || difference && len(groups) == 2 {
			pair = []*valueGroup{a, b}
		}
	}
	var sides [][]string
	var side *valueGroup
	switch {
	case pair != nil:
		sides = [][]string{pair[0].values, pair[1].values}
	case r.periodsCompared():
		// "compare high+critical findings in 2022 vs 2025": the periods are the sides, the
		// values one set that both sides count
	default:
		for _, g := range groups {
			if len(g.sides) >= 2 && !g.not && (compare || (r.has(gWho) || r.has(gWhich)) && (r.has(gMost) || r.has(gLeast)) && !r.rankedOver(groups) || which && r.orJoined(g) && !r.rankedOver(groups)) {
				side, sides = g, g.sides
				break
			}
		}
	}
	if sides == nil {
		return false
	}
	var src, field string
	if pair != nil {
		src, field = pair[0].m.src.Name, pair[0].m.field
	} else {
		src, field = side.m.src.Name, side.m.field
	}
	cmp := &semantic.Compare{}
	for _, vals := range sides {
		cmp.Sides = append(cmp.Sides, semantic.Side{Label: strings.Join(vals, ", "), Filters: []semantic.Filter{filterOf(src, field, vals, false)}})
	}
	r.q.Compare = cmp
	if difference && (pair != nil || len(sides) == 2) { // "how much more revenue did Sara make than Marco": one run of two values
		cmp.Difference = true
		r.differenceWords()
	}
	for _, g := range groups {
		if (pair != nil && (g == pair[0] || g == pair[1])) || g == side {
			for _, k := range g.items {
				r.items[k].used = true
			}
			continue
		}
		r.addValueFilter(g)
	}
	return true
}

// moreOfEither reports a question that asks which of two values of one field has more
// (or less): "incassato di più in contanti o con carta di credito", "do we sell more pizza
// or pasta", "which is more, A or B". Their values joined by "or" are the two sides to
// compare, never one set of rows. A question that names another dimension ("which waiter
// sold more pizza or pasta") ranks that dimension instead, and is not read so.
func (r *reader) moreOfEither(groups []*valueGroup) bool {
	if !r.has(gMost) && !r.has(gLeast) || !r.has(gOr) {
		return false
	}
	return !r.otherDimension(groups)
}

// otherDimension reports a dimension word other than the values' fields: "which department
// has the most critical or high findings" ranks the departments over both severities, it
// compares nothing.
func (r *reader) otherDimension(groups []*valueGroup) bool {
	for _, it := range r.items {
		if m := it.kind(mField); m != nil && !it.used && onlyField(it) && !numeric(m) && !r.fieldOfGroups(m, groups) {
			return true
		}
	}
	return false
}

// rankedOver reports "which department has the most critical or high findings": a
// superlative ranks the other dimension over the values together. A comparative ("which
// waiter sold more pizza or pasta") may compare the values per group, and is no ranking.
func (r *reader) rankedOver(groups []*valueGroup) bool {
	if !r.otherDimension(groups) {
		return false
	}
	for _, it := range r.items {
		if (it.is(gMost) || it.is(gLeast)) && !comparatives[it.word] {
			return true
		}
	}
	return false
}

var comparatives = set("more", "less", "fewer", "piu", "meno", "di piu", "di meno")

// onlyField reports an item that names one field and nothing else (a word may reach the
// same field twice, through two of its words).
func onlyField(it *item) bool {
	for _, m := range it.ms {
		if m.kind != mField || m.src != it.ms[0].src || m.field != it.ms[0].field {
			return false
		}
	}
	return len(it.ms) > 0
}

// fieldOfGroups reports that a field is the field of one of the value groups.
func (r *reader) fieldOfGroups(m *meaning, groups []*valueGroup) bool {
	for _, g := range groups {
		if g.m.src == m.src && g.m.field == m.field {
			return true
		}
	}
	return false
}

// orBetween reports that only "or" and the words that introduce a value ("con", "per le",
// "by") stand between items a and b: "in contanti o con carta di credito".
func (r *reader) orBetween(a, b int) bool {
	or := false
	for k := a + 1; k < b; k++ {
		it := r.items[k]
		switch {
		case it.is(gOr):
			or = true
		case it.is(gFiller), it.is(gWith), it.is(gBy):
		default:
			return false
		}
	}
	return or
}

// orJoined reports a run of values whose last two are joined by "or" and none by "and":
// "pizza or pasta", "pizze, primi o dolci".
func (r *reader) orJoined(g *valueGroup) bool {
	for i := 1; i < len(g.items); i++ {
		for k := g.items[i-1] + 1; k < g.items[i]; k++ {
			if r.items[k].is(gAnd) {
				return false
			}
		}
	}
	n := len(g.items)
	return r.orBetween(g.items[n-2], g.items[n-1])
}
