// Package semantic is Weir's semantic layer over the datasets of a query route (issue 16):
// each dataset declares, in its schema file, its measures (the schema's metrics, with units
// and the words that name them), its dimensions (fields with words, value aliases, and
// values read from the data), its time dimension with grains, and the entities it joins
// other datasets on. A question becomes one semantic Query (gateway/query/nl); Compile turns
// it into the structured queries of adapters/data — parameterized SQL for SQLite and
// PostgreSQL, seed 003's query for HTTP backends — plus the arithmetic Weir does on their
// results (comparisons, shares, joins across datasets). Whatever a question asks that the
// query cannot express is listed in Query.Uncovered; nothing is dropped.
package semantic

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// Source is one dataset of the semantic layer, compiled.
type Source struct {
	// Name is the data source's name in the config.
	Name    string
	Dataset *data.Dataset
	Decl    *Decl
	// Min and Max are the first and last dates of the time field in the data (YYYY-MM-DD),
	// read at load; empty without a time field or rows.
	Min, Max string
	// Values are the distinct values of the indexed fields, read at load.
	Values map[string][]string
}

// Schema is the source's dataset schema.
func (s *Source) Schema() *data.Schema { return s.Dataset.Schema() }

// Field returns a field of the source.
func (s *Source) Field(name string) *data.Field {
	f, _ := s.Schema().Field(name)
	return f
}

// Entity returns the field that holds an entity's key in this source, or "".
func (s *Source) Entity(name string) string {
	if f, ok := s.Decl.Entities[name]; ok {
		return f
	}
	return ""
}

// TextFields are the source's free-text fields, in the schema's order: what a search of
// the text matches.
func (s *Source) TextFields() []string {
	var out []string
	for _, f := range s.Schema().Fields {
		if s.Decl.Fields[f.Name].Text {
			out = append(out, f.Name)
		}
	}
	return out
}

// RowEntity is the entity one row of the source is (ADSL: subject), or "".
func (s *Source) RowEntity() string { return s.Decl.Rows.Entity }

// Model is the semantic layer over a set of sources.
type Model struct {
	Sources []*Source
	byName  map[string]*Source
}

// Source returns a source by name.
func (m *Model) Source(name string) *Source { return m.byName[name] }

// Subset returns the model restricted to the named sources, in the model's order.
func (m *Model) Subset(names []string) *Model {
	out := &Model{byName: map[string]*Source{}}
	for _, s := range m.Sources {
		if contains(names, s.Name) {
			out.Sources = append(out.Sources, s)
			out.byName[s.Name] = s
		}
	}
	return out
}

// Runner runs a structured query on a source, at load (reading the values to index).
type Runner func(ctx context.Context, source string, q *data.Query) (*data.Result, error)

// MaxIndexedValues caps the values read per indexed field.
const MaxIndexedValues = 5000

// NewSource compiles a dataset's declarations: every name they use must exist in the
// schema. The data-dependent parts (values, time range) are read by Load.
func NewSource(name string, ds *data.Dataset, d *Decl) (*Source, error) {
	s := &Source{Name: name, Dataset: ds, Decl: d, Values: map[string][]string{}}
	e := &errs{file: d.File}
	sch := ds.Schema()
	for fname, f := range d.Fields {
		line := d.lines["fields."+fname]
		fld, ok := sch.Field(fname)
		if !ok {
			e.add(line, "semantic_field", "field %q is not a field of %s", fname, sch.Name)
			continue
		}
		if f.Index != "" && fld.Type != data.TypeString && fld.Type != data.TypeInt {
			e.add(line, "semantic_index", "field %s: only string and int fields can be indexed", fname)
		}
		if len(f.Present) > 0 && !fld.Type.Numeric() {
			e.add(line, "semantic_present", "field %s: only a numeric field can be present (above zero)", fname)
		}
		if f.Text && fld.Type != data.TypeString {
			e.add(line, "semantic_text", "field %s: only a string field can be free text", fname)
		}
		if f.Index != "" && !contains(sch.GroupBy, fname) {
			e.add(line, "semantic_index", "field %s: an indexed field must be listed in group_by (its values are read by grouping)", fname)
		}
		for _, ref := range []string{f.UnitField} {
			if _, ok := sch.Field(ref); ref != "" && !ok {
				e.add(line, "semantic_field", "field %s: unit_field %q is not a field", fname, ref)
			}
		}
		if d, ok := sch.Field(f.DayOf); f.DayOf != "" && (!ok || d.Type != data.TypeDate || fld.Type != data.TypeInt) {
			e.add(line, "semantic_day_of", "field %s: day_of %q must name a date field, on an int field", fname, f.DayOf)
		}
		for _, v := range f.Order {
			if len(fld.Values) > 0 && !contains(fld.Values, v) {
				e.add(line, "semantic_order", "field %s: order names %q, which is not one of its values %v", fname, v, fld.Values)
			}
		}
		if _, ok := ds.Metric(f.Amount); f.Amount != "" && !ok {
			e.add(line, "semantic_measure", "field %s: amount %q is not a metric", fname, f.Amount)
		}
	}
	for mname, m := range d.Measures {
		if _, ok := ds.Metric(mname); !ok {
			e.add(d.lines["measures."+mname], "semantic_measure", "measure %q is not a metric of %s", mname, sch.Name)
		}
		if _, ok := d.Measures[m.Refines]; m.Refines != "" && (!ok || m.Refines == mname) {
			e.add(d.lines["measures."+mname], "semantic_measure", "measure %s: refines %q, which is not another measure", mname, m.Refines)
		}
	}
	if _, ok := ds.Metric(d.DefaultMeasure); d.DefaultMeasure != "" && !ok {
		e.add(d.lines["default_measure"], "semantic_measure", "default_measure %q is not a metric", d.DefaultMeasure)
	}
	for ent, f := range d.Entities {
		if _, ok := sch.Field(f); !ok {
			e.add(d.lines["entities."+ent], "semantic_entity", "entity %s: %q is not a field", ent, f)
		}
	}
	for _, ref := range []string{d.Actor, d.Rows.Name, d.Rows.Key} {
		if _, ok := sch.Field(ref); ref != "" && !ok {
			e.add(d.lines["rows"], "semantic_field", "%q is not a field of %s", ref, sch.Name)
		}
	}
	if d.Rows.Entity != "" && s.Entity(d.Rows.Entity) == "" {
		e.add(d.lines["rows"], "semantic_entity", "rows.entity %s needs entities.%s (its key field)", d.Rows.Entity, d.Rows.Entity)
	}
	return s, e.err()
}

// loadValues reads the distinct values of a field, a page (the schema's row cap) at a time.
func (s *Source) loadValues(ctx context.Context, run Runner, name string) error {
	page := s.Schema().MaxLimit
	for offset := 0; ; offset += page {
		res, err := run(ctx, s.Name, &data.Query{Type: "aggregation", Limit: page, Offset: offset,
			Aggregations: []data.Aggregation{{Operation: data.AggCount, GroupBy: name}}})
		if err != nil {
			return fmt.Errorf("semantic: reading the values of %s.%s: %w", s.Name, name, err)
		}
		if res.Total > MaxIndexedValues {
			return fmt.Errorf("semantic: %s.%s has more than %d values; do not index it", s.Name, name, MaxIndexedValues)
		}
		for _, r := range res.Rows {
			if v := fmt.Sprint(r.Values[0]); r.Values[0] != nil && strings.TrimSpace(v) != "" {
				s.Values[name] = append(s.Values[name], v)
			}
		}
		if len(res.Rows) < page || int64(offset+page) >= res.Total {
			return nil
		}
	}
}

// NewModel builds a model over compiled sources.
func NewModel(sources []*Source) *Model {
	m := &Model{Sources: sources, byName: map[string]*Source{}}
	for _, s := range sources {
		m.byName[s.Name] = s
	}
	return m
}

// Load reads what the model knows from the data itself: the distinct values of the
// indexed fields and the time field's first and last dates. It runs once per snapshot.
func (s *Source) Load(ctx context.Context, run Runner) error {
	names := make([]string, 0, len(s.Decl.Fields))
	for name, f := range s.Decl.Fields {
		if f.Index != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if err := s.loadValues(ctx, run, name); err != nil {
			return err
		}
	}
	tf := s.Schema().TimeField
	if tf == "" {
		return nil
	}
	res, err := run(ctx, s.Name, &data.Query{Type: "aggregation",
		Aggregations: []data.Aggregation{{Field: tf, Operation: data.AggMin}, {Field: tf, Operation: data.AggMax}}})
	if err != nil {
		return fmt.Errorf("semantic: reading the time range of %s: %w", s.Name, err)
	}
	if len(res.Rows) == 1 {
		s.Min, _ = res.Rows[0].Values[0].(string)
		s.Max, _ = res.Rows[0].Values[1].(string)
	}
	return nil
}
