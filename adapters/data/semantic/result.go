package semantic

import (
	"github.com/weirgw/weir/adapters/data"
)

// The shapes of a result.
const (
	ShapeScalar = "scalar"
	ShapeGroups = "groups"
	ShapeRows   = "rows"
)

// Result is what a semantic query returned, ready to be written as an answer.
type Result struct {
	// Shape is scalar (one value per measure), groups (values per label) or rows.
	Shape string `json:"shape"`
	// Measures name the values, in order; Units are their units ("" when unknown).
	Measures []string `json:"measures,omitempty"`
	Units    []string `json:"units,omitempty"`
	// Values are a scalar result's values, one per measure.
	Values []any `json:"values,omitempty"`
	// Dimension names the groups' labels (a field, a grain, or "period").
	Dimension string `json:"dimension,omitempty"`
	// Groups are a grouped result's labels with their values, in order.
	Groups []Group `json:"groups,omitempty"`
	// Columns and Rows are a listing's rows.
	Columns []string   `json:"-"`
	Rows    []data.Row `json:"-"`
	// Total is the number of matching rows (listing) or groups before any cut.
	Total int64 `json:"total"`
	// Difference compares the last side of a comparison with the first.
	Difference *Difference `json:"difference,omitempty"`
	// Growth is the first value grown by the asked percentage.
	Growth *Growth `json:"growth,omitempty"`
	// Notes say how the question was read and what the numbers do not include.
	Notes []string `json:"notes,omitempty"`
}

// Group is one label of a grouped result with its values.
type Group struct {
	Label  any   `json:"label"`
	Values []any `json:"values"`
}

// Difference is the change from the first side of a comparison to the last.
type Difference struct {
	From    string   `json:"from"`
	To      string   `json:"to"`
	Value   float64  `json:"value"`
	Percent *float64 `json:"percent,omitempty"`
}

// Growth is a value grown by a percentage: Weir's arithmetic, never a model's.
type Growth struct {
	Percent float64 `json:"percent"`
	Target  float64 `json:"target"`
}
