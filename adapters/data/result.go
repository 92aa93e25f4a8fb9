package data

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
)

// Backend executes validated plans against a data source.
type Backend interface {
	// Run executes a plan. Errors other than *QueryError are system errors.
	Run(ctx context.Context, p *Plan) (*Result, error)
	// Close releases the backend's connections.
	Close() error
}

// Result is what a query returns: rows in column order, plus what the caller needs to tell
// the user or the model how complete they are.
type Result struct {
	// Columns are the result columns, in order.
	Columns []string `json:"columns"`
	// Rows hold the values of Columns, in that order.
	Rows []Row `json:"rows"`
	// Total is the number of rows (or groups) that matched before the limit. SQL backends
	// count only when a result fills its limit; a shorter result is its own total.
	Total int64 `json:"total"`
	// Truncated reports that the limit cut the result (Total > len(Rows)).
	Truncated bool `json:"truncated"`
	// Warnings are adjustments made to the query (e.g. a clamped limit).
	Warnings []string `json:"warnings,omitempty"`
}

// Row is one result row: its values in the result's column order. It marshals as a JSON
// object whose keys keep that order.
type Row struct {
	cols   []string
	Values []any
}

// NewRow returns a row of the given columns (shared, not copied) and values.
func NewRow(cols []string, values []any) Row { return Row{cols: cols, Values: values} }

// Get returns the value of a column, or nil.
func (r Row) Get(col string) any {
	for i, c := range r.cols {
		if c == col {
			return r.Values[i]
		}
	}
	return nil
}

// Map returns the row as a map (without order).
func (r Row) Map() map[string]any {
	m := make(map[string]any, len(r.cols))
	for i, c := range r.cols {
		m[c] = r.Values[i]
	}
	return m
}

// MarshalJSON writes the row as an object with keys in column order.
func (r Row) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range r.cols {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(c)
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(r.Values[i])
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Maps returns every row as a map.
func (r *Result) Maps() []map[string]any {
	out := make([]map[string]any, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = row.Map()
	}
	return out
}

// RoundMetrics applies the plan's declared metric rounding to a result, in place. Backends
// call it so that every backend rounds the same way (in Go, half away from zero).
func RoundMetrics(p *Plan, r *Result) {
	for _, a := range p.Aggs {
		if a.Round == nil {
			continue
		}
		idx := indexOf(r.Columns, a.Name)
		scale := math.Pow(10, float64(*a.Round))
		for _, row := range r.Rows {
			if f, ok := row.Values[idx].(float64); ok {
				row.Values[idx] = math.Round(f*scale) / scale
			}
		}
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// Explainer is a backend that can show what it sends for a plan (the SQL and its
// parameters, or the request), for weir query --explain.
type Explainer interface {
	Explain(p *Plan) (string, []any)
}
