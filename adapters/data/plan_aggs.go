package data

import "fmt"

func (d *Dataset) planAggs(p *Plan, ps *problems) {
	aggs := p.Query.Aggregations
	if len(aggs) > MaxAggregations {
		ps.add("aggregations", "%d aggregations; at most %d are allowed", len(aggs), MaxAggregations)
		return
	}
	groupFrom := -1
	seen := map[string]int{}
	for i, a := range aggs {
		path := fmt.Sprintf("aggregations[%d]", i)
		ag, ok := d.planAgg(a, path, ps)
		if ok {
			if j, dup := seen[ag.Name]; dup {
				ps.add(path, "repeats aggregations[%d] (%s)", j, ag.Name)
			}
			seen[ag.Name] = i
			p.Aggs = append(p.Aggs, ag)
		}
		if a.GroupBy == "" {
			continue
		}
		if groupFrom >= 0 && a.GroupBy != aggs[groupFrom].GroupBy {
			ps.add(path+".groupBy", "all aggregations of one query share one groupBy, and aggregations[%d] uses %s; send a separate query for %s", groupFrom, aggs[groupFrom].GroupBy, a.GroupBy)
			continue
		}
		if groupFrom < 0 {
			groupFrom = i
			p.Group = d.groupKey(a.GroupBy, path+".groupBy", ps)
		}
	}
}

func (d *Dataset) planAgg(a Aggregation, path string, ps *problems) (Agg, bool) {
	if a.Metric != "" {
		if a.Field != "" || a.Operation != "" {
			ps.add(path, "a metric aggregation takes no field or operation; send either metric or field and operation")
			return Agg{}, false
		}
		x, ok := d.metrics[a.Metric]
		if !ok {
			ps.add(path+".metric", "%q is not a metric; use one of %s", a.Metric, oneOf(d.schema.MetricNames()))
			return Agg{}, false
		}
		m := d.metricDef(a.Metric)
		return Agg{Name: a.Metric, Metric: x, Round: m.Round}, true
	}
	if !contains(Operations, a.Operation) {
		hint := ""
		if len(d.metrics) > 0 {
			hint = fmt.Sprintf(", or name a metric (%s) instead", oneOf(d.schema.MetricNames()))
		}
		ps.add(path+".operation", "%q is not an operation; use one of %s%s", a.Operation, oneOf(Operations), hint)
		return Agg{}, false
	}
	if a.Field == "" || a.Field == "*" {
		if a.Operation == AggCount { // count_distinct needs its field
			return Agg{Name: AggCount, Op: AggCount}, true
		}
		ps.add(path+".field", "%s needs a field", a.Operation)
		return Agg{}, false
	}
	fld, ok := d.schema.Field(a.Field)
	if !ok {
		ps.add(path+".field", "%q is not a field; use one of %s", a.Field, oneOf(d.schema.FieldNames()))
		return Agg{}, false
	}
	if !aggAllowed(a.Operation, fld.Type) {
		ps.add(path+".operation", "%s is not valid for %s field %s; use count%s", a.Operation, fld.Type, fld.Name, minMaxHint(fld.Type))
		return Agg{}, false
	}
	return Agg{Name: a.Operation + "_" + fld.Name, Op: a.Operation, Field: fld}, true
}

func aggAllowed(op string, t FieldType) bool {
	switch op {
	case AggCount, AggCountDistinct:
		return true
	case AggMin, AggMax:
		return t.Numeric() || t == TypeDate
	}
	return t.Numeric()
}

func minMaxHint(t FieldType) string {
	if t == TypeDate {
		return ", min or max"
	}
	return ""
}

func (d *Dataset) metricDef(name string) Metric {
	for _, m := range d.schema.Metrics {
		if m.Name == name {
			return m
		}
	}
	return Metric{}
}

// groupKey resolves a groupBy: a field listed in group_by wins over the month and year
// keywords, so a dataset with a `year` column groups by that column.
func (d *Dataset) groupKey(name, path string, ps *problems) *GroupKey {
	if !contains(d.groups, name) {
		ps.add(path, "cannot group by %q; use one of %s", name, oneOf(d.groups))
		return nil
	}
	if f, ok := d.schema.Field(name); ok {
		return &GroupKey{Name: name, Field: f}
	}
	tf, _ := d.schema.Field(d.schema.TimeField)
	return &GroupKey{Name: name, Field: tf, Part: name}
}

// isTimeGrain reports whether a group_by entry names a part of the time field.
func isTimeGrain(g string) bool { return contains(TimeGrains, g) }

func (d *Dataset) planOrder(p *Plan, ps *problems) {
	spec := p.Query.OrderBy
	if spec == "" {
		switch {
		case len(p.Aggs) == 0 && d.schema.OrderBy != "":
			spec = d.schema.OrderBy
		case p.Group != nil:
			spec = p.Group.Name
		default:
			return
		}
	}
	name, desc, ok := splitOrder(spec)
	if len(p.Aggs) == 0 {
		f, isField := d.schema.Field(name)
		if !ok || !isField {
			ps.add("orderBy", "%q is not a field optionally followed by asc or desc; order rows by one of %s", spec, oneOf(d.schema.FieldNames()))
			return
		}
		p.Order = &OrderKey{Name: name, Field: f, Desc: desc}
		return
	}
	cols := p.Columns()
	if !ok || !contains(cols, name) {
		ps.add("orderBy", "%q is not a result column optionally followed by asc or desc; this query's columns are %s", spec, oneOf(cols))
		return
	}
	p.Order = &OrderKey{Name: name, Desc: desc}
}

func (d *Dataset) planLimit(p *Plan, ps *problems) {
	s := d.schema
	if p.Query.Offset < 0 {
		ps.add("offset", "%d is negative", p.Query.Offset)
	}
	p.Offset = p.Query.Offset
	switch l := p.Query.Limit; {
	case l < 0:
		ps.add("limit", "%d is negative; use 1 to %d, or omit it for %d", l, s.MaxLimit, s.DefaultLimit)
	case l == 0:
		p.Limit = s.DefaultLimit
	case l > s.MaxLimit:
		p.Limit = s.MaxLimit
		p.Warnings = append(p.Warnings, fmt.Sprintf("limit %d is above this dataset's cap; at most %d rows are returned", l, s.MaxLimit))
	default:
		p.Limit = l
	}
}
