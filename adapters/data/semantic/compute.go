package semantic

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// column is the result column of a measure.
func column(m Measure) string {
	switch {
	case m.Metric != "":
		return m.Metric
	case m.Field == "":
		return data.AggCount
	}
	return m.Op + "_" + m.Field
}

func aggregation(m Measure, groupBy string) data.Aggregation {
	if m.Metric != "" {
		return data.Aggregation{Metric: m.Metric, GroupBy: groupBy}
	}
	return data.Aggregation{Field: m.Field, Operation: m.Op, GroupBy: groupBy}
}

func (x *exec) aggregations(groupBy string) []data.Aggregation {
	out := make([]data.Aggregation, len(x.q.Measures))
	for i, m := range x.q.Measures {
		out[i] = aggregation(m, groupBy)
	}
	return out
}

func (x *exec) labels() {
	x.res.Measures, x.res.Units = nil, nil
	for _, m := range x.q.Measures {
		x.res.Measures = append(x.res.Measures, column(m))
		x.res.Units = append(x.res.Units, m.Unit)
	}
}

// values computes the measures over the rows of a scope: one row of values (zero counts
// for an empty scope).
func (x *exec) values(ctx context.Context, s scope, kind, why string) ([]any, error) {
	if err := x.checkUnits(ctx, s); err != nil {
		return nil, err
	}
	filters, empty, err := x.where(ctx, s)
	if err != nil {
		return nil, err
	}
	if empty {
		return x.emptyValues(), nil
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Aggregations: x.aggregations("")}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: kind, Query: q, Why: why})
	if err != nil {
		return nil, err
	}
	if len(res.Rows) != 1 {
		return x.emptyValues(), nil
	}
	return res.Rows[0].Values, nil
}

// emptyValues are the measures of no rows: counts are 0, everything else has no value.
func (x *exec) emptyValues() []any {
	out := make([]any, len(x.q.Measures))
	for i, m := range x.q.Measures {
		if x.additiveZero(m) {
			out[i] = int64(0)
		}
	}
	return out
}

func (x *exec) additiveZero(m Measure) bool {
	if m.Metric == "" {
		return m.Op == data.AggCount || m.Op == data.AggCountDistinct
	}
	e, _ := x.fact.Dataset.Metric(m.Metric)
	return e != nil && e.Kind == data.ExprAgg && (e.Func == "count" || e.Func == "count_distinct")
}

func (x *exec) scalar(ctx context.Context) error {
	vals, err := x.values(ctx, x.baseScope(), ReadMetric, "the answer")
	if err != nil {
		return err
	}
	x.labels()
	x.res.Shape, x.res.Values = ShapeScalar, vals
	if g := x.q.GrowthPercent; g != nil {
		if f, ok := toFloat(vals[0]); ok {
			x.res.Growth = &Growth{Percent: *g, Target: round2(f * (1 + *g/100))}
		}
	}
	return nil
}

// checkUnits refuses a sum or average over a field whose rows carry different units
// (quantities in kg and pcs), and names the unit when they share one.
func (x *exec) checkUnits(ctx context.Context, s scope) error {
	for i, m := range x.q.Measures {
		field, unitField := x.unitFieldOf(m)
		if unitField == "" {
			continue
		}
		units, err := x.units(ctx, s, field, unitField)
		if err != nil {
			return err
		}
		if len(units) > 1 {
			return unanswerable("%s is recorded in different units (%s) for these rows, and they cannot be added up; ask for one unit", field, strings.Join(units, ", "))
		}
		switch {
		case len(units) == 0:
		case m.Metric == "" || m.Unit == "":
			x.q.Measures[i].Unit = units[0]
		default: // a ratio over the field: "USD per kg"
			x.q.Measures[i].Unit = m.Unit + " per " + units[0]
		}
	}
	return nil
}

// unitFieldOf is a measure's field that carries its unit per row, with its unit field: the
// measure's own field, or a field its metric aggregates (sum(totalValueUSD)/sum(quantity)
// is a price per kg or per piece, never across both).
func (x *exec) unitFieldOf(m Measure) (field, unitField string) {
	if m.UnitField != "" || m.Metric == "" {
		return m.Field, m.UnitField
	}
	e, ok := x.fact.Dataset.Metric(m.Metric)
	if !ok {
		return "", ""
	}
	var walk func(e *data.Expr) (string, string)
	walk = func(e *data.Expr) (string, string) {
		if e == nil {
			return "", ""
		}
		if e.Kind == data.ExprColumn && e.Field != nil {
			if uf := x.fact.Decl.Fields[e.Field.Name].UnitField; uf != "" {
				return e.Field.Name, uf
			}
		}
		if f, uf := walk(e.Left); uf != "" {
			return f, uf
		}
		return walk(e.Right)
	}
	return walk(e)
}

// units reads the units a field is recorded in over the rows of a scope (the values of its
// unit field).
func (x *exec) units(ctx context.Context, s scope, field, unitField string) ([]string, error) {
	filters, empty, err := x.where(ctx, s)
	if err != nil || empty {
		return nil, err
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Limit: 50,
		Aggregations: []data.Aggregation{{Operation: data.AggCount, GroupBy: unitField}}}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadGroup, Query: q, Why: "the units of " + field})
	if err != nil {
		return nil, err
	}
	var units []string
	for _, r := range res.Rows {
		units = append(units, fmt.Sprint(r.Values[0]))
	}
	return units, nil
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	}
	return 0, false
}

// groups computes the measures per value of a dimension over a scope, in the order the
// query asks (by a measure, else by label).
func (x *exec) groups(ctx context.Context, d *Dimension, s scope, why string) ([]Group, error) {
	if err := x.checkUnits(ctx, s); err != nil {
		return nil, err
	}
	if d.Source != "" && d.Source != x.fact.Name {
		return x.crossGroups(ctx, d, s, why)
	}
	filters, empty, err := x.where(ctx, s)
	if err != nil || empty {
		return nil, err
	}
	key := d.Field
	if d.Grain != "" {
		key = d.Grain
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Aggregations: x.aggregations(key), Limit: x.fact.Schema().MaxLimit}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadGroup, Query: q, Why: why})
	if err != nil {
		return nil, err
	}
	if res.Total > int64(len(res.Rows)) {
		return nil, unanswerable("%s has more than %d groups", key, len(res.Rows))
	}
	out := make([]Group, len(res.Rows))
	for i, r := range res.Rows {
		out[i] = Group{Label: groupLabel(d, r.Values[0]), Values: r.Values[1:]}
	}
	return out, nil
}

// groupLabel names a group: a weekday by its name (the data numbers it, 0 for Sunday, and
// orders the groups so), any other group by its value.
func groupLabel(d *Dimension, v any) any {
	if n, ok := v.(int64); ok && d.Grain == data.GroupWeekday && n >= 0 && n <= 6 {
		return time.Weekday(n).String()
	}
	return v
}

// crossGroups groups fact rows by a dimension of another source: the fact's measures per
// entity key, regrouped in Go by the key's dimension value. Only measures that add up
// across keys can be regrouped.
func (x *exec) crossGroups(ctx context.Context, d *Dimension, s scope, why string) ([]Group, error) {
	for _, m := range x.q.Measures {
		if !x.additive(m) {
			return nil, unanswerable("%s cannot be broken down by %s, which is in %s", column(m), d.Field, d.Source)
		}
	}
	factKey, byKey, err := x.dimensionMap(ctx, d)
	if err != nil {
		return nil, err
	}
	filters, empty, err := x.where(ctx, s)
	if err != nil || empty {
		return nil, err
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Aggregations: x.aggregations(factKey), Limit: x.fact.Schema().MaxLimit}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadGroup, Query: q, Why: why + " per " + factKey})
	if err != nil {
		return nil, err
	}
	if res.Total > int64(len(res.Rows)) {
		return nil, unanswerable("%s has more than %d values", factKey, len(res.Rows))
	}
	index := map[any]int{}
	var out []Group
	for _, r := range res.Rows {
		label, ok := byKey[r.Values[0]]
		if !ok {
			continue // a key the dimension's source does not know (or filtered out)
		}
		i, seen := index[label]
		if !seen {
			i = len(out)
			index[label] = i
			out = append(out, Group{Label: label, Values: make([]any, len(x.q.Measures))})
		}
		for j, m := range x.q.Measures {
			out[i].Values[j] = combine(m, out[i].Values[j], r.Values[1+j])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return labelLess(out[i].Label, out[j].Label) })
	return out, nil
}

// additive reports whether a measure's per-key values combine into the group's value.
func (x *exec) additive(m Measure) bool {
	if m.Metric == "" {
		switch m.Op {
		case data.AggCount, data.AggSum, data.AggMin, data.AggMax:
			return true
		case data.AggCountDistinct:
			// distinct keys of the entity per key are 1 each: they add up
			for _, k := range x.fact.Decl.Entities {
				if k == m.Field {
					return true
				}
			}
		}
		return false
	}
	e, _ := x.fact.Dataset.Metric(m.Metric)
	return e != nil && e.Kind == data.ExprAgg && (e.Func == "count" || e.Func == "sum")
}

func combine(m Measure, acc, v any) any {
	if v == nil {
		return acc
	}
	if acc == nil {
		return v
	}
	a, _ := toFloat(acc)
	b, _ := toFloat(v)
	var r float64
	switch m.Op {
	case data.AggMin:
		r = math.Min(a, b)
	case data.AggMax:
		r = math.Max(a, b)
	default:
		r = a + b
	}
	if _, isInt := acc.(int64); isInt {
		return int64(r)
	}
	return r
}

func labelLess(a, b any) bool {
	fa, aok := toFloat(a)
	fb, bok := toFloat(b)
	if aok && bok {
		return fa < fb
	}
	return fmt.Sprint(a) < fmt.Sprint(b)
}
