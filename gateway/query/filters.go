package query

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/gateway/config"
)

// built is a data query made from a classification's filters, with what could not be used.
type built struct {
	query    *data.Query
	warnings []string
	// dropped counts the extracted filters the query could not use (values the dataset
	// rejects, periods it cannot express), unused those it has no place for at all: a
	// source that leaves filters out answers less precisely than one that applies them.
	dropped, unused int
	// planned is the query's validated plan, which the backend runs as it is (nil when
	// planning failed in a way dropping parts cannot mend).
	planned *data.Plan
}

// buildQuery turns the filters the rules extracted into a data query on src, following the
// source's filter map. Filters the dataset cannot take are left out with a warning, as seed
// 000 asks ("proceed with valid filters only"); the query returned always plans.
func buildQuery(src *Source, filters map[string]any, limit int, now time.Time) built {
	ds := src.Dataset.Schema()
	b := built{query: &data.Query{Type: "detail", Limit: limit}}
	var groupBy string
	var metric string
	names := make([]string, 0, len(filters))
	for k := range filters {
		names = append(names, k)
	}
	sort.Strings(names) // deterministic queries and warnings
	for _, name := range names {
		v := jsonValue(filters[name])
		m, mapped := src.Filters[name]
		if !mapped {
			if fieldOf(ds, name) == nil {
				b.unused++ // not about this dataset: no warning, but a sibling may fit better
				continue
			}
			m = config.FilterMap{Role: config.RoleField, Match: "normalized"}
		}
		v = rename(v, m.Values)
		switch m.Role {
		case config.RoleIgnore:
		case config.RoleMetric:
			if s, ok := v.(string); ok {
				metric = s
			}
		case config.RoleGroupBy:
			if s, ok := v.(string); ok {
				groupBy = s
			}
		case config.RoleLimit:
			if n, ok := toInt(v); ok && n > 0 && (limit == 0 || n < limit) {
				b.query.Limit = n
			}
		case config.RoleYear:
			b.addYear(ds, name, v)
		case config.RoleDateRange:
			b.addRange(ds, name, v)
		case config.RolePeriod:
			b.addPeriod(ds, name, v, filters, now)
		default:
			field := m.Field
			if field == "" {
				field = name
			}
			b.addField(ds, name, field, m.Match, v)
		}
	}
	if metric != "" || groupBy != "" {
		b.query.Type = "aggregation"
		agg := data.Aggregation{Metric: metric, GroupBy: groupBy}
		if metric == "" {
			agg.Operation = "count"
		}
		b.query.Aggregations = []data.Aggregation{agg}
	}
	b.plan(src)
	return b
}

// plan drops the parts of the query the dataset rejects, one problem path at a time, so
// that what remains is a valid query.
func (b *built) plan(src *Source) {
	for range 64 {
		p, err := src.Dataset.Plan(b.query)
		if err == nil {
			b.planned = p
			return
		}
		qe, ok := err.(*data.QueryError)
		if !ok || len(qe.Problems) == 0 {
			return
		}
		if !b.drop(qe.Problems[0]) {
			return
		}
	}
}

// drop removes the filter or aggregation a problem points at.
func (b *built) drop(p data.Problem) bool {
	q := b.query
	var i int
	switch {
	case scanIndex(p.Path, "filters[", &i) && i < len(q.Filters):
		f := q.Filters[i]
		b.warnf("filter %s %s %v not applied: %s", f.Field, f.Operator, f.Value, p.Message)
		q.Filters = append(q.Filters[:i], q.Filters[i+1:]...)
		b.dropped++
	case strings.HasPrefix(p.Path, "aggregations") && len(q.Aggregations) > 0:
		a := q.Aggregations[0]
		switch {
		case strings.HasSuffix(p.Path, ".groupBy") && a.GroupBy != "":
			b.warnf("grouping by %s not applied: %s", a.GroupBy, p.Message)
			q.Aggregations[0].GroupBy = ""
		default:
			b.warnf("aggregation not applied: %s", p.Message)
			q.Aggregations, q.Type = nil, "detail"
		}
		b.dropped++
	case strings.HasPrefix(p.Path, "orderBy"):
		q.OrderBy = ""
	default:
		return false
	}
	return true
}

func scanIndex(path, prefix string, i *int) bool {
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	end := strings.IndexByte(path[len(prefix):], ']')
	if end < 0 {
		return false
	}
	n, err := strconv.Atoi(path[len(prefix) : len(prefix)+end])
	*i = n
	return err == nil
}

func (b *built) warnf(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

// addField adds a condition on a dataset field: a value is equals, a list is in, an
// {operator: value} object keeps its operators.
func (b *built) addField(ds *data.Schema, name, field, match string, v any) {
	f := fieldOf(ds, field)
	if f == nil {
		b.warnf("filter %s not applied: %s is not a field of %s", name, field, ds.Name)
		b.dropped++
		return
	}
	strategy := ""
	if f.Type == data.TypeString {
		strategy = match
	}
	add := func(op string, val any) {
		b.query.Filters = append(b.query.Filters, data.Filter{Field: field, Operator: op, Value: val, MatchStrategy: strategy})
	}
	switch x := v.(type) {
	case map[string]any:
		ops := make([]string, 0, len(x))
		for op := range x {
			ops = append(ops, op)
		}
		sort.Strings(ops)
		for _, op := range ops {
			add(op, x[op])
		}
	case []any:
		switch len(x) {
		case 0:
		case 1:
			add(data.OpEquals, x[0])
		default:
			add(data.OpIn, x)
		}
	case []string:
		list := make([]any, len(x))
		for i, s := range x {
			list[i] = s
		}
		b.addField(ds, name, field, match, list)
	default:
		add(data.OpEquals, v)
	}
}

// addYear filters a year: the dataset's own year field when it has one, else its time
// field within that calendar year.
func (b *built) addYear(ds *data.Schema, name string, v any) {
	y, ok := toInt(v)
	if !ok {
		b.warnf("filter %s not applied: %v is not a year", name, v)
		b.dropped++
		return
	}
	if f := fieldOf(ds, "year"); f != nil && f.Type.Numeric() {
		b.query.Filters = append(b.query.Filters, data.Filter{Field: "year", Operator: data.OpEquals, Value: y})
		return
	}
	if b.hasTimeFilter() {
		return // a date range or period is more precise than its year
	}
	b.between(ds, name, fmt.Sprintf("%04d-01-01", y), fmt.Sprintf("%04d-12-31", y))
}

// addRange filters the time field between {start, end}; a missing end is open.
func (b *built) addRange(ds *data.Schema, name string, v any) {
	m, ok := v.(map[string]any)
	if !ok {
		b.warnf("filter %s not applied: not a date range", name)
		b.dropped++
		return
	}
	start, _ := m["start"].(string)
	end, _ := m["end"].(string)
	b.removeTimeFilters(ds)
	switch {
	case start != "" && end != "":
		b.between(ds, name, start, end)
	case start != "":
		b.cmp(ds, name, data.OpGreaterThan, dayBefore(start))
	case end != "":
		b.cmp(ds, name, data.OpLessThan, dayAfter(end))
	}
}

func (b *built) between(ds *data.Schema, name, start, end string) {
	if ds.TimeField == "" {
		b.warnf("filter %s not applied: %s has no time field", name, ds.Name)
		b.dropped++
		return
	}
	b.query.Filters = append(b.query.Filters, data.Filter{Field: ds.TimeField, Operator: data.OpBetween, Value: []any{start, end}})
}

func (b *built) cmp(ds *data.Schema, name, op, day string) {
	if ds.TimeField == "" || day == "" {
		b.warnf("filter %s not applied", name)
		b.dropped++
		return
	}
	b.query.Filters = append(b.query.Filters, data.Filter{Field: ds.TimeField, Operator: op, Value: day})
}

func (b *built) hasTimeFilter() bool {
	for _, f := range b.query.Filters {
		if f.Operator == data.OpBetween || f.Operator == data.OpGreaterThan || f.Operator == data.OpLessThan {
			if _, ok := f.Value.(string); ok {
				return true
			}
			if l, ok := f.Value.([]any); ok && len(l) == 2 {
				if _, ok := l[0].(string); ok {
					return true
				}
			}
		}
	}
	return false
}

// removeTimeFilters drops time-field conditions added from a coarser filter (a year), so
// a range or period replaces them.
func (b *built) removeTimeFilters(ds *data.Schema) {
	out := b.query.Filters[:0]
	for _, f := range b.query.Filters {
		if f.Field != ds.TimeField {
			out = append(out, f)
		}
	}
	b.query.Filters = out
}

func dayBefore(s string) string { return shiftDay(s, -1) }
func dayAfter(s string) string  { return shiftDay(s, 1) }

func shiftDay(s string, d int) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return ""
	}
	return t.AddDate(0, 0, d).Format(time.DateOnly)
}

// months maps month names (Italian and English, as canonical alias values are written) to
// their number.
var months = map[string]time.Month{
	"gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7,
	"agosto": 8, "settembre": 9, "ottobre": 10, "novembre": 11, "dicembre": 12,
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
}

// addPeriod filters the time field for a named period. Relative periods (today,
// last_month, ...) are taken against now; a month or quarter name takes the year the
// question names, else its most recent occurrence.
func (b *built) addPeriod(ds *data.Schema, name string, v any, filters map[string]any, now time.Time) {
	s, _ := v.(string)
	start, end, ok := periodRange(strings.ToLower(s), filters, now)
	if !ok {
		b.warnf("filter %s=%v not applied: the period cannot be expressed as a date range", name, v)
		b.dropped++
		return
	}
	b.removeTimeFilters(ds)
	b.between(ds, name, start.Format(time.DateOnly), end.Format(time.DateOnly))
}

func periodRange(p string, filters map[string]any, now time.Time) (start, end time.Time, ok bool) {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	monthStart := func(y int, m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC) }
	// A month or quarter without a year is its most recent start: "March" asked in
	// November 2026 is March 2026, asked in February 2026 it is March 2025.
	yearOf := func(m time.Month) int {
		if y, ok := toInt(filters["year"]); ok {
			return y
		}
		if m > day.Month() {
			return day.Year() - 1
		}
		return day.Year()
	}
	if m, isMonth := months[p]; isMonth {
		s := monthStart(yearOf(m), m)
		return s, s.AddDate(0, 1, -1), true
	}
	if len(p) == 2 && p[0] == 'q' && p[1] >= '1' && p[1] <= '4' {
		m := time.Month(3*int(p[1]-'1') + 1)
		s := monthStart(yearOf(m), m)
		return s, s.AddDate(0, 3, -1), true
	}
	weekStart := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7)) // Monday
	thisMonth := monthStart(day.Year(), day.Month())
	thisQuarter := monthStart(day.Year(), time.Month((int(day.Month())-1)/3*3+1))
	switch p {
	case "today":
		return day, day, true
	case "yesterday":
		return day.AddDate(0, 0, -1), day.AddDate(0, 0, -1), true
	case "this_week":
		return weekStart, day, true
	case "last_week":
		return weekStart.AddDate(0, 0, -7), weekStart.AddDate(0, 0, -1), true
	case "this_month":
		return thisMonth, day, true
	case "last_month":
		return thisMonth.AddDate(0, -1, 0), thisMonth.AddDate(0, 0, -1), true
	case "last_3_months":
		return day.AddDate(0, -3, 0), day, true
	case "last_6_months":
		return day.AddDate(0, -6, 0), day, true
	case "this_year":
		return monthStart(day.Year(), 1), day, true
	case "last_year":
		return monthStart(day.Year()-1, 1), monthStart(day.Year(), 1).AddDate(0, 0, -1), true
	case "last_quarter":
		return thisQuarter.AddDate(0, -3, 0), thisQuarter.AddDate(0, 0, -1), true
	}
	return time.Time{}, time.Time{}, false
}

// jsonValue converts an extracted value to the types a decoded JSON query holds (the
// classifier writes Go ints and string slices; data.Plan reads float64 and []any).
func jsonValue(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	}
	return v
}

func rename(v any, names map[string]string) any {
	if len(names) == 0 {
		return v
	}
	switch x := v.(type) {
	case string:
		if n, ok := names[x]; ok {
			return n
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = rename(e, names)
		}
		return out
	}
	return v
}

func fieldOf(s *data.Schema, name string) *data.Field {
	for i := range s.Fields {
		if s.Fields[i].Name == name {
			return &s.Fields[i]
		}
	}
	return nil
}

func toInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case int64:
		return int(x), true
	case float64:
		if x == float64(int(x)) {
			return int(x), true
		}
	case string:
		n, err := strconv.Atoi(x)
		return n, err == nil
	}
	return 0, false
}
