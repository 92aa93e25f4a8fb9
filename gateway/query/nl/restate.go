package nl

import "github.com/weirgw/weir/adapters/data"

// restatements drop "cioè X", "i.e. X", "ovvero X" where X restates a measure named before
// it by the measures it is computed from: "il food cost percentuale, cioè il costo delle
// materie prime rispetto al fatturato" asks for the food cost percentage once, not for
// three measures. X must run to the end of the question and name nothing but such
// measures and the words that relate them (rispetto a, over, in percentuale); a value, a
// period or a grouping after the word is no restatement, and the word stays unread.
func (r *reader) restatements() {
	for k, it := range r.items {
		if !it.is(gRestate) {
			continue
		}
		var before []*meaning
		for _, b := range r.items[:k] {
			if m := b.kind(mMeasure); m != nil && len(b.ms) == 1 {
				before = append(before, m)
			}
		}
		if len(before) == 0 || !r.restates(k+1, before) {
			return
		}
		r.note("\"" + it.word + " …\" read as restating " + before[len(before)-1].metric)
		r.items = r.items[:k]
		return
	}
}

// relating are the words of a restatement that relate the measures it names: the food
// cost over the revenue, the revenue minus the food cost.
var relating = set("over", "divided by", "diviso", "diviso per", "sul", "su", "minus", "meno", "less")

// restates reports that the items from k on name only measures that are, or are parts of,
// a measure before, and at least one.
func (r *reader) restates(k int, before []*meaning) bool {
	named := false
	for _, x := range r.items[k:] {
		m := x.kind(mMeasure)
		switch {
		case m != nil && len(x.ms) == 1 && partOfAny(m, before):
			named = true
		case x.is(gFiller), x.is(gVs), x.is(gPercent), len(x.ms) == 0 && relating[x.word]:
		default:
			return false
		}
	}
	return named
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
