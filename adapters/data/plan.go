package data

import (
	"fmt"
	"strings"
)

// Plan is a validated query, ready for a backend: identifiers are schema fields, values are
// typed, defaults and caps are applied. Backends build their statements from a Plan only.
type Plan struct {
	// Dataset is the dataset the plan was validated against.
	Dataset *Dataset
	// Query is the query as received.
	Query *Query
	// Where is a disjunction of conjunctions: (p AND p) OR (p) ...; empty means all rows.
	Where [][]Pred
	// Group is the grouping of an aggregate query, or nil.
	Group *GroupKey
	// Aggs are the computed columns; empty means a detail query that returns Fields.
	Aggs []Agg
	// Order is the result order, or nil for the backend's order.
	Order *OrderKey
	// Limit is the effective row limit (at least 1, at most the dataset's cap).
	Limit int
	// Offset is the number of result rows skipped first.
	Offset int
	// Warnings are adjustments made to the query (a clamped limit), for the model and the log.
	Warnings []string
}

// Pred is one typed filter condition.
type Pred struct {
	Field    *Field
	Op       string // an Op* constant
	Strategy string // a Match* constant; exact for non-string fields
	// Threshold is the edit distance of a fuzzy match.
	Threshold int
	// Values are typed: string (string and date fields), float64 (number) or int64 (int).
	// equals, contains, startsWith, greaterThan, lessThan have one; between two; in many.
	Values []any
	// Folded are the string values transformed for the strategy: lower-cased for
	// case-insensitive, Fold-ed for normalized and fuzzy; nil for exact.
	Folded []string
	// Not negates the predicate (notEquals, notIn, notContains become equals, in, contains
	// with Not set): a row matches when its value is present and the predicate is false.
	Not bool
	// Part is "" (the field's value) or weekday: the predicate tests the day of the week of
	// the date field, an int64 from 0 (Sunday) to 6 (Saturday).
	Part string
}

// GroupKey is the grouping of an aggregate query.
type GroupKey struct {
	// Name is the result column: the field name, month or year.
	Name string
	// Field is the grouped field, or the time field for month and year.
	Field *Field
	// Part is "" (the field's values), month (YYYY-MM) or year (an integer).
	Part string
}

// Agg is one computed column of an aggregate query.
type Agg struct {
	// Name is the result column: the metric name, count, or operation_field.
	Name string
	// Op is an Agg* operation; empty for a metric.
	Op string
	// Field is the operand; nil for count(*) and metrics.
	Field *Field
	// Metric is the compiled metric expression, or nil.
	Metric *Expr
	// Round is the metric's declared rounding, or nil.
	Round *int
}

// OrderKey is the result order.
type OrderKey struct {
	// Name is a field (detail queries) or a result column (aggregate queries).
	Name string
	// Field is set for detail queries.
	Field *Field
	Desc  bool
}

// Columns returns the result columns of the plan, in order.
func (p *Plan) Columns() []string {
	if len(p.Aggs) == 0 {
		return p.Dataset.schema.FieldNames()
	}
	var cols []string
	if p.Group != nil {
		cols = append(cols, p.Group.Name)
	}
	for _, a := range p.Aggs {
		cols = append(cols, a.Name)
	}
	return cols
}

// Plan validates q against the dataset and returns the plan to execute. Every problem is
// reported at once in a *QueryError, with paths such as filters[1].operator and the values
// that are allowed, so that a model can correct its query in one step.
func (d *Dataset) Plan(q *Query) (*Plan, error) {
	var ps problems
	if q == nil {
		ps.add("", "the query is empty")
		return nil, ps.err()
	}
	p := &Plan{Dataset: d, Query: q}
	if !contains(QueryTypes, q.Type) {
		ps.add("type", "%q is not a query type; use one of %s", q.Type, oneOf(QueryTypes))
	}
	if q.Confidence < 0 || q.Confidence > 1 {
		ps.add("confidence", "%v is outside [0, 1]", q.Confidence)
	}
	d.planFilters(p, &ps)
	d.planAggs(p, &ps)
	d.planOrder(p, &ps)
	d.planLimit(p, &ps)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return p, nil
}

func (d *Dataset) planFilters(p *Plan, ps *problems) {
	fs := p.Query.Filters
	if len(fs) > MaxFilters {
		ps.add("filters", "%d filters; at most %d are allowed", len(fs), MaxFilters)
		return
	}
	var group []Pred
	for i := range fs {
		path := fmt.Sprintf("filters[%d]", i)
		if pr, ok := d.planFilter(&fs[i], path, ps, &p.Warnings); ok {
			group = append(group, pr)
		}
		switch strings.ToUpper(fs[i].LogicalOperator) {
		case "", "AND":
		case "OR":
			if i < len(fs)-1 {
				p.Where = append(p.Where, group)
				group = nil
			}
		default:
			ps.add(path+".logicalOperator", "%q is not a logical operator; use AND or OR", fs[i].LogicalOperator)
		}
	}
	if len(group) > 0 {
		p.Where = append(p.Where, group)
	}
}

func (d *Dataset) planFilter(f *Filter, path string, ps *problems, warn *[]string) (Pred, bool) {
	n := len(*ps)
	fld, ok := d.schema.Field(f.Field)
	if !ok {
		ps.add(path+".field", "%q is not a field; use one of %s", f.Field, oneOf(d.schema.FieldNames()))
		return Pred{}, false
	}
	pr := Pred{Field: fld, Op: f.Operator, Strategy: f.MatchStrategy, Threshold: DefaultFuzzyThreshold}
	if f.Part != "" {
		return planPart(f, pr, path, ps)
	}
	if allowed := OperatorsFor(fld.Type); !contains(allowed, f.Operator) {
		verb := "is not valid for"
		if !contains(Operators, f.Operator) {
			verb = "is not an operator; for"
		}
		ps.add(path+".operator", "%s %s %s field %s; use one of %s", quoteOp(f.Operator), verb, fld.Type, fld.Name, oneOf(allowed))
		return Pred{}, false
	}
	if base, ok := negated[f.Operator]; ok {
		pr.Op, pr.Not = base, true
	}
	planStrategy(f, fld, &pr, path, ps, warn)
	pr.Values = planValues(pr.Op, f, fld, path, ps)
	if len(*ps) > n {
		return Pred{}, false
	}
	checkKnownValues(&pr, path, ps)
	pr.Folded = foldValues(pr.Strategy, pr.Values)
	return pr, len(*ps) == n
}

// planPart plans a filter on a part of a date field (the weekday): its values are the
// part's numbers, exact.
func planPart(f *Filter, pr Pred, path string, ps *problems) (Pred, bool) {
	n := len(*ps)
	switch {
	case !contains(DateParts, f.Part):
		ps.add(path+".part", "%q is not a part of a date; use one of %s", f.Part, oneOf(DateParts))
	case pr.Field.Type != TypeDate:
		ps.add(path+".part", "part applies to date fields only; %s is a %s field", pr.Field.Name, pr.Field.Type)
	case !contains(partOperators, f.Operator):
		ps.add(path+".operator", "%s is not valid for the %s of a date; use one of %s", quoteOp(f.Operator), f.Part, oneOf(partOperators))
	case f.MatchStrategy != "" && f.MatchStrategy != MatchExact:
		ps.add(path+".matchStrategy", "%s applies to string fields only; omit matchStrategy", f.MatchStrategy)
	}
	if len(*ps) > n {
		return Pred{}, false
	}
	pr.Part, pr.Strategy = f.Part, MatchExact
	if base, ok := negated[f.Operator]; ok {
		pr.Op, pr.Not = base, true
	}
	pr.Values = planValues(pr.Op, f, &Field{Name: pr.Field.Name, Type: TypeInt}, path, ps)
	for _, v := range pr.Values {
		if d, _ := v.(int64); d < 0 || d > 6 {
			ps.add(path+".value", "%v is not a day of the week; use 0 (Sunday) to 6 (Saturday)", v)
		}
	}
	return pr, len(*ps) == n
}

func quoteOp(op string) string {
	if op == "" {
		return "a missing operator"
	}
	return op
}

func planStrategy(f *Filter, fld *Field, pr *Pred, path string, ps *problems, warn *[]string) {
	if pr.Strategy == "" {
		pr.Strategy = MatchExact
	}
	switch {
	case !contains(MatchStrategies, pr.Strategy):
		ps.add(path+".matchStrategy", "%q is not a match strategy; use one of %s", pr.Strategy, oneOf(MatchStrategies))
	case fld.Type != TypeString && pr.Strategy != MatchExact:
		ps.add(path+".matchStrategy", "%s applies to string fields only; %s is a %s field, omit matchStrategy", pr.Strategy, fld.Name, fld.Type)
	}
	if f.FuzzyThreshold == nil {
		return
	}
	if pr.Strategy != MatchFuzzy {
		*warn = append(*warn, fmt.Sprintf("%s.fuzzyThreshold ignored: matchStrategy is %s, not fuzzy", path, pr.Strategy))
		return
	}
	if t := *f.FuzzyThreshold; t < 0 || t > MaxFuzzyThreshold {
		ps.add(path+".fuzzyThreshold", "%d is outside 0..%d", t, MaxFuzzyThreshold)
	} else {
		pr.Threshold = t
	}
}

// checkKnownValues rejects exact equals/in values that a field with declared values never
// takes, so "Critcal" is corrected instead of silently matching nothing.
func checkKnownValues(pr *Pred, path string, ps *problems) {
	if len(pr.Field.Values) == 0 || pr.Strategy != MatchExact || (pr.Op != OpEquals && pr.Op != OpIn) {
		return
	}
	for _, v := range pr.Values {
		if s, _ := v.(string); !contains(pr.Field.Values, s) {
			ps.add(path+".value", "%q is not a value of %s; use one of %s (or matchStrategy normalized or fuzzy)", s, pr.Field.Name, oneOf(pr.Field.Values))
		}
	}
}

func foldValues(strategy string, values []any) []string {
	if strategy == MatchExact {
		return nil
	}
	out := make([]string, len(values))
	for i, v := range values {
		s, _ := v.(string)
		if strategy == MatchCaseInsensitive {
			out[i] = strings.ToLower(s)
		} else {
			out[i] = Fold(s)
		}
	}
	return out
}
