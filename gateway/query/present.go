package query

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// present writes a semantic result as the answer: the text, the rows or groups as data,
// and the structured result. Every number is as the data returned it (rounded only as the
// schema declares) or Weir's own arithmetic on it (a difference, a share, a growth target).
func (r *run) present(sq *semantic.Query, res *semantic.Result) {
	r.primary = sq.Source
	for _, s := range r.steps {
		if s.Allowed {
			r.md.DataQuery = s.Query
		}
	}
	if r.q.Options.Explain {
		r.md.Steps = r.steps
	}
	out := &Result{Shape: res.Shape, Difference: res.Difference, Growth: res.Growth, Notes: res.Notes}
	cond := describeQuery(sq)
	var text string
	switch res.Shape {
	case semantic.ShapeScalar:
		text = r.presentScalar(res, out, cond)
	case semantic.ShapeGroups:
		text = r.presentGroups(sq, res, out, cond)
	case semantic.ShapeRows:
		text = r.presentRows(sq, res, out, cond)
	}
	for _, n := range res.Notes {
		text += " (" + n + ")"
		r.warn(n)
	}
	r.resp.Answer, r.resp.Result = text, out
	r.md.FindingsAnalyzed = len(r.resp.Rows)
	if out.Count != nil {
		r.md.FindingsAnalyzed = int(*out.Count)
	}
}

func (r *run) presentScalar(res *semantic.Result, out *Result, cond string) string {
	out.Value, out.Unit, out.Measure = res.Values[0], res.Units[0], res.Measures[0]
	r.resp.Columns = res.Measures
	r.resp.Rows = []data.Row{data.NewRow(res.Measures, res.Values)}
	parts := make([]string, len(res.Values))
	for i, v := range res.Values {
		parts[i] = fmt.Sprintf("%s: %s", measureLabel(res.Measures[i], res.Units[i]), withUnit(v, valueUnit(res.Measures[i], res.Units[i])))
	}
	text := strings.Join(parts, "; ") + cond + "."
	if g := res.Growth; g != nil {
		text += fmt.Sprintf(" Grown by %s%%: %s.", format(g.Percent), withUnit(g.Target, res.Units[0]))
	}
	return text
}

func (r *run) presentGroups(sq *semantic.Query, res *semantic.Result, out *Result, cond string) string {
	cols := append([]string{res.Dimension}, res.Measures...)
	r.resp.Columns = cols
	var b strings.Builder
	label := measureLabel(res.Measures[0], res.Units[0])
	switch {
	case sq.Without != nil:
		fmt.Fprintf(&b, "%s with no %s rows%s (%d):", res.Dimension, sq.Source, cond, len(res.Groups))
	case sq.Compare != nil:
		fmt.Fprintf(&b, "%s, compared%s:", label, cond)
	case sq.Order != nil && sq.Limit > 0:
		fmt.Fprintf(&b, "%s by %s, top %d%s:", label, res.Dimension, sq.Limit, cond)
	default:
		fmt.Fprintf(&b, "%s by %s%s:", label, res.Dimension, cond)
	}
	for _, g := range res.Groups {
		r.resp.Rows = append(r.resp.Rows, data.NewRow(cols, append([]any{g.Label}, g.Values...)))
		out.Groups = append(out.Groups, []any{g.Label, g.Values[0]})
		fmt.Fprintf(&b, "\n%s: %s", format(g.Label), withUnit(g.Values[0], valueUnit(res.Measures[0], res.Units[0])))
	}
	if len(res.Groups) == 0 {
		b.WriteString(" no rows match")
	}
	if d := res.Difference; d != nil {
		fmt.Fprintf(&b, "\ndifference (%s − %s): %s", d.To, d.From, withUnit(d.Value, res.Units[0]))
		if d.Percent != nil {
			fmt.Fprintf(&b, " (%s%%)", format(*d.Percent))
		}
	}
	return b.String()
}

func (r *run) presentRows(sq *semantic.Query, res *semantic.Result, out *Result, cond string) string {
	r.resp.Columns, r.resp.Rows = res.Columns, res.Rows
	n := max(res.Total, int64(len(res.Rows)))
	out.Count = &n
	name := r.e.Sources[sq.Source].Dataset.Schema().Name
	switch {
	case n == 0:
		return fmt.Sprintf("No %s rows match%s.", name, cond)
	case n > int64(len(res.Rows)):
		r.md.Pagination = &Pagination{TotalCount: n, Page: max(1, r.q.Options.Page), PageSize: len(res.Rows), Paginated: true}
		return fmt.Sprintf("%d %s rows match%s; %d are shown.", n, name, cond, len(res.Rows))
	case n == 1:
		return fmt.Sprintf("1 %s row matches%s.", name, cond)
	}
	return fmt.Sprintf("%d %s rows match%s.", n, name, cond)
}

// measureLabel names a result column for a reader: "number of orders", "average AGE".
func measureLabel(col, unit string) string {
	for prefix, word := range map[string]string{"count_distinct_": "number of ", "average_": "average ", "max_": "max ", "min_": "min ", "sum_": "total "} {
		if rest, ok := strings.CutPrefix(col, prefix); ok {
			if prefix == "count_distinct_" && unit != "" {
				return word + unit
			}
			return word + rest
		}
	}
	if col == "count" && unit != "" {
		return "number of " + unit
	}
	return col
}

// valueUnit is the unit written after a value: none where the label says it ("number of
// orders: 941").
func valueUnit(col, unit string) string {
	if strings.HasPrefix(measureLabel(col, unit), "number of ") {
		return ""
	}
	return unit
}

func withUnit(v any, unit string) string {
	s := format(v)
	if v == nil {
		return "no value"
	}
	if unit == "" {
		return s
	}
	if unit == "%" {
		return s + "%"
	}
	return s + " " + unit
}

// describeQuery writes a semantic query's conditions: " where category in [Vini] and
// order_date from 2025-03-01 to 2025-03-31".
func describeQuery(q *semantic.Query) string {
	var parts []string
	for _, f := range q.Filters {
		parts = append(parts, describeFilter(f))
	}
	for _, t := range q.Time {
		var rs []string
		for _, rg := range t.Ranges {
			rs = append(rs, rg.From+" to "+rg.To)
		}
		parts = append(parts, fmt.Sprintf("%s from %s", t.Field, strings.Join(rs, " or ")))
	}
	for _, e := range q.Exists {
		switch {
		case e.Not:
			parts = append(parts, "with no "+e.Source+" rows")
		case e.Min > 1:
			parts = append(parts, fmt.Sprintf("with at least %d %s rows", e.Min, e.Source))
		default:
			parts = append(parts, "with "+e.Source+" rows")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " where " + strings.Join(parts, " and ")
}

func describeFilter(f semantic.Filter) string {
	vals := make([]string, len(f.Values))
	for i, v := range f.Values {
		vals[i] = format(v)
		if n, err := strconv.Atoi(vals[i]); err == nil && f.Part == data.GroupWeekday && n >= 0 && n <= 6 {
			vals[i] = time.Weekday(n).String()
		}
	}
	if f.Part != "" {
		f.Field = "the " + f.Part + " of " + f.Field // "the weekday of order_date in [Saturday, Sunday]"
	}
	v := strings.Join(vals, ", ")
	if len(f.Or) > 0 { // a search of the text: "title or description contains permit"
		f.Field = semantic.JoinOr(append([]string{f.Field}, f.Or...))
	}
	switch f.Op {
	case data.OpIn:
		if len(vals) == 1 {
			return fmt.Sprintf("%s = %s", f.Field, v)
		}
		return fmt.Sprintf("%s in [%s]", f.Field, v)
	case data.OpNotIn:
		return fmt.Sprintf("%s not in [%s]", f.Field, v)
	case data.OpEquals:
		return fmt.Sprintf("%s = %s", f.Field, v)
	case data.OpGreaterThan:
		return fmt.Sprintf("%s > %s", f.Field, v)
	case data.OpLessThan:
		return fmt.Sprintf("%s < %s", f.Field, v)
	case data.OpAtLeast:
		return fmt.Sprintf("%s >= %s", f.Field, v)
	case data.OpAtMost:
		return fmt.Sprintf("%s <= %s", f.Field, v)
	}
	return fmt.Sprintf("%s %s %s", f.Field, f.Op, v)
}

// resultRows is a semantic result as columns and rows: the values of a scalar, one row per
// group, or the listing.
func resultRows(res *semantic.Result) ([]string, []data.Row) {
	switch res.Shape {
	case semantic.ShapeScalar:
		return res.Measures, []data.Row{data.NewRow(res.Measures, res.Values)}
	case semantic.ShapeGroups:
		cols := append([]string{res.Dimension}, res.Measures...)
		rows := make([]data.Row, len(res.Groups))
		for i, g := range res.Groups {
			rows[i] = data.NewRow(cols, append([]any{g.Label}, g.Values...))
		}
		return cols, rows
	}
	return res.Columns, res.Rows
}
