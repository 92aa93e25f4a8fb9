package semantic

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// The kinds of read a step is, by what it returns (the tools policy tells them apart).
const (
	ReadRows    = "rows"
	ReadMetric  = "metric"
	ReadGroup   = "group"
	ReadCompare = "compare"
)

// Step is one read of an executed query: a structured query on one source. The caller
// runs it as a tool call that the tools policy decides before it runs.
type Step struct {
	Source string      `json:"source"`
	Kind   string      `json:"kind"`
	Query  *data.Query `json:"query"`
	// Why says what the step is for (the answer, a join, a unit check).
	Why string `json:"why"`
}

// Reader runs one step and returns its result. It returns an error wrapping ErrDenied when
// the policy refuses the read.
type Reader func(ctx context.Context, st Step) (*data.Result, error)

// ErrDenied is the error a Reader wraps when the tools policy refuses a read.
var ErrDenied = errors.New("the read was denied by policy")

// Unanswerable is an error for a query the data cannot answer as asked: Execute never
// presents a number for it.
type Unanswerable struct{ Reason string }

func (u *Unanswerable) Error() string { return u.Reason }

func unanswerable(format string, args ...any) error {
	return &Unanswerable{Reason: fmt.Sprintf(format, args...)}
}

// exec is the state of one execution.
type exec struct {
	m    *Model
	q    *Query
	read Reader
	fact *Source
	res  *Result
}

// Execute runs a semantic query: it compiles it into steps on the model's sources, reads
// them through read, and combines their results (joins, comparisons, shares) in Go.
func Execute(ctx context.Context, m *Model, q *Query, read Reader) (*Result, error) {
	if len(q.Uncovered) > 0 {
		return nil, unanswerable("%s", JoinAnd(q.Uncovered, ", "))
	}
	fact := m.Source(q.Source)
	if fact == nil {
		return nil, unanswerable("no data source answers this question")
	}
	if h := q.Having; h != nil && (q.GroupBy == nil || q.Rows || q.Compare != nil || q.Share != nil || q.AveragePer != nil || q.Without != nil || hasMedian(q) || h.Measure < 0 || h.Measure >= len(q.Measures)) {
		return nil, unanswerable("a condition on each group's total needs a breakdown of that measure")
	}
	if q.CountGroups && (q.GroupBy == nil || q.Having == nil || q.Order != nil || q.Limit > 0) {
		return nil, unanswerable("a number of groups needs a breakdown and a condition on each group, with no ranking")
	}
	x := &exec{m: m, q: q, read: read, fact: fact, res: &Result{Notes: append([]string(nil), q.Notes...)}}
	if !q.Rows {
		if err := x.searched(ctx); err != nil {
			return nil, err
		}
	}
	var err error
	switch {
	case q.Rows:
		err = x.listing(ctx)
	case hasMedian(q):
		err = x.median(ctx)
	case q.Compare != nil:
		err = x.compare(ctx)
	case q.Share != nil:
		err = x.share(ctx)
	case q.AveragePer != nil:
		err = x.averagePer(ctx)
	case q.Without != nil:
		err = x.without(ctx)
	case q.GroupBy != nil:
		err = x.grouped(ctx)
	default:
		err = x.scalar(ctx)
	}
	if err != nil {
		return nil, err
	}
	return x.res, nil
}

// searched refuses a value computed over a search of the text that no row matches at all
// ("how many findings are about fire safety" when no text says "fire safety", "how many
// declarations with a Seol address"): zero would answer for a topic or a name the data
// words differently, so the answer says the text is not there. A listing shows its empty
// result as it is.
func (x *exec) searched(ctx context.Context) error {
	for _, f := range x.q.Filters {
		if (f.Op != data.OpContains && f.Op != data.OpStartsWith) || (f.Source != x.fact.Name && f.Source != "") {
			continue
		}
		for _, v := range f.Values {
			one := f
			one.Values = []any{v}
			if err := x.mentioned(ctx, one); err != nil {
				return err
			}
		}
	}
	return nil
}

// mentioned refuses a text that no row's text fields contain (or, for startsWith, begin with).
func (x *exec) mentioned(ctx context.Context, f Filter) error {
	q := &data.Query{Type: "aggregation", Filters: anyOf(anyField(f)), Aggregations: []data.Aggregation{{Operation: data.AggCount}}}
	res, err := x.read(ctx, Step{Source: x.fact.Name, Kind: ReadMetric, Query: q, Why: fmt.Sprintf("whether any row mentions %v", f.Values[0])})
	if err != nil || len(res.Rows) != 1 {
		return err
	}
	if n, _ := toFloat(res.Rows[0].Values[0]); n == 0 {
		verb := "mentions"
		if f.Op == data.OpStartsWith {
			verb = "starts with"
		}
		return unanswerable("no %s of the %s %s %q", JoinOr(append([]string{f.Field}, f.Or...)), orDefault(x.fact.Decl.Rows.Unit, "rows"), verb, fmt.Sprint(f.Values[0]))
	}
	return nil
}

// anyOf joins filters by OR.
func anyOf(fs []data.Filter) []data.Filter {
	out := append([]data.Filter(nil), fs...)
	for i := 0; i+1 < len(out); i++ {
		out[i].LogicalOperator = "OR"
	}
	return out
}

// scope is the filters of one computation: the query's, plus a side's or a share's.
type scope struct {
	filters []Filter
	time    []TimeFilter
	exists  []Exists
}

func (x *exec) baseScope() scope {
	return scope{filters: x.q.Filters, time: x.q.Time, exists: x.q.Exists}
}

func (s scope) with(f []Filter, t []TimeFilter, e *Exists) scope {
	out := scope{
		filters: append(append([]Filter(nil), s.filters...), f...),
		time:    append(append([]TimeFilter(nil), s.time...), t...),
		exists:  append([]Exists(nil), s.exists...),
	}
	if e != nil {
		out.exists = append(out.exists, *e)
	}
	return out
}

// where turns a scope into the fact source's structured filters: its own conditions
// directly, other sources' through the keys of a shared entity. The filters are in
// disjunctive normal form (data.Query's AND-before-OR): every time range multiplies the
// conjunction, and so does every field of a condition on several fields. empty reports
// that a join matched no key, so the result is empty.
func (x *exec) where(ctx context.Context, s scope) (filters []data.Filter, empty bool, err error) {
	var conj []data.Filter
	var alts [][]data.Filter
	other := map[string]*Exists{}
	var order []string
	for _, f := range s.filters {
		if (f.Source == x.fact.Name || f.Source == "") && len(f.Or) > 0 {
			if fs := anyField(f); negatedOp(f.Op) {
				conj = append(conj, fs...) // on none of the fields
			} else {
				alts = append(alts, fs)
			}
			continue
		}
		if f.Source == x.fact.Name || f.Source == "" {
			conj = append(conj, toData(f))
			continue
		}
		if other[f.Source] == nil {
			other[f.Source] = &Exists{Source: f.Source}
			order = append(order, f.Source)
		}
		other[f.Source].Filters = append(other[f.Source].Filters, f)
	}
	for _, t := range s.time {
		if t.Source == x.fact.Name || t.Source == "" {
			alts = append(alts, ranges(t))
			continue
		}
		if other[t.Source] == nil {
			other[t.Source] = &Exists{Source: t.Source}
			order = append(order, t.Source)
		}
		other[t.Source].Time = append(other[t.Source].Time, t)
	}
	joins := make([]Exists, 0, len(order)+len(s.exists))
	for _, name := range order {
		joins = append(joins, *other[name])
	}
	joins = append(joins, s.exists...)
	for _, e := range joins {
		f, none, err := x.join(ctx, e)
		if err != nil {
			return nil, false, err
		}
		if none {
			return nil, true, nil
		}
		conj = append(conj, f)
	}
	return dnf(conj, alts), false, nil
}

// anyField is a condition that may hold on any of its fields, one alternative per field
// and, for a text search of several words ("fire or leaks"), per word.
func anyField(f Filter) []data.Filter {
	var out []data.Filter
	for _, name := range append([]string{f.Field}, f.Or...) {
		g := f
		g.Field = name
		if f.Op != data.OpContains && f.Op != data.OpNotContains {
			out = append(out, toData(g))
			continue
		}
		for _, v := range f.Values {
			g.Values = []any{v}
			out = append(out, toData(g))
		}
	}
	return out
}

func negatedOp(op string) bool {
	return op == data.OpNotEquals || op == data.OpNotIn || op == data.OpNotContains
}

// ranges is a time filter's alternatives: one between per range.
func ranges(t TimeFilter) []data.Filter {
	out := make([]data.Filter, len(t.Ranges))
	for i, r := range t.Ranges {
		out[i] = data.Filter{Field: t.Field, Operator: data.OpBetween, Value: []any{r.From, r.To}}
	}
	return out
}

// dnf multiplies a conjunction by each set of alternatives (the ranges of a time filter,
// the fields of a text search).
func dnf(conj []data.Filter, alts [][]data.Filter) []data.Filter {
	groups := [][]data.Filter{conj}
	for _, alt := range alts {
		var next [][]data.Filter
		for _, g := range groups {
			for _, a := range alt {
				next = append(next, append(append([]data.Filter(nil), g...), a))
			}
		}
		groups = next
	}
	var out []data.Filter
	for i, g := range groups {
		for j, f := range g {
			if j == len(g)-1 && i < len(groups)-1 {
				f.LogicalOperator = "OR"
			}
			out = append(out, f)
		}
	}
	return out
}

func toData(f Filter) data.Filter {
	var v any
	switch {
	case f.Op == data.OpIn || f.Op == data.OpNotIn || f.Op == data.OpBetween:
		vals := make([]any, len(f.Values))
		for i, x := range f.Values {
			vals[i] = jsonValue(x)
		}
		v = vals
	case len(f.Values) > 0:
		v = jsonValue(f.Values[0])
	}
	return data.Filter{Field: f.Field, Operator: f.Op, Value: v, MatchStrategy: f.Match, Part: f.Part}
}

// jsonValue converts a value read from a result (int64 counts and ids) to the types a
// query holds, as if decoded from JSON.
func jsonValue(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case int:
		return float64(x)
	}
	return v
}

// JoinOr joins alternatives: "a, b or c".
func JoinOr(list []string) string {
	if len(list) < 2 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " or " + list[len(list)-1]
}

// JoinAnd joins the parts of a sentence: "a, b and c" with sep ", "; "a; b; and c" with
// sep "; " (parts that are clauses themselves).
func JoinAnd(list []string, sep string) string {
	switch len(list) {
	case 0:
		return ""
	case 1:
		return list[0]
	}
	last := " and "
	if sep != ", " {
		last = sep + "and "
	}
	return strings.Join(list[:len(list)-1], sep) + last + list[len(list)-1]
}
