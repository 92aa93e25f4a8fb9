package data

// Query is seed 003's QueryIntent: the structured request an LLM sends as the query_data
// tool call, and that the query surface builds from extracted filters.
type Query struct {
	// Type is what the query is for: aggregation, detail, trend, comparison, recommendation
	// or ranking. It is informative; what runs is decided by Filters and Aggregations.
	Type string `json:"type"`
	// Filters restrict the rows. Each filter is joined to the next by its LogicalOperator.
	Filters []Filter `json:"filters"`
	// Aggregations turn the rows into counts, sums, averages, minima, maxima or named
	// metrics, optionally grouped. Without aggregations the query returns rows.
	Aggregations []Aggregation `json:"aggregations,omitempty"`
	// OrderBy is "name" or "name asc|desc", where name is a field (row queries) or a result
	// column of the aggregation: the group key, a metric name, or operation_field such as
	// sum_totalValueUSD.
	OrderBy string `json:"orderBy,omitempty"`
	// Limit caps the returned rows; 0 means the dataset's default, above its cap is clamped.
	Limit int `json:"limit,omitempty"`
	// Offset skips that many rows (or groups) of the ordered result first: the rows of page
	// n are offset (n-1)*limit. Total still counts every match.
	Offset int `json:"offset,omitempty"`
	// Confidence is the sender's confidence in [0, 1]; it is recorded, not acted upon.
	Confidence float64 `json:"confidence"`
}

// Filter is one condition of a Query (seed 003's FilterExpression).
type Filter struct {
	// Field names a dataset field.
	Field string `json:"field"`
	// Operator is equals, contains, startsWith, greaterThan, lessThan, between or in; the
	// operators allowed depend on the field's type (see OperatorsFor).
	Operator string `json:"operator"`
	// Value is a string or number; for between an array [low, high] (inclusive); for in a
	// non-empty array.
	Value any `json:"value"`
	// MatchStrategy applies to string fields: exact (default), case-insensitive,
	// normalized (diacritics removed, whitespace trimmed and collapsed, case folded) or
	// fuzzy (normalized, then within FuzzyThreshold edits).
	MatchStrategy string `json:"matchStrategy,omitempty"`
	// FuzzyThreshold is the largest Levenshtein distance a fuzzy match allows, 0 to 5;
	// default 2.
	FuzzyThreshold *int `json:"fuzzyThreshold,omitempty"`
	// LogicalOperator joins this filter to the next: AND (default) or OR. AND binds tighter
	// than OR, as in SQL: a AND b OR c means (a AND b) OR c.
	LogicalOperator string `json:"logicalOperator,omitempty"`
	// Part, on a date field, tests a part of the date instead of the date: weekday is the
	// day of the week, 0 (Sunday) to 6 (Saturday), with equals, in, notEquals or notIn
	// ("the weekend" is in [0, 6]).
	Part string `json:"part,omitempty"`
}

// Aggregation is one computed value of a Query (seed 003's AggregationSpec), or a named
// metric of the dataset.
type Aggregation struct {
	// Field is the field the operation applies to; count may omit it to count rows.
	Field string `json:"field,omitempty"`
	// Operation is count, count_distinct, sum, average, min or max.
	Operation string `json:"operation,omitempty"`
	// Metric names a metric declared by the dataset (e.g. revenue); it replaces Field and
	// Operation.
	Metric string `json:"metric,omitempty"`
	// GroupBy is a groupable field, or day, month, quarter or year of the dataset's time
	// field. All aggregations of a query share one grouping; those that omit it inherit it.
	GroupBy string `json:"groupBy,omitempty"`
}

// Query types, operators, strategies and operations, as seed 003 names them.
const (
	OpEquals      = "equals"
	OpContains    = "contains"
	OpStartsWith  = "startsWith"
	OpGreaterThan = "greaterThan"
	OpLessThan    = "lessThan"
	OpBetween     = "between"
	OpIn          = "in"
	// OpAtLeast and OpAtMost are the inclusive comparisons (>=, <=).
	OpAtLeast = "atLeast"
	OpAtMost  = "atMost"
	// OpNotEquals, OpNotIn and OpNotContains are the negations of equals, in and contains:
	// they match the rows whose value is present and does not match.
	OpNotEquals   = "notEquals"
	OpNotIn       = "notIn"
	OpNotContains = "notContains"

	MatchExact           = "exact"
	MatchCaseInsensitive = "case-insensitive"
	MatchNormalized      = "normalized"
	MatchFuzzy           = "fuzzy"

	AggCount   = "count"
	AggSum     = "sum"
	AggAverage = "average"
	AggMin     = "min"
	AggMax     = "max"
	// AggCountDistinct counts the distinct non-null values of a field.
	AggCountDistinct = "count_distinct"

	GroupDay     = "day"
	GroupMonth   = "month"
	GroupQuarter = "quarter"
	GroupYear    = "year"
	// GroupWeekday is the day of the week, 0 (Sunday) to 6 (Saturday), as SQLite's
	// strftime('%w') and PostgreSQL's EXTRACT(DOW) number it.
	GroupWeekday = "weekday"

	// DefaultFuzzyThreshold is the edit distance a fuzzy filter allows when it names none.
	DefaultFuzzyThreshold = 2
	// MaxFuzzyThreshold is the largest edit distance a fuzzy filter may ask for.
	MaxFuzzyThreshold = 5
	// MaxInValues caps the values of one in filter.
	MaxInValues = 1000
	// MaxFilters caps the filters of one query.
	MaxFilters = 32
	// MaxAggregations caps the aggregations of one query.
	MaxAggregations = 16
)

// QueryTypes are the values Query.Type accepts.
var QueryTypes = []string{"aggregation", "detail", "trend", "comparison", "recommendation", "ranking"}

// Operators lists every filter operator.
var Operators = []string{OpEquals, OpContains, OpStartsWith, OpGreaterThan, OpLessThan, OpBetween, OpIn,
	OpAtLeast, OpAtMost, OpNotEquals, OpNotIn, OpNotContains}

// negated maps each negating operator to the operator it negates.
var negated = map[string]string{OpNotEquals: OpEquals, OpNotIn: OpIn, OpNotContains: OpContains}

// MatchStrategies lists every match strategy.
var MatchStrategies = []string{MatchExact, MatchCaseInsensitive, MatchNormalized, MatchFuzzy}

// Operations lists every aggregation operation.
var Operations = []string{AggCount, AggSum, AggAverage, AggMin, AggMax, AggCountDistinct}

// TimeGrains are the parts of the time field a query may group by: the day (YYYY-MM-DD),
// the month (YYYY-MM), the quarter (YYYY-Qn), the year (an integer) and the day of the
// week (an integer, 0 Sunday to 6 Saturday).
var TimeGrains = []string{GroupDay, GroupMonth, GroupQuarter, GroupYear, GroupWeekday}

// DateParts are the parts of a date field a filter may test (Filter.Part).
var DateParts = []string{GroupWeekday}

// partOperators are the operators a filter on a date part allows.
var partOperators = []string{OpEquals, OpIn, OpNotEquals, OpNotIn}

// OperatorsFor returns the operators a field type allows (seed 003's "Filter Operations by
// Field Type"; int behaves like number).
func OperatorsFor(t FieldType) []string {
	switch t {
	case TypeString:
		return []string{OpEquals, OpContains, OpStartsWith, OpIn, OpNotEquals, OpNotContains, OpNotIn}
	case TypeNumber, TypeInt:
		return []string{OpEquals, OpGreaterThan, OpLessThan, OpBetween, OpIn, OpAtLeast, OpAtMost, OpNotEquals, OpNotIn}
	case TypeDate:
		return []string{OpEquals, OpGreaterThan, OpLessThan, OpBetween, OpAtLeast, OpAtMost}
	}
	return nil
}
