package data

import (
	"fmt"
	"os"
	"regexp"
	"sort"

	"github.com/weirgw/weir/rules/located"
)

// FieldType is the type of a dataset field.
type FieldType string

// Field types. Dates are ISO dates (YYYY-MM-DD).
const (
	TypeString FieldType = "string"
	TypeNumber FieldType = "number"
	TypeInt    FieldType = "int"
	TypeDate   FieldType = "date"
)

// FieldTypes lists every field type.
var FieldTypes = []string{string(TypeString), string(TypeNumber), string(TypeInt), string(TypeDate)}

// Numeric reports whether values of the type are numbers.
func (t FieldType) Numeric() bool { return t == TypeNumber || t == TypeInt }

// Schema is a dataset as a pack declares it in YAML (see README.md, "Schema format").
type Schema struct {
	// Name is the dataset's name as queries and tools refer to it; default Table.
	Name string
	// Table is the table (SQL) or resource (HTTP) that holds the rows.
	Table string
	// Description says what one row is; it goes into the query_data tool's description.
	Description string
	// Fields are the queryable columns, in declaration order (the order of detail rows).
	Fields []Field
	// GroupBy lists the fields a query may group by, plus month and/or year.
	GroupBy []string
	// TimeField is the date field that month and year group by; default the only date field.
	TimeField string
	// Metrics are named expressions over columns, e.g. revenue: sum(unit_price * quantity).
	Metrics []Metric
	// DefaultLimit is the row limit of a query that names none; default 50.
	DefaultLimit int
	// MaxLimit caps every query's rows; default 1000.
	MaxLimit int
	// OrderBy is the default order of detail rows ("field" or "field desc"); default none.
	OrderBy string
	// File is where the schema was read from, for error messages.
	File string
}

// Field is one column of a dataset.
type Field struct {
	// Name is how queries refer to the field.
	Name string
	// Type is string, number, int or date.
	Type FieldType
	// Column is the physical column; default Name.
	Column string
	// Description helps the model choose the field.
	Description string
	// Values, for a string field, lists the values it takes; exact equals and in filters
	// must use one of them, and the tool description shows them.
	Values []string
	line   int
}

// Metric is a named expression over columns (see README.md, "Metrics").
type Metric struct {
	// Name is how queries refer to the metric.
	Name string
	// Expr is the expression, e.g. "sum(unit_price * quantity)" or "revenue / order_count".
	Expr string
	// Description helps the model choose the metric.
	Description string
	// Round, when set, rounds results to that many decimals.
	Round *int
	line  int
}

// Default limits of a schema that declares none.
const (
	DefaultRowLimit = 50
	DefaultRowCap   = 1000
)

// identRE is what table, field and column names must look like: they become quoted SQL
// identifiers, and keeping them plain makes quoting a second line of defence, not the only one.
var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,62}$`)

// ValidIdent reports whether s may name a table, field or column.
func ValidIdent(s string) bool { return identRE.MatchString(s) }

// Field returns the field with the given name.
func (s *Schema) Field(name string) (*Field, bool) {
	for i := range s.Fields {
		if s.Fields[i].Name == name {
			return &s.Fields[i], true
		}
	}
	return nil, false
}

// FieldNames returns the field names in declaration order.
func (s *Schema) FieldNames() []string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return names
}

// MetricNames returns the metric names in declaration order.
func (s *Schema) MetricNames() []string {
	names := make([]string, len(s.Metrics))
	for i, m := range s.Metrics {
		names[i] = m.Name
	}
	return names
}

// LoadSchema reads and parses a schema file.
func LoadSchema(path string) (*Schema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	return ParseSchema(path, b)
}

// SchemaError is one problem of a schema file, with a stable snake_case code, written
// "file:line: code: message": the one located error type of Weir's loaders (rules/located).
type SchemaError = located.Error

// SchemaErrors is every problem of a schema file, sorted by line.
type SchemaErrors = located.List

type schemaErrs struct {
	file string
	list SchemaErrors
}

func (e *schemaErrs) add(line int, code, format string, args ...any) {
	e.list = append(e.list, &SchemaError{File: e.file, Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (e *schemaErrs) err() error { return e.list.Err() }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
