package data

import (
	"strings"
	"testing"
)

func tradeDataset(t testing.TB) *Dataset {
	t.Helper()
	s, err := LoadSchema("../../examples/trade/data/schema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestPlanErrors checks that every invalid query gets problems a model can act on: the path,
// what was wrong and what is allowed.
func TestPlanErrors(t *testing.T) {
	ds := tradeDataset(t)
	cases := []struct {
		name, query string
		want        []string // each must appear in the error
	}{
		{"operator for type", `{"type":"detail","filters":[{"field":"goodsName","operator":"contains","value":"Laptop"},{"field":"importCountry","operator":"greaterThan","value":"China"}]}`,
			[]string{"filters[1].operator: greaterThan is not valid for string field importCountry; use one of equals, contains, startsWith, in"}},
		{"unknown field", `{"type":"detail","filters":[{"field":"country","operator":"equals","value":"China"}]}`,
			[]string{`filters[0].field: "country" is not a field; use one of declarationNumber, date,`}},
		{"unknown operator", `{"type":"detail","filters":[{"field":"quantity","operator":"gte","value":1}]}`,
			[]string{"filters[0].operator: gte is not an operator; for number field quantity; use one of equals, greaterThan, lessThan, between, in"}},
		{"date operator", `{"type":"detail","filters":[{"field":"date","operator":"in","value":["2024-01-01"]}]}`,
			[]string{"in is not valid for date field date; use one of equals, greaterThan, lessThan, between"}},
		{"number value", `{"type":"detail","filters":[{"field":"totalValueUSD","operator":"greaterThan","value":"lots"}]}`,
			[]string{`filters[0].value: expected a number for number field totalValueUSD, got "lots"`}},
		{"date value", `{"type":"detail","filters":[{"field":"date","operator":"greaterThan","value":"15/01/2024"}]}`,
			[]string{"expected a date YYYY-MM-DD for date field date"}},
		{"between shape", `{"type":"detail","filters":[{"field":"quantity","operator":"between","value":[1]}]}`,
			[]string{"between needs an array of two values [low, high]"}},
		{"between order", `{"type":"detail","filters":[{"field":"quantity","operator":"between","value":[10, 1]}]}`,
			[]string{"between needs low <= high"}},
		{"equals array", `{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":["China","Japan"]}]}`,
			[]string{"use operator in"}},
		{"strategy on number", `{"type":"detail","filters":[{"field":"quantity","operator":"equals","value":1,"matchStrategy":"fuzzy"}]}`,
			[]string{"filters[0].matchStrategy: fuzzy applies to string fields only"}},
		{"fuzzy threshold", `{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":"Chna","matchStrategy":"fuzzy","fuzzyThreshold":9}]}`,
			[]string{"filters[0].fuzzyThreshold: 9 is outside 0..5"}},
		{"weekday part", `{"type":"detail","filters":[{"field":"date","part":"weekday","operator":"between","value":[1,5]},{"field":"date","part":"weekday","operator":"in","value":[7]},{"field":"quantity","part":"weekday","operator":"equals","value":1},{"field":"date","part":"week","operator":"equals","value":1}]}`,
			[]string{"filters[0].operator: between is not valid for the weekday of a date; use one of equals, in, notEquals, notIn",
				"filters[1].value: 7 is not a day of the week; use 0 (Sunday) to 6 (Saturday)",
				"filters[2].part: part applies to date fields only; quantity is a number field",
				`filters[3].part: "week" is not a part of a date; use one of weekday`}},
		{"logical operator", `{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":"China","logicalOperator":"XOR"}]}`,
			[]string{`filters[0].logicalOperator: "XOR" is not a logical operator; use AND or OR`}},
		{"sum of string", `{"type":"aggregation","filters":[],"aggregations":[{"field":"importCountry","operation":"sum"}]}`,
			[]string{"aggregations[0].operation: sum is not valid for string field importCountry; use count"}},
		{"group by", `{"type":"aggregation","filters":[],"aggregations":[{"field":"totalValueUSD","operation":"sum","groupBy":"unitPriceUSD"}]}`,
			[]string{`aggregations[0].groupBy: cannot group by "unitPriceUSD"; use one of importCompanyName, importCountry, goodsName, unit, declarationNumber, day, month, quarter, year`}},
		{"two groupings", `{"type":"aggregation","filters":[],"aggregations":[{"operation":"count","groupBy":"importCountry"},{"operation":"count","field":"quantity","groupBy":"month"}]}`,
			[]string{"aggregations[1].groupBy: all aggregations of one query share one groupBy"}},
		{"metric", `{"type":"aggregation","filters":[],"aggregations":[{"metric":"revenue"}]}`,
			[]string{`aggregations[0].metric: "revenue" is not a metric; use one of total_value, declaration_count, average_unit_price`}},
		{"order by", `{"type":"aggregation","filters":[],"aggregations":[{"metric":"total_value","groupBy":"importCountry"}],"orderBy":"totalValueUSD desc"}`,
			[]string{"this query's columns are importCountry, total_value"}},
		{"type and limit and confidence", `{"type":"list","filters":[],"limit":-1,"confidence":2}`,
			[]string{`type: "list" is not a query type`, "limit: -1 is negative", "confidence: 2 is outside [0, 1]"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := ParseQuery([]byte(tc.query))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			_, err = ds.Plan(q)
			if !IsInvalidQuery(err) {
				t.Fatalf("err = %v, want a *QueryError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

// TestPlanSeedExamples plans seed 003's four example queries.
func TestPlanSeedExamples(t *testing.T) {
	ds := tradeDataset(t)
	for i, q := range []string{
		`{"type":"aggregation","filters":[],"aggregations":[{"field":"totalValueUSD","operation":"sum","groupBy":"importCountry"}],"limit":10,"confidence":0.8}`,
		`{"type":"detail","filters":[{"field":"goodsName","operator":"contains","value":"Laptop","matchStrategy":"case-insensitive"},{"field":"totalValueUSD","operator":"greaterThan","value":50000}],"limit":50,"confidence":0.9}`,
		`{"type":"aggregation","filters":[{"field":"importCountry","operator":"equals","value":"United States","matchStrategy":"normalized"}],"aggregations":[{"field":"importCompanyName","operation":"count"}],"confidence":0.7}`,
		`{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":"United States","logicalOperator":"OR"},{"field":"importCountry","operator":"equals","value":"China"}],"limit":100,"confidence":0.8}`,
	} {
		query, err := ParseQuery([]byte(q))
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		p, err := ds.Plan(query)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if i == 3 && len(p.Where) != 2 {
			t.Errorf("OR query has %d groups, want 2", len(p.Where))
		}
		if i == 0 && strings.Join(p.Columns(), ",") != "importCountry,sum_totalValueUSD" {
			t.Errorf("columns = %v", p.Columns())
		}
	}
}

func TestPlanDefaults(t *testing.T) {
	ds := tradeDataset(t)
	p, err := ds.Plan(&Query{Type: "detail", Limit: 100000, Filters: []Filter{{Field: "importCountry", Operator: "in", Value: []any{"China", 5.0}, MatchStrategy: "fuzzy"}}})
	if err != nil {
		t.Fatal(err)
	}
	pr := p.Where[0][0]
	if p.Limit != 500 || len(p.Warnings) != 1 || pr.Threshold != DefaultFuzzyThreshold || pr.Folded[0] != "china" || pr.Values[1] != "5" {
		t.Errorf("plan = %+v, pred = %+v", p, pr)
	}
	if p.Order == nil || p.Order.Name != "date" || !p.Order.Desc {
		t.Errorf("default order = %+v", p.Order)
	}
}
