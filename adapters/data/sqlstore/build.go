package sqlstore

import (
	"strconv"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// stmt is one SQL statement with its parameters.
type stmt struct {
	sql  string
	args []any
}

// builder renders a plan as SQL. Values only ever enter through arg.
type builder struct {
	d    dialect
	sb   strings.Builder
	args []any
	// fuzzy holds, for PostgreSQL, the matching values of each fuzzy predicate (computed in Go
	// from the column's distinct values) keyed by predicate.
	fuzzy map[*data.Pred][]string
}

func (b *builder) arg(v any) string {
	b.args = append(b.args, v)
	return b.d.ph(len(b.args))
}

func (b *builder) w(parts ...string) {
	for _, p := range parts {
		b.sb.WriteString(p)
	}
}

// build renders the plan's SELECT.
func (b *builder) build(p *data.Plan, limit int) stmt {
	s := p.Dataset.Schema()
	var cols []string
	if len(p.Aggs) == 0 {
		for _, f := range s.Fields {
			cols = append(cols, b.d.quote(f.Column)+" AS "+b.d.quote(f.Name))
		}
	} else {
		if p.Group != nil {
			cols = append(cols, b.groupExpr(p.Group)+" AS "+b.d.quote(p.Group.Name))
		}
		for _, a := range p.Aggs {
			cols = append(cols, b.aggExpr(a)+" AS "+b.d.quote(a.Name))
		}
		// Grouping computes every group before ORDER BY and LIMIT anyway, so counting them
		// in the same statement is free.
		cols = append(cols, "COUNT(*) OVER () AS "+b.d.quote(totalColumn))
	}
	b.w("SELECT ", strings.Join(cols, ", "), " FROM ", b.d.quote(s.Table))
	b.where(p.Where)
	if p.Group != nil {
		b.w(" GROUP BY ", b.groupExpr(p.Group))
	}
	b.order(p)
	b.w(" LIMIT ", b.arg(int64(limit)))
	if p.Offset > 0 {
		b.w(" OFFSET ", b.arg(int64(p.Offset)))
	}
	return stmt{sql: b.sb.String(), args: b.args}
}

// totalColumn carries COUNT(*) OVER () in aggregate queries: the number of groups.
const totalColumn = "__weir_total"

// buildCount renders the count of the rows a detail plan matches before its limit. It only
// runs when a result fills its limit: a short result is its own total, and a separate count
// lets the main query stop at its LIMIT (COUNT(*) OVER () would make the engine
// materialise every match first).
func (b *builder) buildCount(p *data.Plan) stmt {
	b.w("SELECT COUNT(*) FROM ", b.d.quote(p.Dataset.Schema().Table))
	b.where(p.Where)
	return stmt{sql: b.sb.String(), args: b.args}
}

func (b *builder) groupExpr(g *data.GroupKey) string {
	col := b.d.quote(g.Field.Column)
	switch g.Part {
	case data.GroupDay:
		return b.d.day(col)
	case data.GroupQuarter:
		return b.d.quarter(col)
	case data.GroupMonth:
		return b.d.month(col)
	case data.GroupYear:
		return b.d.year(col)
	case data.GroupWeekday:
		return b.d.weekday(col)
	}
	return col
}

func (b *builder) order(p *data.Plan) {
	if p.Order == nil {
		return
	}
	dir := " ASC"
	if p.Order.Desc {
		dir = " DESC"
	}
	if p.Order.Field != nil {
		b.w(" ORDER BY ", b.d.quote(p.Order.Field.Column), dir)
		return
	}
	b.w(" ORDER BY ", b.d.quote(p.Order.Name), dir)
	// Ties are broken by the group key so that equal totals come back in a stable order.
	if p.Group != nil && p.Order.Name != p.Group.Name {
		b.w(", ", b.d.quote(p.Group.Name), " ASC")
	}
}

// aggExpr renders an aggregation. Sums and averages of numbers are cast to floating point so
// that both engines return float64 (PostgreSQL would otherwise return numeric).
func (b *builder) aggExpr(a data.Agg) string {
	if a.Metric != nil {
		x := b.expr(a.Metric)
		if isIntExpr(a.Metric) {
			return "CAST(" + x + " AS " + b.d.intType() + ")"
		}
		return "CAST(" + x + " AS " + b.d.floatType() + ")"
	}
	if a.Field == nil {
		return "COUNT(*)"
	}
	col := b.d.quote(a.Field.Column)
	switch a.Op {
	case data.AggCount:
		return "COUNT(" + col + ")"
	case data.AggCountDistinct:
		return "COUNT(DISTINCT " + col + ")"
	case data.AggAverage:
		return "CAST(AVG(" + col + ") AS " + b.d.floatType() + ")"
	case data.AggSum:
		if a.Field.Type == data.TypeInt {
			return "CAST(SUM(" + col + ") AS " + b.d.intType() + ")"
		}
		return "CAST(SUM(" + col + ") AS " + b.d.floatType() + ")"
	}
	fn := strings.ToUpper(a.Op) // min, max
	if a.Field.Type == data.TypeNumber {
		return "CAST(" + fn + "(" + col + ") AS " + b.d.floatType() + ")"
	}
	return fn + "(" + col + ")"
}

// expr renders a compiled metric expression. Numbers are formatted by strconv from parsed
// float64s, so no text from the schema reaches SQL; division is done in floating point and
// yields NULL instead of failing when the divisor is zero.
func (b *builder) expr(e *data.Expr) string {
	switch e.Kind {
	case data.ExprNumber:
		return strconv.FormatFloat(e.Value, 'f', -1, 64)
	case data.ExprColumn:
		return b.d.quote(e.Field.Column)
	case data.ExprAgg:
		if e.Star {
			return "COUNT(*)"
		}
		if e.Func == "count_distinct" {
			return "COUNT(DISTINCT " + b.expr(e.Left) + ")"
		}
		fn := map[string]string{"sum": "SUM", "avg": "AVG", "min": "MIN", "max": "MAX", "count": "COUNT"}[e.Func]
		return fn + "(" + b.expr(e.Left) + ")"
	case data.ExprNeg:
		return "(-" + b.expr(e.Left) + ")"
	case data.ExprBinary:
		if e.Op == '/' {
			return "(CAST(" + b.expr(e.Left) + " AS " + b.d.floatType() + ") / NULLIF(" + b.expr(e.Right) + ", 0))"
		}
		return "(" + b.expr(e.Left) + " " + string(e.Op) + " " + b.expr(e.Right) + ")"
	}
	return "NULL"
}

// isIntExpr reports whether a metric yields integers: counts, and sums, minima and maxima
// of int fields, combined with + - * and whole numbers.
func isIntExpr(e *data.Expr) bool {
	switch e.Kind {
	case data.ExprNumber:
		return e.Value == float64(int64(e.Value))
	case data.ExprColumn:
		return e.Field.Type == data.TypeInt
	case data.ExprAgg:
		return e.Func == "count" || e.Func == "count_distinct" || (e.Func != "avg" && isIntExpr(e.Left))
	case data.ExprNeg:
		return isIntExpr(e.Left)
	case data.ExprBinary:
		return e.Op != '/' && isIntExpr(e.Left) && isIntExpr(e.Right)
	}
	return false
}
