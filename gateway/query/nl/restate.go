package nl

import (
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// restatements drop "cioè X", "i.e. X", "ovvero X" where X restates a measure named before
// it by what it is computed from: "il food cost percentuale, cioè il costo delle materie
// prime rispetto al fatturato" asks for the food cost percentage once, not for three
// measures; "fatturato lordo, cioè prezzo x quantità" names the revenue's own fields. X must
// run to the end of the question and name nothing but such measures and fields, the basis
// of the measure, and the words that relate them (rispetto a, over, minus, diviso,
// x); a value, a period or a grouping after the word is no restatement, and the word stays
// unread. Without such a word, a last sentence that relates two or more parts of a measure
// named before it restates it too ("What's the gross margin on the secondi? Revenue minus
// ingredient cost."). A restatement that names what the measure is not computed from
// ("average unit price, total value / total units" of a plain average) is none: its
// words stay unread, and the question is refused.
func (r *reader) restatements() {
	for k, it := range r.items {
		if !it.is(gRestate) {
			continue
		}
		before := r.measuresBefore(k)
		end := r.restatementEnd(k+1, before)
		if len(before) > 0 && r.restates(k+1, end, before) {
			r.note("\"" + it.word + " …\" read as restating " + before[len(before)-1].metric)
			r.items = append(r.items[:k], r.items[end:]...)
			return
		}
		if r.restatesConditions(k+1, end) {
			// "nel secondo semestre 2024, cioè da luglio a dicembre", "within the first 14
			// days, i.e. on study day 14 or earlier": the conditions stay, read with the
			// others (one period said twice is one; conditions join by "and")
			r.note("\"" + it.word + " …\" read as restating the conditions before it")
			it.used = true
			for _, x := range r.items[k+1 : end] {
				if x.is(gFiller) || onlyKind(x.ms, mBasis) {
					x.used = true
				}
			}
		}
		return
	}
	// The formula may start with the measure it restates ("Food cost %: ingredient cost over
	// pre-discount revenue"): the restatement is the shortest tail that restates a measure
	// named before it.
	for k := max(r.trailingFormula(), 1); k < len(r.items); k++ {
		before := r.measuresBefore(k)
		if len(before) > 0 && r.formulaFrom(k) && r.restates(k, len(r.items), before) {
			r.note("\"" + r.span(k) + "\" read as restating " + before[len(before)-1].metric)
			r.items = r.items[:k]
			return
		}
	}
}

// formulaFrom reports that the items from k on relate two or more parts by an arithmetic
// word.
func (r *reader) formulaFrom(k int) bool {
	parts, ops := 0, 0
	for _, x := range r.items[k:] {
		switch {
		case x.is(gArith) && len(x.ms) == 0, x.is(gGT) && x.word == "over":
			ops++
		case x.kind(mMeasure) != nil || x.kind(mField) != nil:
			parts++
		}
	}
	return parts >= 2 && ops > 0
}

// restatesConditions reports a restatement (items k to end) made only of conditions — dates,
// numbers and their comparisons, a field named with them — and fillers, with a condition
// before it that it can restate.
func (r *reader) restatesConditions(k, end int) bool {
	conds := 0
	for _, x := range r.items[k:end] {
		switch {
		case x.date != nil, x.num != nil, comparisonGen(x.gen), x.kind(mField) != nil && len(x.ms) == 1:
			conds++
		case x.is(gFiller), onlyKind(x.ms, mBasis), x.is(gBefore), x.is(gAfter):
		default:
			return false
		}
	}
	prior := false
	for _, x := range r.items[:k] {
		prior = prior || x.date != nil || x.num != nil
	}
	return conds > 0 && prior
}

// restatementEnd is where a restatement starting at k ends: at a grouping or an exclusion
// after it ("il fatturato netto, cioè dopo gli sconti, diviso per categoria", "il fatturato
// lordo, cioè prima degli sconti, escludendo i vini"), else at the end.
func (r *reader) restatementEnd(k int, before []*meaning) int {
	for j := k; j < len(r.items); j++ {
		if r.items[j].is(gNot) {
			return j
		}
		if !r.items[j].is(gBy) && !r.items[j].is(gGroupOf) {
			continue
		}
		if n := r.next(j, 1); relating[r.items[j].word] && n >= 0 && r.partOf(r.items[n], before) {
			continue // "prezzo x quantità": the arithmetic of the measure, no grouping
		}
		return j
	}
	return len(r.items)
}

// partOf reports an item that names a measure, a field or a unit the measures before are
// computed from.
func (r *reader) partOf(x *item, before []*meaning) bool {
	m, f, v := x.kind(mMeasure), x.kind(mField), x.kind(mValue)
	return m != nil && partOfAny(m, before) || f != nil && fieldOfAny(f, before) || v != nil && unitOfAny(v, before)
}

// measuresBefore are the metrics named before item k.
func (r *reader) measuresBefore(k int) []*meaning {
	var before []*meaning
	for _, b := range r.items[:k] {
		if m := b.kind(mMeasure); m != nil && oneMetric(b.ms) {
			before = append(before, m)
		}
	}
	return before
}

// oneMetric reports meanings that all name one metric (a phrase matched as itself and by
// its stem).
func oneMetric(ms []meaning) bool {
	for _, m := range ms {
		if m.kind != mMeasure || m.metric != ms[0].metric || m.src != ms[0].src {
			return false
		}
	}
	return len(ms) > 0
}

// trailingFormula is where the last run of measures and fields related by an arithmetic
// word starts ("Revenue minus ingredient cost" at the end), or -1: at least two parts and
// one arithmetic word, nothing else but fillers.
func (r *reader) trailingFormula() int {
	parts, ops, start := 0, 0, -1
	for k := len(r.items) - 1; k >= 0; k-- {
		x := r.items[k]
		switch {
		case x.is(gArith) && len(x.ms) == 0, x.is(gGT) && x.word == "over":
			ops++ // "ingredient cost over pre-discount revenue"
		case x.kind(mMeasure) != nil || x.kind(mField) != nil:
			parts++
		case x.is(gFiller) || x.is(gSum), onlyKind(x.ms, mBasis):
		default:
			k = -1
			continue
		}
		start = k
	}
	if parts < 2 || ops == 0 {
		return -1
	}
	for start < len(r.items) && r.items[start].is(gFiller) {
		start++
	}
	return start
}

// span is the words of the items from k on.
func (r *reader) span(k int) string {
	var words []string
	for _, x := range r.items[k:] {
		words = append(words, x.word)
	}
	return strings.Join(words, " ")
}

// relating are the words of a restatement that relate the measures it names: the food
// cost over the revenue, the revenue minus the food cost, the price times the quantity.
var relating = set("over", "sul", "su", "meno", "less", "x", "per")

// restates reports that the items from k to end name only measures and fields that are,
// or are parts of, a measure before, and at least one.
func (r *reader) restates(k, end int, before []*meaning) bool {
	named := false
	for _, x := range r.items[k:end] {
		switch {
		case r.partOf(x, before): // "total kilos": the quantity, in its unit
			named = true
		case onlyKind(x.ms, mBasis): // "prima degli sconti": the basis it has
			named = named || basisOfAny(x.ms[0].metric, before)
		case x.is(gFiller), x.is(gVs), x.is(gPercent), x.is(gSum), len(x.ms) == 0 && (x.is(gArith) || relating[x.word] || x.is(gGT) && x.word == "over"):
		default:
			return false
		}
	}
	return named
}

// fieldOfAny reports a field that a measure before is computed from (unit_price and
// quantity of sum(unit_price * quantity)).
func fieldOfAny(f *meaning, before []*meaning) bool {
	for _, b := range before {
		if whole, ok := b.src.Dataset.Metric(b.metric); ok && b.src == f.src && usesField(whole, f.field) {
			return true
		}
	}
	return false
}

// unitOfAny reports a value of the unit field of a field a measure before is computed from
// ("kilos" of the quantity of sum(totalValueUSD) / sum(quantity)).
func unitOfAny(v *meaning, before []*meaning) bool {
	for _, b := range before {
		whole, ok := b.src.Dataset.Metric(b.metric)
		if !ok || b.src != v.src {
			continue
		}
		for name, fd := range b.src.Decl.Fields {
			if fd.UnitField == v.field && usesField(whole, name) {
				return true
			}
		}
	}
	return false
}

func usesField(e *data.Expr, name string) bool {
	if e == nil {
		return false
	}
	return e.Field != nil && e.Field.Name == name || usesField(e.Left, name) || usesField(e.Right, name)
}

// partOfAny reports a measure that is one of before, or that one of them is computed from
// (food_cost of food_cost / revenue * 100).
func partOfAny(m *meaning, before []*meaning) bool {
	part, ok := m.src.Dataset.Metric(m.metric)
	for _, b := range before {
		whole, found := b.src.Dataset.Metric(b.metric)
		if b.src == m.src && (b.metric == m.metric || ok && found && hasSubExpr(whole, part)) {
			return true
		}
	}
	return false
}

// hasSubExpr reports that expression e has sub as a subexpression.
func hasSubExpr(e, sub *data.Expr) bool {
	if e == nil {
		return false
	}
	return sameExpr(e, sub) || hasSubExpr(e.Left, sub) || hasSubExpr(e.Right, sub)
}

func sameExpr(a, b *data.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Op != b.Op || a.Func != b.Func || a.Value != b.Value || a.Star != b.Star {
		return false
	}
	if (a.Field == nil) != (b.Field == nil) || a.Field != nil && a.Field.Name != b.Field.Name {
		return false
	}
	return sameExpr(a.Left, b.Left) && sameExpr(a.Right, b.Right)
}

// basisOfAny reports a basis word of a measure before ("cioè prima degli sconti" of the
// revenue).
func basisOfAny(metric string, before []*meaning) bool {
	for _, b := range before {
		if b.metric == metric {
			return true
		}
	}
	return false
}
