package semantic

import (
	"context"
	"fmt"

	"github.com/weirgw/weir/adapters/data"
)

// OpMedian is the median of a field: the middle value of the ordered non-null values, or
// the mean of the two middle ones for an even count. No backend computes it (SQLite has
// no median), so Weir reads the middle rows with a bounded, ordered structured query and
// does the arithmetic itself; it runs the same on SQL and HTTP sources.
const OpMedian = "median"

// MaxMedianGroups caps the groups of a median per group: each group is one more read.
const MaxMedianGroups = 50

func hasMedian(q *Query) bool {
	for _, m := range q.Measures {
		if m.Op == OpMedian {
			return true
		}
	}
	return false
}

// median answers a median, alone or per value of one of the fact's own fields. Anything
// else around it (a comparison, a share, an average over groups, a grouping by another
// source or by a period) is refused rather than approximated.
func (x *exec) median(ctx context.Context) error {
	q := x.q
	switch {
	case len(q.Measures) != 1 || q.Measures[0].Field == "":
		return unanswerable("a median is computed alone, of one field")
	case q.Compare != nil || q.Share != nil || q.AveragePer != nil || q.Without != nil:
		return unanswerable("a median cannot be compared, shared or averaged over groups")
	case q.GroupBy != nil && (q.GroupBy.Grain != "" || q.GroupBy.Source != "" && q.GroupBy.Source != x.fact.Name):
		return unanswerable("a median per %s is not computed", dimensionName(q.GroupBy))
	}
	if f := x.fact.Field(q.Measures[0].Field); f == nil || !f.Type.Numeric() {
		return unanswerable("the median of %s, which is not a number", q.Measures[0].Field)
	}
	x.labels()
	if q.GroupBy == nil {
		v, err := x.medianOf(ctx, x.baseScope(), "the answer")
		if err != nil {
			return err
		}
		x.res.Shape, x.res.Values = ShapeScalar, []any{v}
		return nil
	}
	return x.medianGroups(ctx)
}

// medianGroups computes the median in each group of the fact's field, one read per group.
func (x *exec) medianGroups(ctx context.Context) error {
	d := x.q.GroupBy
	filters, empty, err := x.where(ctx, x.baseScope())
	if err != nil || empty {
		x.res.Shape, x.res.Dimension = ShapeGroups, d.Field
		return err
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Limit: MaxMedianGroups + 1,
		Aggregations: []data.Aggregation{{Operation: data.AggCount, GroupBy: d.Field}}}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadGroup, Query: q, Why: "the groups of " + d.Field})
	if err != nil {
		return err
	}
	if res.Total > MaxMedianGroups || len(res.Rows) > MaxMedianGroups {
		return unanswerable("a median per %s: more than %d groups", d.Field, MaxMedianGroups)
	}
	for _, r := range res.Rows {
		if r.Values[0] == nil {
			return unanswerable("a median per %s: some rows have no %s", d.Field, d.Field)
		}
		eq := Filter{Source: x.fact.Name, Field: d.Field, Op: data.OpEquals, Values: []any{r.Values[0]}}
		v, err := x.medianOf(ctx, x.baseScope().with([]Filter{eq}, nil, nil), fmt.Sprintf("the median for %v", r.Values[0]))
		if err != nil {
			return err
		}
		x.res.Groups = append(x.res.Groups, Group{Label: r.Values[0], Values: []any{v}})
	}
	x.res.Shape, x.res.Dimension, x.res.Total = ShapeGroups, d.Field, int64(len(x.res.Groups))
	return nil
}

// medianOf reads the number of non-null values of the field and their minimum, then the
// one or two middle values in order: the filter "at least the minimum" leaves out the
// nulls, which SQLite and PostgreSQL would order at opposite ends.
func (x *exec) medianOf(ctx context.Context, s scope, why string) (any, error) {
	field := x.q.Measures[0].Field
	filters, empty, err := x.where(ctx, s)
	if err != nil || empty {
		return nil, err
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Aggregations: []data.Aggregation{
		{Operation: data.AggCount, Field: field}, {Operation: data.AggMin, Field: field}}}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadMetric, Query: q, Why: "how many values of " + field + " " + why + " has"})
	if err != nil {
		return nil, err
	}
	if len(res.Rows) != 1 {
		return nil, nil
	}
	n, _ := toFloat(res.Rows[0].Values[0])
	if n == 0 || res.Rows[0].Values[1] == nil {
		return nil, nil
	}
	present := Filter{Source: x.fact.Name, Field: field, Op: data.OpAtLeast, Values: []any{res.Rows[0].Values[1]}}
	if filters, _, err = x.where(ctx, s.with([]Filter{present}, nil, nil)); err != nil {
		return nil, err
	}
	count := int(n)
	mid := &data.Query{Type: "detail", Filters: filters, OrderBy: field + " asc", Offset: (count - 1) / 2, Limit: 2 - count%2}
	rows, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadRows, Query: mid, Why: "the middle values of " + field + " for " + why})
	if err != nil {
		return nil, err
	}
	if len(rows.Rows) != 2-count%2 {
		return nil, unanswerable("the middle values of %s changed while they were read", field)
	}
	var sum float64
	for _, r := range rows.Rows {
		f, ok := toFloat(r.Get(field))
		if !ok {
			return nil, unanswerable("%s has a value that is not a number", field)
		}
		sum += f
	}
	if count%2 == 1 {
		return rows.Rows[0].Get(field), nil
	}
	return round2(sum / 2), nil
}
