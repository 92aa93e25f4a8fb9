package data

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParseQueryStrict(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"unknown top key", `{"type":"detail","filters":[],"where":{}}`, `where: unknown key "where"; allowed keys are type, filters,`},
		{"unknown filter key", `{"type":"detail","filters":[{"field":"a","op":"equals","value":1}]}`, `filters[0].op: unknown key "op"; allowed keys are field, operator, value,`},
		{"unknown aggregation key", `{"type":"detail","filters":[],"aggregations":[{"fn":"sum"}]}`, `aggregations[0].fn: unknown key`},
		{"wrong type", `{"type":"detail","filters":[],"limit":"10"}`, `limit: expected an integer, got string`},
		{"filters not array", `{"type":"detail","filters":{}}`, `filters: must be an array of objects`},
		{"trailing", `{"type":"detail","filters":[]} {}`, `unexpected data after the JSON object`},
		{"not json", `type=detail`, `a query must be one JSON object`},
		{"null", `null`, `a query must be one JSON object: got null`},
		{"too big", `{"type":"` + strings.Repeat("x", MaxQueryBytes) + `"}`, `at most 65536 are accepted`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseQuery([]byte(tc.in))
			if !IsInvalidQuery(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestQueryRoundTrip is seed 000's property 19: marshal then parse yields an equal query.
func TestQueryRoundTrip(t *testing.T) {
	two := 2
	q := &Query{Type: "detail", Confidence: 0.9, Limit: 5, OrderBy: "date desc",
		Filters: []Filter{
			{Field: "goodsName", Operator: "contains", Value: "Laptop", MatchStrategy: "fuzzy", FuzzyThreshold: &two, LogicalOperator: "OR"},
			{Field: "quantity", Operator: "between", Value: []any{1.0, 5.0}},
		},
		Aggregations: []Aggregation{{Metric: "total_value", GroupBy: "month"}, {Field: "quantity", Operation: "sum"}},
	}
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseQuery(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q, back) {
		t.Errorf("round trip:\n%+v\n%+v", q, back)
	}
}
