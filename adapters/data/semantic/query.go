package semantic

// Query is one semantic query: what a question asks of the data, in the layer's terms.
// Source is the fact source (the one the measures or rows come from); filters and
// dimensions may name other sources, which are joined on shared entities.
type Query struct {
	Source string `json:"source"`
	// Measures are the values asked for. Without measures and without Rows the query asks
	// for nothing the data can give.
	Measures []Measure `json:"measures,omitempty"`
	// Rows asks for the fact source's rows themselves (a listing).
	Rows bool `json:"rows,omitempty"`
	// Filters restrict the rows (all must hold).
	Filters []Filter `json:"filters,omitempty"`
	// Time restricts a time field to any of its ranges.
	Time []TimeFilter `json:"time,omitempty"`
	// Exists keeps the rows whose entity has (or, Not, has no) rows in another source.
	Exists []Exists `json:"exists,omitempty"`
	// GroupBy breaks the measures down by a dimension (possibly of another source).
	GroupBy *Dimension `json:"groupBy,omitempty"`
	// Compare computes the measures on each side and their difference.
	Compare *Compare `json:"compare,omitempty"`
	// Order orders the groups by a measure (rankings) or the rows by a field.
	Order *Order `json:"order,omitempty"`
	// Limit keeps the first groups or rows (top N); ties at the cut are kept and noted.
	Limit int `json:"limit,omitempty"`
	// Offset skips rows of a listing first (the next page).
	Offset int `json:"offset,omitempty"`
	// Having keeps the groups whose measure passes a threshold ("which companies have a
	// total import value above 2 million"): a condition on each group's total, never on
	// its rows.
	Having *Having `json:"having,omitempty"`
	// CountGroups asks for the number of groups (that pass Having) as the answer: "how many
	// customers placed at least 5 orders" counts the customers whose orders are 5 or more.
	CountGroups bool `json:"countGroups,omitempty"`
	// Share asks for the percentage of the rows that also match Share's condition.
	Share *Share `json:"share,omitempty"`
	// Without asks for the values of a dimension that have no rows matching the query
	// ("which project types have no critical findings"); the dimension's values must be
	// known (declared, or read from the data).
	Without *Dimension `json:"without,omitempty"`
	// AveragePer asks for the average of the measure over the groups of a dimension
	// ("average number of findings per year"); without a field, per row ("average revenue
	// per order": the total over the number of rows); without a field and of another
	// source whose rows are an entity of the fact, per row of that source ("average number
	// of AEs per subject": the total over all its rows, those with no fact rows included).
	AveragePer *Dimension `json:"averagePer,omitempty"`
	// PerOp combines AveragePer's per-group values: average (the default), max or min
	// ("the most AEs a single subject had"). Only over the groups of a field.
	PerOp string `json:"perOp,omitempty"`
	// GrowthPercent asks for the measure grown by this percentage ("how much revenue to
	// grow 50%"): Weir computes it, the model never does.
	GrowthPercent *float64 `json:"growthPercent,omitempty"`
	// Uncovered lists what the question asks that this query does not express. A query
	// with uncovered parts is never answered as if it were complete.
	Uncovered []string `json:"uncovered,omitempty"`
	// Notes say how the question was read where it was not literal (a month without a
	// year, a period that the data only partly covers).
	Notes []string `json:"notes,omitempty"`
}

// Measure is one value asked for: a metric of the schema, or an operation over a field.
type Measure struct {
	// Metric names a metric of the source.
	Metric string `json:"metric,omitempty"`
	// Op is count, count_distinct, sum, average, min, max or median (OpMedian) when Metric
	// is empty; count without Field counts rows.
	Op    string `json:"op,omitempty"`
	Field string `json:"field,omitempty"`
	// Unit is what the value counts or measures (EUR, orders, patients).
	Unit string `json:"unit,omitempty"`
	// UnitField, when set, holds the unit of Field per row: Weir checks that the rows summed
	// share one unit.
	UnitField string `json:"-"`
}

// Filter is one condition on a field of a source.
type Filter struct {
	Source string `json:"source"`
	Field  string `json:"field"`
	// Op is a structured-query operator (equals, in, contains, greaterThan, notIn, ...).
	Op     string `json:"op"`
	Values []any  `json:"values"`
	// Match is the match strategy for string fields.
	Match string `json:"match,omitempty"`
	// Or names more fields of the source the condition may hold on instead of Field: a
	// search of the free text holds when the title or the description mentions the word.
	Or []string `json:"or,omitempty"`
	// Part, on a date field, tests a part of the date: weekday (0 Sunday to 6 Saturday,
	// "the weekend" is in 0, 6), with equals, in, notEquals or notIn.
	Part string `json:"part,omitempty"`
}

// TimeFilter keeps the rows whose time field falls in any of the ranges (inclusive days).
type TimeFilter struct {
	Source string  `json:"source"`
	Field  string  `json:"field"`
	Ranges []Range `json:"ranges"`
	// Label is how the answer names the period (2025-03, 2024-Q1, 2023).
	Label string `json:"label"`
}

// Range is an inclusive range of days, YYYY-MM-DD.
type Range struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Exists relates the fact rows to another source through a shared entity: the fact rows
// whose entity has at least Min (default 1) rows in Source matching Filters and Time, or,
// with Not, none.
type Exists struct {
	Source  string       `json:"source"`
	Entity  string       `json:"entity"`
	Filters []Filter     `json:"filters,omitempty"`
	Time    []TimeFilter `json:"time,omitempty"`
	Min     int          `json:"min,omitempty"`
	Not     bool         `json:"not,omitempty"`
}

// Dimension is a field of a source, or a grain (day, month, quarter, year, weekday) of its
// time field.
type Dimension struct {
	Source string `json:"source"`
	Field  string `json:"field"`
	Grain  string `json:"grain,omitempty"`
}

// Compare is two (or more) sides whose measures are computed and compared.
type Compare struct {
	Sides []Side `json:"sides"`
	// Difference asks for the first side's value minus the second's as the answer ("how many
	// more findings in 2024 than in 2023", "di quanto il fatturato dei Secondi supera
	// quello dei Primi"); both values are said with it.
	Difference bool `json:"difference,omitempty"`
	// PercentChange asks for the change from the first side to the last in percent of the
	// first as the answer ("di quanto è cambiato in percentuale il fatturato di maggio
	// rispetto ad aprile": April first); both values are said with it.
	PercentChange bool `json:"percentChange,omitempty"`
}

// Side is one side of a comparison: a value of a dimension or a period, with its label.
type Side struct {
	Label   string       `json:"label"`
	Filters []Filter     `json:"filters,omitempty"`
	Time    []TimeFilter `json:"time,omitempty"`
}

// Order orders groups by a measure (By is the measure's index) or rows by a field.
type Order struct {
	Measure int    `json:"measure"`
	Field   string `json:"field,omitempty"`
	Desc    bool   `json:"desc"`
	// Ranked asks for rows ordered by a number as a ranking ("the 3 biggest declarations by
	// value"): each row's key (rows.key) with that number, not the rows themselves.
	Ranked bool `json:"ranked,omitempty"`
}

// Share is the condition whose share of the rows is asked for: filters, a relation to
// another source, or a period ("what share of all declarations are from 2023").
type Share struct {
	Filters []Filter     `json:"filters,omitempty"`
	Time    []TimeFilter `json:"time,omitempty"`
	Exists  *Exists      `json:"exists,omitempty"`
}

// Having is a threshold on a measure of each group: Op is greaterThan, atLeast, lessThan
// or atMost; Measure is the measure's index.
type Having struct {
	Measure int     `json:"measure"`
	Op      string  `json:"op"`
	Value   float64 `json:"value"`
}
