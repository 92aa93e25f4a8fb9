package data

import (
	"fmt"
	"strings"
)

// Dataset is a compiled Schema: metrics parsed and inlined, defaults applied. It is
// immutable and safe for concurrent use; Plan validates queries against it.
type Dataset struct {
	schema  *Schema
	metrics map[string]*Expr
	groups  []string
}

// Compile checks a schema's semantics and compiles its metrics. Every problem is reported,
// with file and line, as SchemaErrors.
func Compile(s *Schema) (*Dataset, error) {
	e := &schemaErrs{file: s.File}
	c := *s
	if c.Table == "" {
		e.add(0, "schema_table", "table is required")
	} else if !ValidIdent(c.Table) {
		e.add(0, "schema_table", "table %q must be a plain identifier (letters, digits, _)", c.Table)
	}
	if c.Name == "" {
		c.Name = c.Table
	}
	c.Fields = append([]Field(nil), s.Fields...)
	checkFields(&c, e)
	checkTimeField(&c, e)
	checkGroupBy(&c, e)
	checkLimits(&c, e)
	d := &Dataset{schema: &c, metrics: map[string]*Expr{}, groups: c.GroupBy}
	compileMetrics(d, e)
	if c.OrderBy != "" {
		name, _, ok := splitOrder(c.OrderBy)
		if _, isField := c.Field(name); !ok || !isField {
			e.add(0, "schema_order_by", "order_by %q must be a field, optionally followed by asc or desc", c.OrderBy)
		}
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	return d, nil
}

// Schema returns the compiled schema (with defaults applied). Callers must not modify it.
func (d *Dataset) Schema() *Schema { return d.schema }

// Metric returns a compiled metric expression.
func (d *Dataset) Metric(name string) (*Expr, bool) {
	e, ok := d.metrics[name]
	return e, ok
}

func checkFields(s *Schema, e *schemaErrs) {
	if len(s.Fields) == 0 {
		e.add(0, "schema_fields", "at least one field is required")
	}
	seen := map[string]bool{}
	for i := range s.Fields {
		f := &s.Fields[i]
		if !ValidIdent(f.Name) {
			e.add(f.line, "schema_field_name", "field name %q must be a plain identifier (letters, digits, _)", f.Name)
		}
		if seen[strings.ToLower(f.Name)] {
			e.add(f.line, "schema_field_name", "field %q is declared twice (names are case-insensitive)", f.Name)
		}
		seen[strings.ToLower(f.Name)] = true
		if !contains(FieldTypes, string(f.Type)) {
			e.add(f.line, "schema_field_type", "field %s: type %q is not one of %s", f.Name, f.Type, oneOf(FieldTypes))
		}
		if f.Column == "" {
			f.Column = f.Name
		} else if !ValidIdent(f.Column) {
			e.add(f.line, "schema_field_column", "field %s: column %q must be a plain identifier", f.Name, f.Column)
		}
		if len(f.Values) > 0 && f.Type != TypeString {
			e.add(f.line, "schema_field_values", "field %s: values can only be listed for string fields", f.Name)
		}
	}
}

func checkTimeField(s *Schema, e *schemaErrs) {
	if s.TimeField == "" {
		var dates []string
		for _, f := range s.Fields {
			if f.Type == TypeDate {
				dates = append(dates, f.Name)
			}
		}
		if len(dates) == 1 {
			s.TimeField = dates[0]
		}
		return
	}
	if f, ok := s.Field(s.TimeField); !ok || f.Type != TypeDate {
		e.add(0, "schema_time_field", "time_field %q must name a date field", s.TimeField)
	}
}

func checkGroupBy(s *Schema, e *schemaErrs) {
	for _, g := range s.GroupBy {
		if _, ok := s.Field(g); ok {
			continue
		}
		if isTimeGrain(g) {
			if s.TimeField == "" {
				e.add(0, "schema_group_by", "group_by %s needs a date field: set time_field", g)
			}
			continue
		}
		e.add(0, "schema_group_by", "group_by %q is neither a field nor day, month, quarter, year or weekday", g)
	}
}

func checkLimits(s *Schema, e *schemaErrs) {
	if s.MaxLimit == 0 {
		s.MaxLimit = DefaultRowCap
	}
	if s.DefaultLimit == 0 {
		s.DefaultLimit = min(DefaultRowLimit, s.MaxLimit)
	}
	if s.MaxLimit < 1 || s.DefaultLimit < 1 || s.DefaultLimit > s.MaxLimit {
		e.add(0, "schema_limits", "limits: need 1 <= default (%d) <= max (%d)", s.DefaultLimit, s.MaxLimit)
	}
}

// compileMetrics parses every metric, then inlines references, rejecting unknown names and
// cycles (ticket_medio = revenue / order_count becomes sum(...) / count(*)).
func compileMetrics(d *Dataset, e *schemaErrs) {
	raw := map[string]*Expr{}
	lines := map[string]int{}
	for _, m := range d.schema.Metrics {
		lines[m.Name] = m.line
		if !ValidIdent(m.Name) {
			e.add(m.line, "schema_metric_name", "metric name %q must be a plain identifier", m.Name)
			continue
		}
		if _, clash := d.schema.Field(m.Name); clash {
			e.add(m.line, "schema_metric_name", "metric %s has the name of a field", m.Name)
			continue
		}
		if _, dup := raw[m.Name]; dup {
			e.add(m.line, "schema_metric_name", "metric %s is declared twice", m.Name)
			continue
		}
		x, err := parseExpr(m.Expr, d.schema)
		if err != nil {
			e.add(m.line, "schema_metric_expr", "metric %s: %v", m.Name, err)
			continue
		}
		raw[m.Name] = x
	}
	for _, m := range d.schema.Metrics {
		if raw[m.Name] == nil {
			continue
		}
		x, err := inline(raw[m.Name], raw, []string{m.Name})
		switch {
		case err != nil:
			e.add(lines[m.Name], "schema_metric_expr", "metric %s: %v", m.Name, err)
		case !hasAgg(x):
			e.add(lines[m.Name], "schema_metric_expr", "metric %s: %q aggregates nothing; use sum, avg, min, max or count", m.Name, m.Expr)
		default:
			d.metrics[m.Name] = x
		}
	}
}

func inline(x *Expr, raw map[string]*Expr, stack []string) (*Expr, error) {
	if x == nil {
		return nil, nil
	}
	if x.Kind == exprRef {
		def, ok := raw[x.ref]
		if !ok {
			return nil, fmt.Errorf("unknown metric %q (a field must be inside sum, avg, min, max or count)", x.ref)
		}
		if contains(stack, x.ref) {
			return nil, fmt.Errorf("metric cycle %s -> %s", strings.Join(stack, " -> "), x.ref)
		}
		return inline(def, raw, append(stack, x.ref))
	}
	l, err := inline(x.Left, raw, stack)
	if err != nil {
		return nil, err
	}
	r, err := inline(x.Right, raw, stack)
	if err != nil {
		return nil, err
	}
	c := *x
	c.Left, c.Right = l, r
	return &c, nil
}

func hasAgg(x *Expr) bool {
	found := false
	walkExpr(x, func(n *Expr) { found = found || n.Kind == ExprAgg })
	return found
}

// splitOrder splits "name", "name asc" or "name desc".
func splitOrder(s string) (name string, desc, ok bool) {
	parts := strings.Fields(s)
	switch {
	case len(parts) == 1:
		return parts[0], false, true
	case len(parts) == 2 && strings.EqualFold(parts[1], "asc"):
		return parts[0], false, true
	case len(parts) == 2 && strings.EqualFold(parts[1], "desc"):
		return parts[0], true, true
	}
	return "", false, false
}
