package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// perEntityMeasure reads an aggregate of the fact's count per entity: "average number of
// AEs per subject" (over every subject: the fact's total over the entity source's rows),
// "per subject with at least one AE" (over the subjects the fact has: its distinct keys),
// "the most AEs of a single subject" (the largest count per key). Which subjects the
// average is over is the denominator: a question that narrows the counted rows and asks
// only about subjects with rows leaves it unsaid, and is refused.
func (r *reader) perEntityMeasure() bool {
	k, op := r.perAggregate()
	if k < 0 || len(r.q.Measures) != 1 || !r.addsUp(r.q.Measures[0]) {
		return false
	}
	ent := r.perEntity.kind(mRows).src
	key := r.fact.Entity(ent.RowEntity())
	withRows := r.withFactRows()
	switch {
	case withRows && (r.filtersOn(r.fact.Name) || len(r.q.Time) > 0):
		r.uncover("which %s the average is over: those with any %s, or with the ones counted", ent.Decl.Rows.Unit, r.fact.Decl.Rows.Unit)
	case op == data.AggMin && !withRows:
		r.uncover("the fewest %s per %s, which counts the %s with none", r.fact.Decl.Rows.Unit, ent.Decl.Rows.Unit, ent.Decl.Rows.Unit)
	case withRows || op != data.AggAverage:
		r.q.AveragePer = &semantic.Dimension{Source: r.fact.Name, Field: key}
	default:
		r.q.AveragePer = &semantic.Dimension{Source: ent.Name}
	}
	if op != data.AggAverage {
		r.q.PerOp = op
	}
	r.items[k].used, r.q.Limit = true, 0
	return true
}

// perAggregateAt is the index of perAggregate's word, or -1.
func (r *reader) perAggregateAt() int {
	k, _ := r.perAggregate()
	return k
}

// perAggregate is the unused average, max or min word of the question, with its operation.
func (r *reader) perAggregate() (int, string) {
	for k, it := range r.items {
		if it.used || len(it.ms) > 0 {
			continue
		}
		switch it.gen {
		case gAvg:
			return k, data.AggAverage
		case gMax:
			return k, data.AggMax
		case gMin:
			return k, data.AggMin
		}
	}
	return -1, ""
}

// addsUp reports a count or a total, whose per-entity values are what is averaged.
func (r *reader) addsUp(m semantic.Measure) bool {
	if m.Metric != "" {
		e, _ := r.fact.Dataset.Metric(m.Metric)
		return e != nil && e.Kind == data.ExprAgg && (e.Func == "count" || e.Func == "sum")
	}
	return m.Op == data.AggCount || m.Op == data.AggSum
}

// withFactRows reports "each subject with at least one AE", "per patient who had AEs":
// the entity is narrowed to those the fact has rows for. The words are marked used.
func (r *reader) withFactRows() bool {
	at := -1
	for k, it := range r.items {
		if it == r.perEntity {
			at = k
		}
	}
	var words []int
	for j := at + 1; at >= 0 && j < len(r.items) && j <= at+5; j++ {
		it := r.items[j]
		switch {
		case it.kind(mRows) != nil && it.kind(mRows).src == r.fact && len(it.ms) == 1:
			if len(words) == 0 || !r.items[words[0]].is(gWith) {
				return false
			}
			for _, w := range append(words, j) {
				r.items[w].used = true
			}
			return true
		case it.is(gWith), it.is(gGE), it.is(gOne), it.is(gFiller):
			words = append(words, j)
		case it.num != nil && it.num.num == 1 && !it.num.percent:
			words = append(words, j)
		default:
			return false
		}
	}
	return false
}
