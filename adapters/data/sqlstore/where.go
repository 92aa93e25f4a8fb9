package sqlstore

import (
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// where renders the plan's disjunction of conjunctions.
func (b *builder) where(groups [][]data.Pred) {
	if len(groups) == 0 {
		return
	}
	b.w(" WHERE ")
	for i, g := range groups {
		if i > 0 {
			b.w(" OR ")
		}
		b.w("(")
		for j := range g {
			if j > 0 {
				b.w(" AND ")
			}
			b.pred(&g[j])
		}
		b.w(")")
	}
}

// pred renders one predicate: the column transformed for the match strategy, compared with
// parameters transformed the same way (in Go, see data.Pred.Folded).
func (b *builder) pred(p *data.Pred) {
	if p.Not {
		// NOT of a comparison with NULL is NULL, so a row without a value never matches a
		// negation either, as in data.Eval.
		b.w("NOT (")
		b.positive(p)
		b.w(")")
		return
	}
	b.positive(p)
}

// positive renders a predicate without its negation.
func (b *builder) positive(p *data.Pred) {
	col := b.d.quote(p.Field.Column)
	if p.Part == data.GroupWeekday {
		b.compare(b.d.weekday(col), p, p.Values)
		return
	}
	if p.Strategy == data.MatchFuzzy {
		b.fuzzyPred(p, col)
		return
	}
	x, vals := col, p.Values
	switch p.Strategy {
	case data.MatchCaseInsensitive:
		x, vals = b.d.lower(col), strs(p.Folded)
	case data.MatchNormalized:
		from, to := data.FoldTable()
		x, vals = b.d.fold(col, b.argIf(from), b.argIf(to)), strs(p.Folded)
	}
	b.compare(x, p, vals)
}

// argIf passes the translate() tables only where the dialect uses them.
func (b *builder) argIf(s string) string {
	if b.d.kind != Postgres {
		return ""
	}
	return b.arg(s)
}

func (b *builder) compare(x string, p *data.Pred, vals []any) {
	param := func(v any) string {
		if p.Field.Type == data.TypeDate && p.Part == "" {
			return b.d.dateParam(b.arg(v))
		}
		return b.arg(v)
	}
	switch p.Op {
	case data.OpEquals:
		b.w(x, " = ", param(vals[0]))
	case data.OpGreaterThan:
		b.w(x, " > ", param(vals[0]))
	case data.OpLessThan:
		b.w(x, " < ", param(vals[0]))
	case data.OpAtLeast:
		b.w(x, " >= ", param(vals[0]))
	case data.OpAtMost:
		b.w(x, " <= ", param(vals[0]))
	case data.OpBetween:
		b.w(x, " BETWEEN ", param(vals[0]), " AND ", param(vals[1]))
	case data.OpContains:
		b.w(b.d.contains(x, b.arg(vals[0])))
	case data.OpStartsWith:
		b.w(b.d.startsWith(x, b.arg(vals[0])))
	case data.OpIn:
		ps := make([]string, len(vals))
		for i, v := range vals {
			ps[i] = param(v)
		}
		b.w(x, " IN (", strings.Join(ps, ", "), ")")
	default:
		b.w("1 = 0") // unreachable: Plan only admits the operators above
	}
}

// fuzzyPred renders a fuzzy predicate. SQLite calls data.FuzzyMatch per row through the
// registered weir_fuzzy function; PostgreSQL gets the matching values that were computed in
// Go from the column's distinct values, as an exact IN list.
func (b *builder) fuzzyPred(p *data.Pred, col string) {
	if b.d.kind == Postgres {
		matches := b.fuzzy[p]
		if len(matches) == 0 {
			b.w("1 = 0")
			return
		}
		b.compare(col, &data.Pred{Field: p.Field, Op: data.OpIn}, strs(matches))
		return
	}
	op := p.Op
	if op == data.OpIn {
		op = data.OpEquals
	}
	b.w("(")
	for i, v := range p.Folded {
		if i > 0 {
			b.w(" OR ")
		}
		b.w("weir_fuzzy(", col, ", ", b.arg(v), ", ", b.arg(int64(p.Threshold)), ", ", b.arg(op), ") = 1")
	}
	b.w(")")
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
