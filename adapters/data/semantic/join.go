package semantic

import (
	"context"
	"fmt"

	"github.com/weirgw/weir/adapters/data"
)

// sharedEntity returns the entity two sources join on, with each one's key field.
func sharedEntity(a, b *Source, want string) (entity, aKey, bKey string, ok bool) {
	for name, ak := range a.Decl.Entities {
		if want != "" && name != want {
			continue
		}
		if bk := b.Entity(name); bk != "" {
			return name, ak, bk, true
		}
	}
	return "", "", "", false
}

// join reads the keys of the entity the fact source shares with e.Source whose rows there
// match e (at least e.Min of them), and returns the fact-side filter on those keys. none
// reports that no key matched (an empty result, unless e.Not).
func (x *exec) join(ctx context.Context, e Exists) (data.Filter, bool, error) {
	other := x.m.Source(e.Source)
	if other == nil {
		return data.Filter{}, false, unanswerable("data source %s is not available for this question", e.Source)
	}
	_, factKey, otherKey, ok := sharedEntity(x.fact, other, e.Entity)
	if !ok {
		return data.Filter{}, false, unanswerable("%s and %s share no key to join on", x.fact.Name, other.Name)
	}
	keys, err := x.keys(ctx, other, otherKey, e, fmt.Sprintf("the %s keys for a condition on %s", otherKey, other.Name))
	if err != nil {
		return data.Filter{}, false, err
	}
	op := data.OpIn
	if e.Not {
		op = data.OpNotIn
	}
	if len(keys) == 0 {
		if e.Not {
			// Nothing to exclude: a condition that holds for every row with a key.
			return data.Filter{Field: factKey, Operator: data.OpNotIn, Value: []any{""}}, false, nil
		}
		return data.Filter{}, true, nil
	}
	return data.Filter{Field: factKey, Operator: op, Value: keys}, false, nil
}

// keys reads the distinct values of key in src among the rows matching e's conditions,
// keeping those with at least e.Min rows.
func (x *exec) keys(ctx context.Context, src *Source, key string, e Exists, why string) ([]any, error) {
	sub := &exec{m: x.m, q: x.q, read: x.read, fact: src, res: x.res}
	filters, empty, err := sub.where(ctx, scope{filters: e.Filters, time: e.Time})
	if err != nil || empty {
		return nil, err
	}
	q := &data.Query{Type: "aggregation", Filters: filters, Limit: src.Schema().MaxLimit,
		Aggregations: []data.Aggregation{{Operation: data.AggCount, GroupBy: key}}}
	res, err := x.read(ctx, Step{Source: src.Name, Kind: ReadGroup, Query: q, Why: why})
	if err != nil {
		return nil, err
	}
	if res.Total > int64(len(res.Rows)) {
		return nil, unanswerable("joining %s on %s needs more than %d keys", src.Name, key, len(res.Rows))
	}
	min := int64(max(1, e.Min))
	var out []any
	for _, r := range res.Rows {
		if n, _ := r.Values[1].(int64); n >= min && r.Values[0] != nil {
			out = append(out, jsonValue(r.Values[0]))
		}
	}
	if len(out) > data.MaxInValues {
		return nil, unanswerable("joining %s on %s matches %d keys, more than %d", src.Name, key, len(out), data.MaxInValues)
	}
	return out, nil
}

// dimensionMap reads, for a dimension of another source, the dimension's value of each
// key of the entity the fact source shares with it: grouping fact rows by it is then a
// regrouping of the fact's per-key results in Go.
func (x *exec) dimensionMap(ctx context.Context, d *Dimension) (factKey string, byKey map[any]any, err error) {
	other := x.m.Source(d.Source)
	_, factKey, otherKey, ok := sharedEntity(x.fact, other, "")
	if !ok {
		return "", nil, unanswerable("%s and %s share no key to group by %s", x.fact.Name, other.Name, d.Field)
	}
	sub := &exec{m: x.m, q: x.q, read: x.read, fact: other, res: x.res}
	var own scope
	for _, f := range x.q.Filters {
		if f.Source == other.Name {
			own.filters = append(own.filters, f)
		}
	}
	filters, _, err := sub.where(ctx, own)
	if err != nil {
		return "", nil, err
	}
	q := &data.Query{Type: "detail", Filters: filters, Limit: other.Schema().MaxLimit}
	res, err := x.read(ctx, Step{Source: other.Name, Kind: ReadRows, Query: q, Why: fmt.Sprintf("the %s of each %s", d.Field, otherKey)})
	if err != nil {
		return "", nil, err
	}
	if res.Total > int64(len(res.Rows)) {
		return "", nil, unanswerable("grouping by %s.%s needs more than %d rows of %s", other.Name, d.Field, len(res.Rows), other.Name)
	}
	byKey = map[any]any{}
	for _, r := range res.Rows {
		byKey[r.Get(otherKey)] = r.Get(d.Field)
	}
	return factKey, byKey, nil
}
