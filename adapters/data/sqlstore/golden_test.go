package sqlstore

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/demo"
)

// TestGoldenAnalytics checks seed 002's golden values on the shipped demo dataset, on every
// backend.
func TestGoldenAnalytics(t *testing.T) {
	ds := analyticsDataset(t)
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := loadAnalytics(t, b.dsn, 941)
			res := mustRun(t, st, ds, `{"type":"aggregation","filters":[],"aggregations":[
				{"metric":"revenue"},{"metric":"food_cost"},{"metric":"order_count"},{"metric":"ticket_medio"},
				{"metric":"food_cost_percent"},{"metric":"gross_margin"}]}`)
			if len(res.Rows) != 1 {
				t.Fatalf("rows = %d, want 1", len(res.Rows))
			}
			want := map[string]any{"revenue": 21956.62, "food_cost": 7689.61, "order_count": int64(941),
				"ticket_medio": 23.33, "food_cost_percent": 35.02, "gross_margin": 14267.01}
			for k, v := range want {
				if got := res.Rows[0].Get(k); got != v {
					t.Errorf("%s = %v (%T), want %v", k, got, got, v)
				}
			}
		})
	}
}

// TestGoldenMemory checks the golden values and a grouped query on data.Eval, against SQLite.
func TestGoldenMemory(t *testing.T) {
	ds := analyticsDataset(t)
	rows := demo.Analytics(demo.GoldenRows, demo.DefaultSeed)
	st := loadAnalytics(t, backends(t)[0].dsn, demo.GoldenRows)
	for _, q := range []string{
		`{"type":"aggregation","filters":[],"aggregations":[{"metric":"revenue"},{"metric":"food_cost"},{"metric":"order_count"},{"metric":"ticket_medio"},{"metric":"food_cost_percent"},{"metric":"gross_margin"},{"metric":"quantity_total"}]}`,
		`{"type":"trend","filters":[{"field":"category","operator":"in","value":["Pizze","Primi"]}],"aggregations":[{"metric":"revenue","groupBy":"month"},{"field":"quantity","operation":"sum"},{"field":"unit_price","operation":"average"},{"field":"order_date","operation":"min"}]}`,
		`{"type":"ranking","filters":[],"aggregations":[{"metric":"gross_margin","groupBy":"waiter"},{"operation":"count"}],"orderBy":"gross_margin desc","limit":3}`,
		`{"type":"aggregation","filters":[],"aggregations":[{"operation":"count","groupBy":"year"}]}`,
		`{"type":"aggregation","filters":[{"field":"category","operator":"notIn","value":["Vini"]}],"aggregations":[{"operation":"count_distinct","field":"customer_id","groupBy":"quarter"},{"metric":"revenue"}]}`,
		`{"type":"ranking","filters":[],"aggregations":[{"metric":"revenue","groupBy":"day"}],"orderBy":"revenue desc","limit":3,"offset":1}`,
		`{"type":"detail","filters":[{"field":"waiter","operator":"equals","value":"Sara"}],"orderBy":"order_date","limit":5,"offset":10}`,
	} {
		sqlRes := mustRun(t, st, ds, q)
		query, _ := data.ParseQuery([]byte(q))
		p, err := ds.Plan(query)
		if err != nil {
			t.Fatal(err)
		}
		memRes := data.Eval(p, rows)
		a, _ := json.Marshal(sqlRes)
		b, _ := json.Marshal(memRes)
		if !equalJSONNumbers(t, a, b) {
			t.Errorf("%s\nsql:    %s\nmemory: %s", q, a, b)
		}
	}
}

// equalJSONNumbers compares two results, allowing float noise below 1e-9 relative.
func equalJSONNumbers(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	json.Unmarshal(a, &x)
	json.Unmarshal(b, &y)
	return closeEnough(x, y)
}

func closeEnough(x, y any) bool {
	switch a := x.(type) {
	case float64:
		b, ok := y.(float64)
		return ok && math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a))
	case []any:
		b, ok := y.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !closeEnough(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := y.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k := range a {
			if !closeEnough(a[k], b[k]) {
				return false
			}
		}
		return true
	}
	return x == y
}
