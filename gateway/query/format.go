package query

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// describe writes the answer of a data result in one or a few lines, with every value
// exactly as the data returned it: a metric's value, a grouped metric per group, or how
// many rows matched.
func describe(src *Source, sr *SourceResult) string {
	q := sr.Query
	s := src.Dataset.Schema()
	cond := conditions(q)
	if len(sr.Rows) == 0 {
		return fmt.Sprintf("No %s rows match%s.", s.Name, cond)
	}
	if len(q.Aggregations) > 0 {
		a := q.Aggregations[0]
		label, desc := a.Metric, ""
		if label == "" {
			label = "count"
		}
		for _, m := range s.Metrics {
			if m.Name == a.Metric && m.Description != "" {
				desc = " (" + m.Description + ")"
			}
		}
		col := len(sr.Columns) - 1
		if a.GroupBy == "" {
			return fmt.Sprintf("%s%s: %s%s.", label, desc, format(sr.Rows[0].Values[col]), cond)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s%s by %s%s:", label, desc, a.GroupBy, cond)
		for _, row := range sr.Rows {
			fmt.Fprintf(&b, "\n%s: %s", format(row.Values[0]), format(row.Values[col]))
		}
		if sr.Total > int64(len(sr.Rows)) {
			fmt.Fprintf(&b, "\n(%d of %d groups shown)", len(sr.Rows), sr.Total)
		}
		return b.String()
	}
	total := max(sr.Total, int64(len(sr.Rows)))
	noun, verb := "rows", "match"
	if total == 1 {
		noun, verb = "row", "matches"
	}
	out := fmt.Sprintf("%d %s %s %s%s", total, s.Name, noun, verb, cond)
	if total > int64(len(sr.Rows)) {
		out += fmt.Sprintf("; the first %d are shown", len(sr.Rows))
	}
	return out + "."
}

// conditions describes a query's filters: " where a = x and b in [y, z]".
func conditions(q *data.Query) string {
	if q == nil || len(q.Filters) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" where ")
	for i, f := range q.Filters {
		if i > 0 {
			op := strings.ToLower(q.Filters[i-1].LogicalOperator)
			if op == "" {
				op = "and"
			}
			b.WriteString(" " + op + " ")
		}
		switch f.Operator {
		case data.OpEquals:
			fmt.Fprintf(&b, "%s = %s", f.Field, format(f.Value))
		case data.OpBetween:
			if l, ok := f.Value.([]any); ok && len(l) == 2 {
				fmt.Fprintf(&b, "%s between %s and %s", f.Field, format(l[0]), format(l[1]))
				continue
			}
			fmt.Fprintf(&b, "%s between %s", f.Field, format(f.Value))
		case data.OpGreaterThan:
			fmt.Fprintf(&b, "%s > %s", f.Field, format(f.Value))
		case data.OpLessThan:
			fmt.Fprintf(&b, "%s < %s", f.Field, format(f.Value))
		default:
			fmt.Fprintf(&b, "%s %s %s", f.Field, f.Operator, format(f.Value))
		}
	}
	return b.String()
}

// format writes a value as the data holds it: numbers in full precision, no exponent.
func format(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = format(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case json.Number:
		return x.String()
	}
	return fmt.Sprint(v)
}

// contextBlock writes results as JSON lines for a model, stopping at maxRows rows and at
// maxTokens estimated tokens (4 bytes a token). It returns the block and the rows in it.
func contextBlock(results []SourceResult, maxRows, maxTokens int) (string, int) {
	var b strings.Builder
	n := 0
	for _, sr := range results {
		if !sr.Used {
			continue
		}
		fmt.Fprintf(&b, "Data from %s (%d of %d matching rows):\n", sr.Name, len(sr.Rows), max(sr.Total, int64(len(sr.Rows))))
		for _, row := range sr.Rows {
			line, err := json.Marshal(row)
			if err != nil {
				continue
			}
			if n >= maxRows || estimateTokens(b.Len()+len(line)) > maxTokens {
				fmt.Fprintf(&b, "(further rows left out to stay within %d rows and %d tokens)\n", maxRows, maxTokens)
				return b.String(), n
			}
			b.Write(line)
			b.WriteByte('\n')
			n++
		}
	}
	return b.String(), n
}

func estimateTokens(bytes int) int { return (bytes + 3) / 4 }

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
