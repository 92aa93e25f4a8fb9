package semantic

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// grouped answers a breakdown or a ranking: the measures per group, ordered, and cut at
// the limit with the ties at the cut kept.
func (x *exec) grouped(ctx context.Context) error {
	gs, err := x.groups(ctx, x.q.GroupBy, x.baseScope(), "the answer")
	if err != nil {
		return err
	}
	x.labels()
	if h := x.q.Having; h != nil {
		gs = x.having(gs, h)
	}
	x.res.Total = int64(len(gs))
	if x.q.CountGroups { // "how many customers placed at least 5 orders": the groups that pass
		h := x.q.Having
		unit := ""
		if src := x.m.Source(x.q.GroupBy.Source); src != nil {
			unit = src.Decl.Fields[x.q.GroupBy.Field].Counts
		}
		x.res.Shape, x.res.Dimension, x.res.Groups = ShapeScalar, "", nil
		x.res.Measures = []string{fmt.Sprintf("number of %s with %s %s %s", x.q.GroupBy.Field, x.res.Measures[h.Measure], h.Op, strconv.FormatFloat(h.Value, 'f', -1, 64))}
		x.res.Units = []string{unit}
		x.res.Values = []any{int64(len(gs))}
		return nil
	}
	if o := x.q.Order; o != nil && o.Measure < len(x.q.Measures) {
		sort.SliceStable(gs, func(i, j int) bool {
			a, _ := toFloat(gs[i].Values[o.Measure])
			b, _ := toFloat(gs[j].Values[o.Measure])
			if gs[i].Values[o.Measure] == nil || gs[j].Values[o.Measure] == nil {
				return gs[j].Values[o.Measure] == nil && gs[i].Values[o.Measure] != nil
			}
			if o.Desc {
				return a > b
			}
			return a < b
		})
		gs = x.cut(gs, o.Measure)
	} else if x.q.Limit > 0 && len(gs) > x.q.Limit {
		gs = gs[:x.q.Limit]
	}
	x.res.Shape, x.res.Groups = ShapeGroups, gs
	x.res.Dimension = dimensionName(x.q.GroupBy)
	return nil
}

// having keeps the groups whose measure passes the threshold, and says how many of how many.
func (x *exec) having(gs []Group, h *Having) []Group {
	var out []Group
	for _, g := range gs {
		v, ok := toFloat(g.Values[h.Measure])
		if !ok || g.Values[h.Measure] == nil {
			continue
		}
		if h.Op == data.OpGreaterThan && v > h.Value || h.Op == data.OpAtLeast && v >= h.Value ||
			h.Op == data.OpLessThan && v < h.Value || h.Op == data.OpAtMost && v <= h.Value {
			out = append(out, g)
		}
	}
	x.res.Notes = append(x.res.Notes, fmt.Sprintf("%d of %d groups have %s %s %s", len(out), len(gs), x.res.Measures[h.Measure], h.Op, strconv.FormatFloat(h.Value, 'f', -1, 64)))
	return out
}

// cut keeps the first Limit groups and every group tied with the last one kept: a ranking
// never drops a group that has the same value as one it shows.
func (x *exec) cut(gs []Group, by int) []Group {
	n := x.q.Limit
	if n <= 0 || len(gs) <= n {
		return gs
	}
	last := gs[n-1].Values[by]
	for n < len(gs) && fmt.Sprint(gs[n].Values[by]) == fmt.Sprint(last) {
		n++
	}
	if n > x.q.Limit {
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("%d groups share the value at position %d, so %d are shown", n-x.q.Limit+1, x.q.Limit, n))
	}
	return gs[:n]
}

func dimensionName(d *Dimension) string {
	if d == nil {
		return ""
	}
	if d.Grain != "" {
		return d.Grain
	}
	return d.Field
}

// listing answers with the fact rows themselves.
func (x *exec) listing(ctx context.Context) error {
	filters, empty, err := x.where(ctx, x.baseScope())
	if err != nil {
		return err
	}
	x.res.Shape = ShapeRows
	x.res.Columns = x.fact.Schema().FieldNames()
	if empty {
		return nil
	}
	recorded, err := x.orderUnit(ctx)
	if err != nil {
		return err
	}
	q := &data.Query{Type: "detail", Filters: filters, Limit: x.q.Limit, Offset: x.q.Offset}
	if o := x.q.Order; o != nil && o.Field != "" {
		q.OrderBy = o.Field
		if o.Desc {
			q.OrderBy += " desc"
		}
	}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadRows, Query: q, Why: "the rows"})
	if err != nil {
		return err
	}
	rows := res.Rows
	if o := x.q.Order; o != nil && o.Field != "" && x.q.Limit > 0 && len(rows) == x.q.Limit && res.Total > int64(len(rows)) {
		rows, err = x.tiedRows(ctx, q, rows, o.Field)
		if err != nil {
			return err
		}
	}
	x.res.Columns, x.res.Rows, x.res.Total = res.Columns, rows, max(res.Total, int64(len(rows)))
	if x.q.Limit > 0 && x.q.Order != nil {
		x.res.Total = int64(len(rows)) // "the oldest finding" is the answer, not one of many
	}
	if unit, ok := x.rankedBy(); ok {
		x.rankedRows(rows, cmp.Or(recorded, unit))
	}
	return nil
}

// rankedBy reports a listing that ranks the rows themselves by a number ("the 3 biggest
// declarations by value"), when the rows have a key to label them by, with the unit of the
// number.
func (x *exec) rankedBy() (string, bool) {
	o, key := x.q.Order, x.fact.Decl.Rows.Key
	if o == nil || !o.Ranked || o.Field == "" || x.q.Limit == 0 || key == "" {
		return "", false
	}
	f := x.fact.Field(o.Field)
	return x.fact.Decl.Fields[o.Field].Unit, f != nil && f.Type.Numeric()
}

// rankedRows writes a ranking of rows as groups: each row's key with the number it is
// ranked by, in the listing's order.
func (x *exec) rankedRows(rows []data.Row, unit string) {
	o, key := x.q.Order, x.fact.Decl.Rows.Key
	x.res.Shape, x.res.Dimension = ShapeGroups, key
	x.res.Measures, x.res.Units = []string{o.Field}, []string{unit}
	x.res.Groups = make([]Group, len(rows))
	for i, r := range rows {
		x.res.Groups[i] = Group{Label: r.Get(key), Values: []any{r.Get(o.Field)}}
	}
}

// orderUnit checks that the field a listing is ordered by is in one unit over its rows
// (quantities in kg and pcs do not compare), and returns it ("" for a field without a
// unit field).
func (x *exec) orderUnit(ctx context.Context) (string, error) {
	o := x.q.Order
	if o == nil || o.Field == "" || x.fact.Decl.Fields[o.Field].UnitField == "" {
		return "", nil
	}
	units, err := x.units(ctx, x.baseScope(), o.Field, x.fact.Decl.Fields[o.Field].UnitField)
	if err != nil {
		return "", err
	}
	if len(units) > 1 {
		return "", unanswerable("%s is recorded in different units (%s) for these rows, and they cannot be compared; ask for one unit", o.Field, strings.Join(units, ", "))
	}
	if len(units) == 1 {
		return units[0], nil
	}
	return "", nil
}

// tiedRows extends an ordered, limited listing with the rows tied with its last row.
func (x *exec) tiedRows(ctx context.Context, q *data.Query, rows []data.Row, field string) ([]data.Row, error) {
	last := rows[len(rows)-1].Get(field)
	more := *q
	more.Filters = append(append([]data.Filter(nil), q.Filters...), data.Filter{Field: field, Operator: data.OpEquals, Value: jsonValue(last)})
	if hasOr(q.Filters) {
		return rows, nil // a tie check would need the filters regrouped; the note below says so
	}
	more.Limit = x.fact.Schema().MaxLimit
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadRows, Query: &more, Why: "rows tied with the last one shown"})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[fmt.Sprint(r.Values)] = true
	}
	for _, r := range res.Rows {
		if !seen[fmt.Sprint(r.Values)] {
			rows = append(rows, r)
		}
	}
	if len(res.Rows) > 1 {
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("%d rows share the same %s", len(res.Rows), field))
	}
	return rows, nil
}

func hasOr(fs []data.Filter) bool {
	for _, f := range fs {
		if f.LogicalOperator == "OR" {
			return true
		}
	}
	return false
}

// compare computes the measures on each side and the difference of the first measure
// from the first side to the last.
func (x *exec) compare(ctx context.Context) error {
	x.labels()
	for _, side := range x.q.Compare.Sides {
		vals, err := x.values(ctx, x.baseScope().with(side.Filters, side.Time, nil), ReadCompare, "the value for "+side.Label)
		if err != nil {
			return err
		}
		x.res.Groups = append(x.res.Groups, Group{Label: side.Label, Values: vals})
	}
	x.res.Shape, x.res.Dimension = ShapeGroups, "compared"
	gs := x.res.Groups
	if len(gs) >= 2 {
		a, aok := toFloat(gs[0].Values[0])
		b, bok := toFloat(gs[len(gs)-1].Values[0])
		if aok && bok {
			d := &Difference{From: fmt.Sprint(gs[0].Label), To: fmt.Sprint(gs[len(gs)-1].Label), Value: round2(b - a)}
			if a != 0 {
				p := round2((b - a) / a * 100)
				d.Percent = &p
			}
			x.res.Difference = d
			switch {
			case x.q.Compare.PercentChange && len(gs) == 2 && a != 0: // asked in percent, whatever else is asked
				x.askedPercentChange(a, b)
				return nil
			case x.q.Compare.PercentChange:
			case x.q.Compare.Difference && len(gs) == 2:
				x.askedDifference(a, b)
			}
		}
	}
	if x.q.Compare.PercentChange {
		return unanswerable("a change in percent from %v, which has no value other than 0", gs[0].Label)
	}
	return nil
}

// askedDifference answers a comparison whose question asks the difference: the first
// side's value minus the second's, as one value, with both values in a note.
func (x *exec) askedDifference(a, b float64) {
	unit := ""
	if len(x.res.Units) > 0 {
		unit = x.res.Units[0]
	}
	x.oneValue(a, b, "%s, %v minus %v", unit, round2(a-b))
}

// askedPercentChange answers a comparison whose question asks the change in percent: the
// last side's value minus the first's, in percent of the first, with both values in a note.
func (x *exec) askedPercentChange(a, b float64) {
	x.oneValue(a, b, "change of %s from %v to %v", "%", round2((b-a)/a*100))
}

// oneValue makes a two-sided comparison's answer one value computed from the sides' values
// a and b, named by format (the measure, the first side, the second), with both values in a
// note.
func (x *exec) oneValue(a, b float64, format, unit string, v float64) {
	gs := x.res.Groups
	measure := "value"
	if len(x.res.Measures) > 0 {
		measure = x.res.Measures[0]
	}
	x.res.Notes = append(x.res.Notes, fmt.Sprintf("%v: %s; %v: %s", gs[0].Label, strconv.FormatFloat(a, 'f', -1, 64), gs[1].Label, strconv.FormatFloat(b, 'f', -1, 64)))
	x.res.Shape, x.res.Dimension, x.res.Groups, x.res.Difference = ShapeScalar, "", nil, nil
	x.res.Measures = []string{fmt.Sprintf(format, measure, gs[0].Label, gs[1].Label)}
	x.res.Units = []string{unit}
	x.res.Values = []any{v}
}

// share answers the percentage of the rows (of the query's scope) that also match the
// share's condition, counted with the query's first measure; with a grouping, per group.
func (x *exec) share(ctx context.Context) error {
	if x.q.GroupBy != nil {
		return x.groupShare(ctx)
	}
	base, err := x.values(ctx, x.baseScope(), ReadMetric, "all the rows the share is of")
	if err != nil {
		return err
	}
	part, err := x.values(ctx, x.baseScope().with(x.q.Share.Filters, x.q.Share.Time, x.q.Share.Exists), ReadMetric, "the rows of the share")
	if err != nil {
		return err
	}
	b, bok := toFloat(base[0])
	p, pok := toFloat(part[0])
	if !bok || !pok || b == 0 {
		return unanswerable("there are no rows to take a share of")
	}
	x.res.Shape = ShapeScalar
	x.res.Measures, x.res.Units = []string{"percent"}, []string{"%"}
	x.res.Values = []any{round2(p / b * 100)}
	x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s of %s", fmtNum(p), fmtNum(b)))
	return nil
}

// groupShare answers, per group, the percentage of its rows that match the share's
// condition ("% of patients with at least one AE, per arm"); a share without a condition is
// each group's percentage of all the rows ("percentage of findings by severity").
func (x *exec) groupShare(ctx context.Context) error {
	d := x.q.GroupBy
	base, err := x.groups(ctx, d, x.baseScope(), "all the rows of each "+dimensionName(d))
	if err != nil {
		return err
	}
	sh := x.q.Share
	conditional := len(sh.Filters) > 0 || len(sh.Time) > 0 || sh.Exists != nil
	part := base
	if conditional {
		if part, err = x.groups(ctx, d, x.baseScope().with(sh.Filters, sh.Time, sh.Exists), "the rows of the share in each "+dimensionName(d)); err != nil {
			return err
		}
	}
	total := 0.0
	for _, g := range base {
		f, _ := toFloat(g.Values[0])
		total += f
	}
	if len(base) == 0 || total == 0 {
		return unanswerable("there are no rows to take a share of")
	}
	byLabel := map[string]float64{}
	for _, g := range part {
		f, _ := toFloat(g.Values[0])
		byLabel[fmt.Sprint(g.Label)] = f
	}
	out := make([]Group, 0, len(base))
	for _, g := range base {
		of, _ := toFloat(g.Values[0])
		if !conditional {
			of = total
		}
		if of == 0 {
			continue
		}
		out = append(out, Group{Label: g.Label, Values: []any{round2(byLabel[fmt.Sprint(g.Label)] / of * 100)}})
	}
	x.res.Shape, x.res.Groups, x.res.Total = ShapeGroups, out, int64(len(out))
	x.res.Measures, x.res.Units = []string{"percent"}, []string{"%"}
	x.res.Dimension = dimensionName(d)
	if !conditional {
		x.res.Notes = append(x.res.Notes, fmt.Sprintf("of %s in all", fmtNum(total)))
	}
	return nil
}

// averagePer answers the average of the measure over the groups of a dimension.
func (x *exec) averagePer(ctx context.Context) error {
	d := x.q.AveragePer
	if d.Field == "" && d.Source != "" && d.Source != x.fact.Name {
		return x.averagePerEntity(ctx)
	}
	if x.q.PerOp != "" && x.q.PerOp != data.AggAverage {
		return x.extremePer(ctx)
	}
	if x.q.AveragePer.Field == "" {
		return x.averagePerRow(ctx)
	}
	gs, err := x.groups(ctx, x.q.AveragePer, x.baseScope(), "the value per "+dimensionName(x.q.AveragePer))
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		return unanswerable("there are no %s values to average over", dimensionName(x.q.AveragePer))
	}
	var sum float64
	for _, g := range gs {
		f, _ := toFloat(g.Values[0])
		sum += f
	}
	x.labels()
	x.res.Measures[0] = "average " + x.res.Measures[0] + " per " + dimensionName(x.q.AveragePer)
	x.res.Shape, x.res.Values = ShapeScalar, []any{round2(sum / float64(len(gs)))}
	x.res.Notes = append(x.res.Notes, averageNote(x.q.AveragePer, len(gs), orDefault(x.fact.Decl.Rows.Unit, "rows")))
	return nil
}

// averageNote says what an average over groups was divided by. Over a time grain, that is
// the days (months...) that have rows, not the calendar's: a day without orders is not a
// day of the average, as the divisor of "orders per day" is usually taken.
func averageNote(d *Dimension, n int, rows string) string {
	if d.Grain == "" {
		return fmt.Sprintf("over %d %s values", n, dimensionName(d))
	}
	return fmt.Sprintf("over the %d %ss that have %s (%ss without any are not counted)", n, d.Grain, rows, d.Grain)
}

// averagePerRow answers "average revenue per order": the measure over the rows, divided by
// their number (one read of both).
func (x *exec) averagePerRow(ctx context.Context) error {
	measures := x.q.Measures
	x.q.Measures = append(append([]Measure(nil), measures...), Measure{Op: data.AggCount})
	vals, err := x.values(ctx, x.baseScope(), ReadMetric, "the total and the number of rows")
	x.q.Measures = measures
	if err != nil {
		return err
	}
	total, ok := toFloat(vals[0])
	n, _ := toFloat(vals[len(vals)-1])
	if !ok || n == 0 {
		return unanswerable("there are no rows to average over")
	}
	x.labels()
	x.res.Measures[0] = "average " + x.res.Measures[0] + " per " + x.fact.Decl.Rows.Unit
	x.res.Shape, x.res.Values = ShapeScalar, []any{round2(total / n)}
	x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s over %s rows", fmtNum(total), fmtNum(n)))
	return nil
}

// without answers "which X have no Y": every known value of the dimension whose group is
// empty under the query's conditions (a 0 for each).
func (x *exec) without(ctx context.Context) error {
	d := x.q.Without
	src := x.m.Source(d.Source)
	if src == nil || d.Grain != "" {
		return unanswerable("the values of %s are not known", d.Field)
	}
	f := src.Field(d.Field)
	all := append(append([]string(nil), f.Values...), src.Values[d.Field]...)
	if len(all) == 0 {
		return unanswerable("the values of %s are not known, so the ones without rows cannot be listed", d.Field)
	}
	if len(x.q.Measures) == 0 {
		x.q.Measures = []Measure{{Op: data.AggCount}}
	}
	gs, err := x.groups(ctx, d, x.baseScope(), "the values that have rows")
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, g := range gs {
		if n, _ := toFloat(g.Values[0]); n > 0 {
			present[fmt.Sprint(g.Label)] = true
		}
	}
	x.labels()
	seen := map[string]bool{}
	for _, v := range all {
		if !present[v] && !seen[v] {
			seen[v] = true
			x.res.Groups = append(x.res.Groups, Group{Label: v, Values: []any{int64(0)}})
		}
	}
	sort.SliceStable(x.res.Groups, func(i, j int) bool { return labelLess(x.res.Groups[i].Label, x.res.Groups[j].Label) })
	x.res.Shape, x.res.Dimension, x.res.Total = ShapeGroups, d.Field, int64(len(x.res.Groups))
	return nil
}

func fmtNum(f float64) string { return fmt.Sprint(f) }
