package data

import (
	"fmt"
	"strings"
)

// ToolName is the name of the data query tool a model receives.
const ToolName = "query_data"

// Tool is a function-calling tool definition, free of any LLM client's types.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// Tool returns the query_data tool for this dataset: the description documents the fields,
// operators, metrics and groupings (seed 003's "embedded schema documentation"), and the
// parameters are JSONSchema.
func (d *Dataset) Tool() Tool {
	return Tool{Name: ToolName, Description: d.ToolDescription(), Parameters: d.JSONSchema()}
}

// JSONSchema returns the JSON Schema (draft 2020-12, the subset function-calling APIs accept)
// of a query against this dataset: field, metric and groupBy names are enums, so a model is
// steered to valid queries before Plan has to correct it.
func (d *Dataset) JSONSchema() map[string]any {
	s := d.schema
	scalar := []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}
	filter := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"field":    map[string]any{"type": "string", "enum": s.FieldNames()},
			"operator": map[string]any{"type": "string", "enum": Operators, "description": "string fields: equals, notEquals, contains, notContains, startsWith, in, notIn; number/int fields: equals, notEquals, greaterThan, lessThan, atLeast, atMost, between, in, notIn; date fields: equals, greaterThan, lessThan, atLeast, atMost, between"},
			"value": map[string]any{
				"description": "a string or number (dates as YYYY-MM-DD); for between an array [low, high] (inclusive); for in an array of values",
				"anyOf":       append(append([]any{}, scalar...), map[string]any{"type": "array", "items": map[string]any{"anyOf": scalar}}),
			},
			"matchStrategy":   map[string]any{"type": "string", "enum": MatchStrategies, "description": "string fields only; default exact"},
			"fuzzyThreshold":  map[string]any{"type": "integer", "minimum": 0, "maximum": MaxFuzzyThreshold, "description": "edits allowed by fuzzy matching; default 2"},
			"logicalOperator": map[string]any{"type": "string", "enum": []string{"AND", "OR"}, "description": "joins this filter to the next; default AND; AND binds tighter than OR"},
			"part":            map[string]any{"type": "string", "enum": DateParts, "description": "date fields only: test the day of the week instead of the date (0 Sunday to 6 Saturday) with equals, in, notEquals or notIn"},
		},
		"required":             []string{"field", "operator", "value"},
		"additionalProperties": false,
	}
	aggProps := map[string]any{
		"field":     map[string]any{"type": "string", "enum": s.FieldNames()},
		"operation": map[string]any{"type": "string", "enum": Operations, "description": "sum and average need a number field; count may omit field; count_distinct counts different values of field"},
	}
	if len(s.Metrics) > 0 {
		aggProps["metric"] = map[string]any{"type": "string", "enum": s.MetricNames(), "description": "a named metric; replaces field and operation"}
	}
	if len(d.groups) > 0 {
		aggProps["groupBy"] = map[string]any{"type": "string", "enum": d.groups, "description": "one grouping per query"}
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"type":         map[string]any{"type": "string", "enum": QueryTypes},
			"filters":      map[string]any{"type": "array", "items": filter, "maxItems": MaxFilters},
			"aggregations": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": aggProps, "additionalProperties": false}, "maxItems": MaxAggregations},
			"orderBy":      map[string]any{"type": "string", "description": `"name" or "name desc": a field for row queries, a result column (the groupBy, a metric, count, or operation_field such as sum_quantity) for aggregations`},
			"limit":        map[string]any{"type": "integer", "minimum": 1, "maximum": s.MaxLimit, "description": fmt.Sprintf("rows to return; default %d", s.DefaultLimit)},
			"offset":       map[string]any{"type": "integer", "minimum": 0, "description": "rows (or groups) of the ordered result to skip first, for the next page"},
			"confidence":   map[string]any{"type": "number", "minimum": 0, "maximum": 1},
		},
		"required":             []string{"type", "filters"},
		"additionalProperties": false,
	}
}

// ToolDescription documents the dataset for a model: what a row is, the fields with types
// and known values, the metrics, the groupings and the limits.
func (d *Dataset) ToolDescription() string {
	s := d.schema
	var b strings.Builder
	fmt.Fprintf(&b, "Query the %s dataset with a structured query.", s.Name)
	if s.Description != "" {
		fmt.Fprintf(&b, " %s", s.Description)
	}
	b.WriteString("\nFields:\n")
	for _, f := range s.Fields {
		fmt.Fprintf(&b, "- %s (%s)", f.Name, f.Type)
		if f.Description != "" {
			fmt.Fprintf(&b, ": %s", f.Description)
		}
		if len(f.Values) > 0 {
			fmt.Fprintf(&b, "; values: %s", strings.Join(f.Values, ", "))
		}
		b.WriteByte('\n')
	}
	if len(s.Metrics) > 0 {
		b.WriteString("Metrics (aggregations: {\"metric\": name}):\n")
		for _, m := range s.Metrics {
			fmt.Fprintf(&b, "- %s = %s", m.Name, m.Expr)
			if m.Description != "" {
				fmt.Fprintf(&b, ": %s", m.Description)
			}
			b.WriteByte('\n')
		}
	}
	if len(d.groups) > 0 {
		fmt.Fprintf(&b, "groupBy: %s", strings.Join(d.groups, ", "))
		var grains []string
		for _, g := range d.groups {
			if _, isField := s.Field(g); !isField && isTimeGrain(g) {
				grains = append(grains, g)
			}
		}
		if len(grains) > 0 {
			fmt.Fprintf(&b, " (%s of %s)", strings.Join(grains, ", "), s.TimeField)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "Rows per query: default %d, at most %d. Invalid queries are answered with an error that says what to change.", s.DefaultLimit, s.MaxLimit)
	return b.String()
}
