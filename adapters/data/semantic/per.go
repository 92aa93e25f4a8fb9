package semantic

import (
	"context"
	"fmt"

	"github.com/weirgw/weir/adapters/data"
)

// averagePerEntity answers "average number of AEs per subject": the fact's total over the
// number of rows of the source whose rows are the entity (every subject, with or without
// AEs). Conditions on that source narrow both; conditions on the fact narrow the total only
// ("severe AEs per subject" is over every subject). A relation to a third source, or a
// measure that does not add up, has no such reading and is refused.
func (x *exec) averagePerEntity(ctx context.Context) error {
	other := x.m.Source(x.q.AveragePer.Source)
	if other == nil || other.RowEntity() == "" || x.fact.Entity(other.RowEntity()) == "" {
		return unanswerable("%s is not the rows of an entity of %s", x.q.AveragePer.Source, x.fact.Name)
	}
	if x.q.PerOp != "" && x.q.PerOp != data.AggAverage {
		return unanswerable("the %s per %s counts the ones with none too, which the data of %s does not list", x.q.PerOp, other.Decl.Rows.Unit, x.fact.Name)
	}
	m := x.q.Measures[0]
	if len(x.q.Measures) != 1 || !x.additive(m) || m.Op == data.AggMin || m.Op == data.AggMax || len(x.q.Exists) > 0 {
		return unanswerable("an average per %s of this measure", other.Decl.Rows.Unit)
	}
	var own scope
	for _, f := range x.q.Filters {
		switch f.Source {
		case other.Name:
			own.filters = append(own.filters, f)
		case x.fact.Name, "":
		default:
			return unanswerable("an average per %s with a condition on %s", other.Decl.Rows.Unit, f.Source)
		}
	}
	for _, t := range x.q.Time {
		switch t.Source {
		case other.Name:
			own.time = append(own.time, t)
		case x.fact.Name, "":
		default:
			return unanswerable("an average per %s with a period of %s", other.Decl.Rows.Unit, t.Source)
		}
	}
	total, err := x.values(ctx, x.baseScope(), ReadMetric, "the total")
	if err != nil {
		return err
	}
	sub := &exec{m: x.m, q: &Query{Source: other.Name, Measures: []Measure{{Op: data.AggCount}}}, read: x.read, fact: other, res: x.res}
	count, err := sub.values(ctx, own, ReadMetric, "the number of "+other.Decl.Rows.Unit)
	if err != nil {
		return err
	}
	t, _ := toFloat(total[0])
	n, _ := toFloat(count[0])
	if n == 0 {
		return unanswerable("there are no %s to average over", other.Decl.Rows.Unit)
	}
	x.labels()
	x.res.Measures[0] = "average " + x.res.Measures[0] + " per " + other.Decl.Rows.Unit
	x.res.Shape, x.res.Values = ShapeScalar, []any{round2(t / n)}
	x.res.Notes = append(x.res.Notes, fmt.Sprintf("%s over %s %s, including those with none", fmtNum(t), fmtNum(n), other.Decl.Rows.Unit))
	return nil
}

// extremePer answers "the most AEs a single subject had": the largest (or smallest) of the
// measure's values over the groups of a field. Only the groups with rows are compared: the
// smallest is of those that have some.
func (x *exec) extremePer(ctx context.Context) error {
	d := x.q.AveragePer
	if d.Field == "" || (x.q.PerOp != data.AggMax && x.q.PerOp != data.AggMin) {
		return unanswerable("the %s per row", x.q.PerOp)
	}
	gs, err := x.groups(ctx, d, x.baseScope(), "the value per "+dimensionName(d))
	if err != nil {
		return err
	}
	var best any
	for _, g := range gs {
		v := g.Values[0]
		a, ok := toFloat(v)
		b, _ := toFloat(best)
		if ok && (best == nil || x.q.PerOp == data.AggMax && a > b || x.q.PerOp == data.AggMin && a < b) {
			best = v
		}
	}
	if best == nil {
		return unanswerable("there are no %s values to compare", dimensionName(d))
	}
	x.labels()
	x.res.Measures[0] = x.q.PerOp + " " + x.res.Measures[0] + " per " + dimensionName(d)
	x.res.Shape, x.res.Values = ShapeScalar, []any{best}
	x.res.Notes = append(x.res.Notes, fmt.Sprintf("over the %d %s values that have rows", len(gs), dimensionName(d)))
	return nil
}
