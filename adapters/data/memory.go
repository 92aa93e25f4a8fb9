package data

import (
	"math"
	"sort"
	"strings"
	"time"
)

// Eval runs a plan over rows held in memory (values in schema field order, typed as Plan
// values are: string, float64, int64, date strings). It is the engine of backends that
// cannot run the query themselves (httpstore), and the reference the SQL backends are
// tested against. Semantics match the SQL backends: NULLs never match a filter, sums of
// nothing are NULL, division by zero is NULL.
func Eval(p *Plan, rows [][]any) *Result {
	var kept [][]any
	for _, r := range rows {
		if matchWhere(p, r) {
			kept = append(kept, r)
		}
	}
	res := &Result{Columns: p.Columns(), Rows: []Row{}}
	var out [][]any
	if len(p.Aggs) == 0 {
		out = kept
	} else {
		out = aggregate(p, kept)
	}
	sortRows(p, res.Columns, out)
	res.Total = int64(len(out))
	out = out[min(len(out), p.Offset):]
	for _, r := range out[:min(len(out), p.Limit)] {
		res.Rows = append(res.Rows, NewRow(res.Columns, r))
	}
	res.Truncated = res.Total > int64(len(res.Rows))
	res.Warnings = append(res.Warnings, p.Warnings...)
	RoundMetrics(p, res)
	return res
}

func matchWhere(p *Plan, r []any) bool {
	if len(p.Where) == 0 {
		return true
	}
	fields := p.Dataset.schema.Fields
	for _, g := range p.Where {
		all := true
		for i := range g {
			if !matchPred(&g[i], datePart(g[i].Part, r[fieldIndex(fields, g[i].Field)])) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func fieldIndex(fields []Field, f *Field) int {
	for i := range fields {
		if fields[i].Name == f.Name {
			return i
		}
	}
	return -1
}

func matchPred(pr *Pred, v any) bool {
	if v == nil {
		return false
	}
	return matchValue(pr, v) != pr.Not
}

func matchValue(pr *Pred, v any) bool {
	vals := pr.Values
	if s, ok := v.(string); ok && pr.Strategy != MatchExact {
		switch pr.Strategy {
		case MatchCaseInsensitive:
			v = strings.ToLower(s)
		default:
			v = Fold(s)
		}
		vals = strs(pr.Folded)
	}
	if pr.Strategy == MatchFuzzy {
		for _, n := range pr.Folded {
			if FuzzyMatch(pr.Op, v.(string), n, pr.Threshold) {
				return true
			}
		}
		return false
	}
	switch pr.Op {
	case OpEquals:
		return compareAny(v, vals[0]) == 0
	case OpGreaterThan:
		return compareAny(v, vals[0]) > 0
	case OpLessThan:
		return compareAny(v, vals[0]) < 0
	case OpAtLeast:
		return compareAny(v, vals[0]) >= 0
	case OpAtMost:
		return compareAny(v, vals[0]) <= 0
	case OpBetween:
		return compareAny(v, vals[0]) >= 0 && compareAny(v, vals[1]) <= 0
	case OpContains:
		return strings.Contains(v.(string), vals[0].(string))
	case OpStartsWith:
		return strings.HasPrefix(v.(string), vals[0].(string))
	case OpIn:
		for _, x := range vals {
			if compareAny(v, x) == 0 {
				return true
			}
		}
	}
	return false
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// compareAny orders two values, comparing numbers as numbers whatever their Go type.
func compareAny(a, b any) int {
	fa, aNum := toFloat(a)
	fb, bNum := toFloat(b)
	if aNum && bNum {
		return cmpOrdered(fa, fb)
	}
	as, _ := a.(string)
	bs, _ := b.(string)
	return strings.Compare(as, bs)
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func sortRows(p *Plan, cols []string, rows [][]any) {
	if p.Order == nil {
		return
	}
	i := indexOf(cols, p.Order.Name)
	g := -1
	if p.Group != nil {
		g = indexOf(cols, p.Group.Name)
	}
	sort.SliceStable(rows, func(a, b int) bool {
		c := compareNullable(rows[a][i], rows[b][i])
		if p.Order.Desc {
			c = -c
		}
		if c == 0 && g >= 0 {
			c = compareNullable(rows[a][g], rows[b][g])
		}
		return c < 0
	})
}

// compareNullable sorts NULLs first ascending, as SQLite does.
func compareNullable(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return compareAny(a, b)
}

func aggregate(p *Plan, rows [][]any) [][]any {
	fields := p.Dataset.schema.Fields
	groups := map[any][][]any{}
	var keys []any
	for _, r := range rows {
		var k any
		if p.Group != nil {
			k = groupValue(p.Group, r[fieldIndex(fields, p.Group.Field)])
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	if p.Group == nil && len(keys) == 0 {
		keys = append(keys, nil) // an aggregate without grouping always has one row
	}
	out := make([][]any, 0, len(keys))
	for _, k := range keys {
		var row []any
		if p.Group != nil {
			row = append(row, k)
		}
		for _, a := range p.Aggs {
			row = append(row, aggValue(a, fields, groups[k]))
		}
		out = append(out, row)
	}
	return out
}

func groupValue(g *GroupKey, v any) any {
	s, _ := v.(string)
	switch {
	case g.Part == GroupDay && len(s) >= 10:
		return s[:10]
	case g.Part == GroupMonth && len(s) >= 7:
		return s[:7]
	case g.Part == GroupQuarter && len(s) >= 7:
		m, _ := toInt(s[5:7])
		return s[:4] + "-Q" + string(rune('0'+(m+2)/3))
	case g.Part == GroupYear && len(s) >= 4:
		y, _ := toInt(s[:4])
		return y
	case g.Part == GroupWeekday:
		return datePart(GroupWeekday, v)
	case g.Part != "":
		return nil
	}
	return v
}

// datePart is the part of a date value a predicate or a grouping tests: the weekday, an
// int64 from 0 (Sunday) to 6; nil for a value that is no date. Without a part, the value.
func datePart(part string, v any) any {
	if part == "" {
		return v
	}
	s, _ := v.(string)
	if len(s) < 10 {
		return nil
	}
	t, err := time.Parse(time.DateOnly, s[:10])
	if err != nil {
		return nil
	}
	return int64(t.Weekday())
}

func toInt(s string) (int64, bool) {
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

func aggValue(a Agg, fields []Field, rows [][]any) any {
	if a.Metric != nil {
		v := evalExpr(a.Metric, fields, rows)
		if f, ok := v.(float64); ok && isWhole(a.Metric) {
			return int64(f)
		}
		return v
	}
	if a.Field == nil {
		return int64(len(rows))
	}
	i := fieldIndex(fields, a.Field)
	col := make([]any, len(rows))
	for j, r := range rows {
		col[j] = r[i]
	}
	if a.Op == AggCountDistinct {
		return countDistinct(col)
	}
	v := reduce(a.Op, col)
	if f, ok := v.(float64); ok && a.Field.Type == TypeInt && (a.Op == AggSum || a.Op == AggMin || a.Op == AggMax) {
		return int64(f)
	}
	return v
}

// countDistinct counts the distinct non-null values of a column.
func countDistinct(col []any) int64 {
	seen := map[any]bool{}
	for _, v := range col {
		if v != nil {
			seen[v] = true
		}
	}
	return int64(len(seen))
}

// reduce applies an operation to a column, skipping NULLs as SQL does.
func reduce(op string, col []any) any {
	var n int64
	var sum float64
	var best any
	for _, v := range col {
		if v == nil {
			continue
		}
		n++
		if f, ok := toFloat(v); ok {
			sum += f
		}
		if best == nil || (op == AggMin && compareAny(v, best) < 0) || (op == AggMax && compareAny(v, best) > 0) {
			best = v
		}
	}
	switch {
	case op == AggCount || op == "count":
		return n
	case n == 0:
		return nil
	case op == AggSum || op == "sum":
		return sum
	case op == AggAverage || op == "avg":
		return sum / float64(n)
	}
	if f, ok := toFloat(best); ok {
		return f
	}
	return best
}

// evalExpr evaluates a compiled metric over a group of rows.
func evalExpr(e *Expr, fields []Field, rows [][]any) any {
	switch e.Kind {
	case ExprNumber:
		return e.Value
	case ExprAgg:
		if e.Star {
			return int64(len(rows))
		}
		col := make([]any, len(rows))
		for i, r := range rows {
			col[i] = evalRow(e.Left, fields, r)
		}
		if e.Func == "count_distinct" {
			return countDistinct(col)
		}
		return reduce(e.Func, col)
	case ExprNeg:
		if f, ok := toFloat(evalExpr(e.Left, fields, rows)); ok {
			return -f
		}
		return nil
	case ExprBinary:
		return arith(e.Op, evalExpr(e.Left, fields, rows), evalExpr(e.Right, fields, rows))
	}
	return nil
}

// evalRow evaluates the row-level expression inside an aggregate.
func evalRow(e *Expr, fields []Field, r []any) any {
	switch e.Kind {
	case ExprNumber:
		return e.Value
	case ExprColumn:
		return r[fieldIndex(fields, e.Field)]
	case ExprNeg:
		if f, ok := toFloat(evalRow(e.Left, fields, r)); ok {
			return -f
		}
		return nil
	case ExprBinary:
		return arith(e.Op, evalRow(e.Left, fields, r), evalRow(e.Right, fields, r))
	}
	return nil
}

func arith(op byte, a, b any) any {
	x, okA := toFloat(a)
	y, okB := toFloat(b)
	if !okA || !okB {
		return nil
	}
	switch op {
	case '+':
		return x + y
	case '-':
		return x - y
	case '*':
		return x * y
	}
	if y == 0 {
		return nil
	}
	return x / y
}

// isWhole reports whether a metric yields integers (counts and sums of int fields), so
// that in-memory results have the same types as SQL results.
func isWhole(e *Expr) bool {
	switch e.Kind {
	case ExprNumber:
		return e.Value == math.Trunc(e.Value)
	case ExprColumn:
		return e.Field.Type == TypeInt
	case ExprAgg:
		return e.Func == "count" || e.Func == "count_distinct" || (e.Func != "avg" && isWhole(e.Left))
	case ExprNeg:
		return isWhole(e.Left)
	case ExprBinary:
		return e.Op != '/' && isWhole(e.Left) && isWhole(e.Right)
	}
	return false
}
