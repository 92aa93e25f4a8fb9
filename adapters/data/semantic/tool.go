package semantic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// JSONSchema is the JSON Schema of a semantic query on this model: the tool a model calls
// in the agent loop. Sources, fields, metrics and grains are enums, so its schema is the
// layer's (the same declarations the questions are read against).
func (m *Model) JSONSchema() map[string]any {
	var sources, fields, metrics []string
	for _, s := range m.Sources {
		sources = append(sources, s.Name)
		fields = append(fields, s.Schema().FieldNames()...)
		metrics = append(metrics, s.Schema().MetricNames()...)
	}
	fields, metrics = uniq(fields), uniq(metrics)
	str := func(enum []string, desc string) map[string]any {
		out := map[string]any{"type": "string", "description": desc}
		if len(enum) > 0 {
			out["enum"] = enum
		}
		return out
	}
	obj := func(props map[string]any, required ...string) map[string]any {
		o := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			o["required"] = required
		}
		return o
	}
	filter := obj(map[string]any{
		"source": str(sources, "the source of the field"),
		"field":  str(fields, ""),
		"op":     str(data.Operators, "in and notIn take several values; between two"),
		"values": map[string]any{"type": "array", "items": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}},
		"match":  str(data.MatchStrategies, "string fields; default exact"),
		"or":     map[string]any{"type": "array", "items": str(fields, ""), "description": "more fields the condition may hold on instead of field (a text search over title or description)"},
		"part":   str(data.DateParts, "date fields: test the day of the week (0 Sunday to 6 Saturday) with equals, in, notEquals or notIn"),
	}, "source", "field", "op", "values")
	rng := obj(map[string]any{"from": str(nil, "YYYY-MM-DD"), "to": str(nil, "YYYY-MM-DD, inclusive")}, "from", "to")
	timeFilter := obj(map[string]any{
		"source": str(sources, ""), "field": str(fields, "a date field"),
		"ranges": map[string]any{"type": "array", "items": rng}, "label": str(nil, ""),
	}, "source", "field", "ranges")
	dim := obj(map[string]any{"source": str(sources, ""), "field": str(fields, ""), "grain": str(data.TimeGrains, "for the time field")}, "source", "field")
	measure := obj(map[string]any{"metric": str(metrics, "a named metric"), "op": str(operations, "with field, when no metric"), "field": str(fields, ""), "unit": str(nil, "")})
	exists := obj(map[string]any{"source": str(sources, ""), "filters": map[string]any{"type": "array", "items": filter},
		"min": map[string]any{"type": "integer", "minimum": 1}, "not": map[string]any{"type": "boolean"}}, "source")
	side := obj(map[string]any{"label": str(nil, ""), "filters": map[string]any{"type": "array", "items": filter}, "time": map[string]any{"type": "array", "items": timeFilter}}, "label")
	return obj(map[string]any{
		"source":   str(sources, "the source the measures or rows come from; others join on shared entities"),
		"measures": map[string]any{"type": "array", "items": measure},
		"rows":     map[string]any{"type": "boolean", "description": "list the source's rows instead of measures"},
		"filters":  map[string]any{"type": "array", "items": filter},
		"time":     map[string]any{"type": "array", "items": timeFilter},
		"exists":   map[string]any{"type": "array", "items": exists},
		"groupBy":  dim,
		"compare": obj(map[string]any{"sides": map[string]any{"type": "array", "items": side, "minItems": 2},
			"difference":    map[string]any{"type": "boolean", "description": "the answer is the first side's value minus the second's (two sides)"},
			"percentChange": map[string]any{"type": "boolean", "description": "the answer is the change from the first side to the second in percent of the first (two sides)"}}, "sides"),
		"order": obj(map[string]any{"measure": map[string]any{"type": "integer", "minimum": 0}, "field": str(fields, ""), "desc": map[string]any{"type": "boolean"}}),
		"limit": map[string]any{"type": "integer", "minimum": 1},
		"having": obj(map[string]any{"measure": map[string]any{"type": "integer", "minimum": 0},
			"op":    str([]string{data.OpGreaterThan, data.OpAtLeast, data.OpLessThan, data.OpAtMost}, "a threshold on each group's value of the measure"),
			"value": map[string]any{"type": "number"}}, "measure", "op", "value"),
		"countGroups": map[string]any{"type": "boolean", "description": "the answer is the number of groups of groupBy that pass having"},
		"share":       obj(map[string]any{"filters": map[string]any{"type": "array", "items": filter}, "time": map[string]any{"type": "array", "items": timeFilter}, "exists": exists}),
		"averagePer":  dim,
		"perOp":       str(perOps, "how averagePer combines its groups' values; default average"),
	}, "source")
}

// ToolDescription documents the model for a model: the sources with their rows, measures
// (units), dimensions and how they join.
func (m *Model) ToolDescription() string {
	var b strings.Builder
	b.WriteString("Ask the data a semantic query: measures (named metrics or an operation on a field) of a source, filtered, grouped, compared or ranked; sources join on shared entities. ")
	b.WriteString("Invalid queries get an error saying what to change.\n")
	for _, s := range m.Sources {
		d := s.Decl
		fmt.Fprintf(&b, "Source %s: one row is one of %s.", s.Name, orDefault(d.Rows.Unit, "row"))
		for ent, key := range d.Entities {
			fmt.Fprintf(&b, " Entity %s: %s.", ent, key)
		}
		if s.Min != "" {
			fmt.Fprintf(&b, " Dates from %s to %s.", s.Min, s.Max)
		}
		b.WriteString(" Metrics:")
		for _, name := range s.Schema().MetricNames() {
			fmt.Fprintf(&b, " %s (%s)", name, orDefault(d.Measures[name].Unit, "-"))
		}
		b.WriteString(". Fields:")
		for _, f := range s.Schema().Fields {
			fmt.Fprintf(&b, " %s (%s)", f.Name, f.Type)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func uniq(list []string) []string {
	sort.Strings(list)
	out := list[:0]
	for i, s := range list {
		if i == 0 || s != list[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// ParseQuery decodes a semantic query strictly (unknown keys are errors) and checks it
// against the model: sources, fields, metrics, operators and grains must exist. Problems
// are a *data.QueryError, which goes back to the model to correct.
func (m *Model) ParseQuery(b []byte) (*Query, error) {
	var q Query
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return nil, &data.QueryError{Problems: []data.Problem{{Path: "", Message: "not a semantic query: " + err.Error()}}}
	}
	if len(q.Uncovered) > 0 || len(q.Notes) > 0 {
		return nil, &data.QueryError{Problems: []data.Problem{{Path: "uncovered", Message: "a query sent to the tool names no uncovered parts or notes"}}}
	}
	v := validator{m: m}
	v.check(&q)
	if len(v.ps) > 0 {
		return nil, &data.QueryError{Problems: v.ps}
	}
	return &q, nil
}

// operations are the structured query's operations and the median, which Weir computes.
var operations = append(append([]string(nil), data.Operations...), OpMedian)

// perOps are the ways AveragePer combines its groups' values.
var perOps = []string{data.AggAverage, data.AggMax, data.AggMin}

type validator struct {
	m  *Model
	ps []data.Problem
}

func (v *validator) add(path, format string, args ...any) {
	v.ps = append(v.ps, data.Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) field(path, source, field string) *data.Field {
	s := v.m.Source(source)
	if s == nil {
		v.add(path+".source", "%q is not a source", source)
		return nil
	}
	f := s.Field(field)
	if f == nil {
		v.add(path+".field", "%q is not a field of %s; use one of %s", field, source, strings.Join(s.Schema().FieldNames(), ", "))
	}
	return f
}

func (v *validator) check(q *Query) {
	fact := v.m.Source(q.Source)
	if fact == nil {
		v.add("source", "%q is not a source", q.Source)
		return
	}
	if len(q.Measures) == 0 && !q.Rows {
		v.add("measures", "ask for measures or rows")
	}
	for i, m := range q.Measures {
		path := fmt.Sprintf("measures[%d]", i)
		switch {
		case m.Metric != "":
			if _, ok := fact.Dataset.Metric(m.Metric); !ok {
				v.add(path+".metric", "%q is not a metric of %s; use one of %s", m.Metric, fact.Name, strings.Join(fact.Schema().MetricNames(), ", "))
			}
		case !contains(operations, m.Op):
			v.add(path+".op", "%q is not an operation; use one of %s", m.Op, strings.Join(operations, ", "))
		case m.Field != "":
			v.field(path, fact.Name, m.Field)
		}
	}
	v.filters("filters", q.Filters)
	v.times("time", q.Time)
	if q.Share != nil {
		v.filters("share.filters", q.Share.Filters)
		v.times("share.time", q.Share.Time)
	}
	for i, e := range q.Exists {
		v.filters(fmt.Sprintf("exists[%d].filters", i), e.Filters)
	}
	for _, d := range []*Dimension{q.GroupBy, q.AveragePer} {
		if d != nil && d.Field != "" {
			v.field("groupBy", d.Source, d.Field)
			if d.Grain != "" && !contains(data.TimeGrains, d.Grain) {
				v.add("groupBy.grain", "%q is not a grain; use one of %s", d.Grain, strings.Join(data.TimeGrains, ", "))
			}
		}
	}
	if q.PerOp != "" && (!contains(perOps, q.PerOp) || q.AveragePer == nil) {
		v.add("perOp", "%q combines the groups of averagePer; use one of %s", q.PerOp, strings.Join(perOps, ", "))
	}
	if q.Compare != nil {
		for i, s := range q.Compare.Sides {
			v.filters(fmt.Sprintf("compare.sides[%d].filters", i), s.Filters)
		}
	}
}

func (v *validator) times(path string, ts []TimeFilter) {
	for i, t := range ts {
		if f := v.field(fmt.Sprintf("%s[%d]", path, i), t.Source, t.Field); f != nil && f.Type != data.TypeDate {
			v.add(fmt.Sprintf("%s[%d].field", path, i), "%s is not a date field", t.Field)
		}
	}
}

func (v *validator) filters(path string, fs []Filter) {
	for i, f := range fs {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case f.Part != "": // the part's operators and values are checked when the query is planned
			fld := v.field(p, f.Source, f.Field)
			if !contains(data.DateParts, f.Part) || fld != nil && fld.Type != data.TypeDate {
				v.add(p+".part", "%q is not a part of a date field; use %s on a date field", f.Part, strings.Join(data.DateParts, ", "))
			}
			if len(f.Or) > 0 {
				v.add(p+".or", "a part of a date is tested on one field")
			}
		default:
			for _, name := range append([]string{f.Field}, f.Or...) {
				fld := v.field(p, f.Source, name)
				if fld != nil && !contains(data.OperatorsFor(fld.Type), f.Op) {
					v.add(p+".op", "%q is not valid for %s field %s; use one of %s", f.Op, fld.Type, fld.Name, strings.Join(data.OperatorsFor(fld.Type), ", "))
				}
			}
		}
		if len(f.Values) == 0 {
			v.add(p+".values", "a filter needs values")
		}
	}
}
