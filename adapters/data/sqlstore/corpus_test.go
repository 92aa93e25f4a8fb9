package sqlstore

import (
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"

	"github.com/weirgw/weir/adapters/data/demo"
)

// Column positions in demo.Analytics rows.
const (
	cDate, cItem, cCategory, cPrice, cQty, cPayment, cTable, cWaiter = 1, 3, 4, 5, 7, 9, 10, 11
)

// corpusCase is a filter query and the same condition written in Go; every backend must
// return exactly the rows the Go predicate selects.
type corpusCase struct {
	name    string
	filters string
	want    func(r []any) bool
}

var corpus = []corpusCase{
	{"equals string", `[{"field":"category","operator":"equals","value":"Pizze"}]`,
		func(r []any) bool { return r[cCategory] == "Pizze" }},
	{"equals exact is case-sensitive", `[{"field":"waiter","operator":"equals","value":"marco"}]`,
		func(r []any) bool { return false }},
	{"case-insensitive", `[{"field":"waiter","operator":"equals","value":"mARCO","matchStrategy":"case-insensitive"}]`,
		func(r []any) bool { return r[cWaiter] == "Marco" }},
	{"case-insensitive non-ASCII", `[{"field":"item_name","operator":"equals","value":"TIRAMISÙ","matchStrategy":"case-insensitive"}]`,
		func(r []any) bool { return r[cItem] == "Tiramisù" }},
	{"normalized drops accents and spaces", `[{"field":"item_name","operator":"equals","value":"  tiramisu ","matchStrategy":"normalized"}]`,
		func(r []any) bool { return r[cItem] == "Tiramisù" }},
	{"normalized contains", `[{"field":"item_name","operator":"contains","value":"RAGU","matchStrategy":"normalized"}]`,
		func(r []any) bool { return r[cItem] == "Tagliatelle al ragù" }},
	{"contains exact", `[{"field":"item_name","operator":"contains","value":"Pizza"}]`,
		func(r []any) bool { return strings.Contains(r[cItem].(string), "Pizza") }},
	{"contains exact is case-sensitive", `[{"field":"item_name","operator":"contains","value":"pizza"}]`,
		func(r []any) bool { return false }},
	{"startsWith", `[{"field":"item_name","operator":"startsWith","value":"Caff"}]`,
		func(r []any) bool { return strings.HasPrefix(r[cItem].(string), "Caff") }},
	{"startsWith case-insensitive", `[{"field":"item_name","operator":"startsWith","value":"pizza d","matchStrategy":"case-insensitive"}]`,
		func(r []any) bool { return r[cItem] == "Pizza Diavola" }},
	{"fuzzy equals", `[{"field":"item_name","operator":"equals","value":"Tiramisu'","matchStrategy":"fuzzy","fuzzyThreshold":1}]`,
		func(r []any) bool { return r[cItem] == "Tiramisù" }},
	{"fuzzy typo", `[{"field":"waiter","operator":"equals","value":"Giula","matchStrategy":"fuzzy"}]`,
		func(r []any) bool { return r[cWaiter] == "Giulia" }},
	{"fuzzy threshold 0 is normalized equality", `[{"field":"waiter","operator":"equals","value":"giula","matchStrategy":"fuzzy","fuzzyThreshold":0}]`,
		func(r []any) bool { return false }},
	{"fuzzy contains", `[{"field":"item_name","operator":"contains","value":"carbonra","matchStrategy":"fuzzy","fuzzyThreshold":1}]`,
		func(r []any) bool { return r[cItem] == "Spaghetti alla carbonara" }},
	{"fuzzy in", `[{"field":"waiter","operator":"in","value":["Marko","Sarah"],"matchStrategy":"fuzzy","fuzzyThreshold":1}]`,
		func(r []any) bool { return r[cWaiter] == "Marco" || r[cWaiter] == "Sara" }},
	{"normalized in", `[{"field":"item_name","operator":"in","value":["CAFFE ESPRESSO","tiramisu"],"matchStrategy":"normalized"}]`,
		func(r []any) bool { return r[cItem] == "Caffè espresso" || r[cItem] == "Tiramisù" }},
	{"case-insensitive in", `[{"field":"waiter","operator":"in","value":["LUCA","sara"],"matchStrategy":"case-insensitive"}]`,
		func(r []any) bool { return r[cWaiter] == "Luca" || r[cWaiter] == "Sara" }},
	{"normalized startsWith", `[{"field":"item_name","operator":"startsWith","value":" caffe ","matchStrategy":"normalized"}]`,
		func(r []any) bool { return strings.HasPrefix(r[cItem].(string), "Caffè") }},
	{"fuzzy startsWith", `[{"field":"item_name","operator":"startsWith","value":"tagliata di manso","matchStrategy":"fuzzy","fuzzyThreshold":1}]`,
		func(r []any) bool { return r[cItem] == "Tagliata di manzo" }},
	{"equals number", `[{"field":"unit_price","operator":"equals","value":12.5}]`,
		func(r []any) bool { return r[cPrice] == 12.5 }},
	{"date greaterThan and lessThan", `[{"field":"order_date","operator":"greaterThan","value":"2025-04-30"},{"field":"order_date","operator":"lessThan","value":"2025-05-10"}]`,
		func(r []any) bool { d := r[cDate].(string); return d > "2025-04-30" && d < "2025-05-10" }},
	{"in", `[{"field":"payment_method","operator":"in","value":["Contanti","Satispay"]}]`,
		func(r []any) bool { return r[cPayment] == "Contanti" || r[cPayment] == "Satispay" }},
	{"greaterThan number", `[{"field":"unit_price","operator":"greaterThan","value":20}]`,
		func(r []any) bool { return r[cPrice].(float64) > 20 }},
	{"lessThan numeric string", `[{"field":"unit_price","operator":"lessThan","value":"2.5"}]`,
		func(r []any) bool { return r[cPrice].(float64) < 2.5 }},
	{"between int inclusive", `[{"field":"table_id","operator":"between","value":[3,5]}]`,
		func(r []any) bool { t := r[cTable].(int64); return t >= 3 && t <= 5 }},
	{"in int", `[{"field":"quantity","operator":"in","value":[4,6]}]`,
		func(r []any) bool { return r[cQty] == int64(4) || r[cQty] == int64(6) }},
	{"date between", `[{"field":"order_date","operator":"between","value":["2025-02-01","2025-02-28"]}]`,
		func(r []any) bool { d := r[cDate].(string); return d >= "2025-02-01" && d <= "2025-02-28" }},
	{"date equals", `[{"field":"order_date","operator":"equals","value":"2025-03-15"}]`,
		func(r []any) bool { return r[cDate] == "2025-03-15" }},
	{"AND", `[{"field":"waiter","operator":"equals","value":"Luca"},{"field":"category","operator":"equals","value":"Primi"}]`,
		func(r []any) bool { return r[cWaiter] == "Luca" && r[cCategory] == "Primi" }},
	{"OR", `[{"field":"category","operator":"equals","value":"Vini","logicalOperator":"OR"},{"field":"category","operator":"equals","value":"Dolci"}]`,
		func(r []any) bool { return r[cCategory] == "Vini" || r[cCategory] == "Dolci" }},
	{"notEquals", `[{"field":"category","operator":"notEquals","value":"Vini"}]`,
		func(r []any) bool { return r[cCategory] != "Vini" }},
	{"notIn normalized", `[{"field":"category","operator":"notIn","value":["bevande","CAFFETTERIA"],"matchStrategy":"normalized"}]`,
		func(r []any) bool { return r[cCategory] != "Bevande" && r[cCategory] != "Caffetteria" }},
	{"notContains", `[{"field":"item_name","operator":"notContains","value":"Pizza"}]`,
		func(r []any) bool { return !strings.Contains(r[cItem].(string), "Pizza") }},
	{"notIn fuzzy", `[{"field":"waiter","operator":"notIn","value":["Marko"],"matchStrategy":"fuzzy","fuzzyThreshold":1}]`,
		func(r []any) bool { return r[cWaiter] != "Marco" }},
	{"notEquals number", `[{"field":"quantity","operator":"notEquals","value":1}]`,
		func(r []any) bool { return r[cQty] != int64(1) }},
	{"atLeast and atMost", `[{"field":"quantity","operator":"atLeast","value":3},{"field":"unit_price","operator":"atMost","value":8}]`,
		func(r []any) bool { return r[cQty].(int64) >= 3 && r[cPrice].(float64) <= 8 }},
	{"date atLeast", `[{"field":"order_date","operator":"atLeast","value":"2025-05-01"}]`,
		func(r []any) bool { return r[cDate].(string) >= "2025-05-01" }},
	{"weekday in (the weekend)", `[{"field":"order_date","part":"weekday","operator":"in","value":[6,0]}]`,
		func(r []any) bool { d := weekdayOf(r[cDate]); return d == time.Saturday || d == time.Sunday }},
	{"weekday notIn (weekdays)", `[{"field":"order_date","part":"weekday","operator":"notIn","value":[0,6]}]`,
		func(r []any) bool { d := weekdayOf(r[cDate]); return d != time.Saturday && d != time.Sunday }},
	{"weekday equals with a date range", `[{"field":"order_date","part":"weekday","operator":"equals","value":5},{"field":"order_date","operator":"between","value":["2025-03-01","2025-03-31"]}]`,
		func(r []any) bool {
			return weekdayOf(r[cDate]) == time.Friday && r[cDate].(string) >= "2025-03-01" && r[cDate].(string) <= "2025-03-31"
		}},
	{"AND binds tighter than OR", `[{"field":"waiter","operator":"equals","value":"Sara"},{"field":"category","operator":"equals","value":"Pizze","logicalOperator":"OR"},{"field":"quantity","operator":"greaterThan","value":5}]`,
		func(r []any) bool { return (r[cWaiter] == "Sara" && r[cCategory] == "Pizze") || r[cQty].(int64) > 5 }},
}

func weekdayOf(v any) time.Weekday {
	t, _ := time.Parse(time.DateOnly, v.(string))
	return t.Weekday()
}

// TestCorpus runs the corpus on every backend, and on data.Eval (the in-memory engine),
// and compares with the Go predicates.
func TestCorpus(t *testing.T) {
	ds := analyticsDataset(t)
	rows := demo.Analytics(demo.GoldenRows, demo.DefaultSeed)
	for _, tc := range corpus {
		t.Run("memory/"+tc.name, func(t *testing.T) {
			want := 0
			for _, r := range rows {
				if tc.want(r) {
					want++
				}
			}
			q, err := data.ParseQuery([]byte(`{"type":"detail","limit":1000,"filters":` + tc.filters + `}`))
			if err != nil {
				t.Fatal(err)
			}
			p, err := ds.Plan(q)
			if err != nil {
				t.Fatal(err)
			}
			if res := data.Eval(p, rows); res.Total != int64(want) {
				t.Errorf("memory total = %d, want %d", res.Total, want)
			}
		})
	}
	for _, b := range backends(t) {
		st := loadAnalytics(t, b.dsn, demo.GoldenRows)
		for _, tc := range corpus {
			t.Run(b.name+"/"+tc.name, func(t *testing.T) {
				want := 0
				for _, r := range rows {
					if tc.want(r) {
						want++
					}
				}
				res := mustRun(t, st, ds, `{"type":"aggregation","filters":`+tc.filters+`,"aggregations":[{"operation":"count"}]}`)
				if got := res.Rows[0].Get("count"); got != int64(want) {
					t.Errorf("count = %v, want %d", got, want)
				}
				if want == 0 && tc.name != "equals exact is case-sensitive" && !strings.Contains(tc.name, "sensitive") && !strings.Contains(tc.name, "threshold 0") {
					t.Errorf("case selects no rows; it tests nothing")
				}
				detail := mustRun(t, st, ds, `{"type":"detail","limit":500,"filters":`+tc.filters+`}`)
				if detail.Total != int64(want) || len(detail.Rows) != min(want, 500) {
					t.Errorf("detail: total %d, %d rows; want %d", detail.Total, len(detail.Rows), want)
				}
				for _, r := range detail.Rows {
					vals := append([]any(nil), r.Values...)
					if !tc.want(vals) {
						t.Errorf("row %v does not satisfy the condition", r.Map())
						break
					}
				}
			})
		}
	}
}

// TestAggregations checks group by, month/year, ordering, limits and totals.
func TestAggregations(t *testing.T) {
	ds := analyticsDataset(t)
	for _, b := range backends(t) {
		st := loadAnalytics(t, b.dsn, demo.GoldenRows)
		t.Run(b.name+"/month", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"trend","filters":[],"aggregations":[{"metric":"revenue","groupBy":"month"},{"metric":"order_count"}]}`)
			if got := strings.Join(res.Columns, ","); got != "month,revenue,order_count" {
				t.Fatalf("columns = %s", got)
			}
			if len(res.Rows) != 5 || res.Rows[0].Get("month") != "2025-01" || res.Rows[4].Get("month") != "2025-05" {
				t.Fatalf("months = %v", res.Maps())
			}
			var sum float64
			var n int64
			for _, r := range res.Rows {
				sum += r.Get("revenue").(float64)
				n += r.Get("order_count").(int64)
			}
			if n != 941 || sum < 21956.6 || sum > 21956.64 {
				t.Errorf("monthly totals: %d orders, %.2f revenue", n, sum)
			}
		})
		t.Run(b.name+"/weekday", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"aggregation","filters":[],"aggregations":[{"operation":"count","groupBy":"weekday"}]}`)
			want := map[int64]int64{}
			for _, r := range demo.Analytics(demo.GoldenRows, demo.DefaultSeed) {
				want[int64(weekdayOf(r[cDate]))]++
			}
			if len(res.Rows) != len(want) {
				t.Fatalf("weekdays = %v, want %v", res.Maps(), want)
			}
			for i, r := range res.Rows {
				if d := r.Get("weekday"); d != int64(i) || r.Get("count") != want[int64(i)] {
					t.Errorf("weekday %v: %v orders, want weekday %d with %d", d, r.Get("count"), i, want[int64(i)])
				}
			}
		})
		t.Run(b.name+"/year", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"aggregation","filters":[],"aggregations":[{"operation":"count","groupBy":"year"}]}`)
			if len(res.Rows) != 1 || res.Rows[0].Get("year") != int64(2025) || res.Rows[0].Get("count") != int64(941) {
				t.Errorf("year = %v", res.Maps())
			}
		})
		t.Run(b.name+"/ranking", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"ranking","filters":[],"aggregations":[{"metric":"revenue","groupBy":"category"}],"orderBy":"revenue desc","limit":3}`)
			if len(res.Rows) != 3 || res.Total != 9 || !res.Truncated {
				t.Fatalf("rows %d total %d truncated %v", len(res.Rows), res.Total, res.Truncated)
			}
			if res.Rows[0].Get("revenue").(float64) < res.Rows[1].Get("revenue").(float64) {
				t.Errorf("not descending: %v", res.Maps())
			}
		})
		t.Run(b.name+"/field ops", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"aggregation","filters":[{"field":"category","operator":"equals","value":"Pizze"}],
				"aggregations":[{"field":"quantity","operation":"sum","groupBy":"waiter"},{"field":"unit_price","operation":"average"},
				{"field":"unit_price","operation":"min"},{"field":"order_date","operation":"max"},{"field":"item_name","operation":"count"}],"orderBy":"sum_quantity desc"}`)
			if len(res.Rows) != 5 {
				t.Fatalf("rows = %v", res.Maps())
			}
			r := res.Rows[0]
			if _, ok := r.Get("sum_quantity").(int64); !ok {
				t.Errorf("sum_quantity is %T", r.Get("sum_quantity"))
			}
			if v := r.Get("min_unit_price"); v != 6.5 {
				t.Errorf("min_unit_price = %v", v)
			}
			if v, _ := r.Get("max_order_date").(string); !strings.HasPrefix(v, "2025-0") {
				t.Errorf("max_order_date = %v", r.Get("max_order_date"))
			}
		})
		t.Run(b.name+"/detail order and cap", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"detail","filters":[],"orderBy":"unit_price desc","limit":10000}`)
			if len(res.Rows) != 500 || res.Total != 941 || !res.Truncated || len(res.Warnings) == 0 {
				t.Errorf("rows %d total %d warnings %v", len(res.Rows), res.Total, res.Warnings)
			}
			if res.Rows[0].Get("unit_price").(float64) < res.Rows[499].Get("unit_price").(float64) {
				t.Errorf("not ordered")
			}
			if d, _ := res.Rows[0].Get("order_date").(string); len(d) != 10 {
				t.Errorf("order_date = %#v, want YYYY-MM-DD", res.Rows[0].Get("order_date"))
			}
		})
		t.Run(b.name+"/empty result", func(t *testing.T) {
			res := mustRun(t, st, ds, `{"type":"detail","filters":[{"field":"waiter","operator":"equals","value":"Nessuno"}]}`)
			if len(res.Rows) != 0 || res.Total != 0 || res.Truncated {
				t.Errorf("%+v", res)
			}
			agg := mustRun(t, st, ds, `{"type":"aggregation","filters":[{"field":"waiter","operator":"equals","value":"Nessuno"}],"aggregations":[{"metric":"ticket_medio"},{"metric":"order_count"}]}`)
			if agg.Rows[0].Get("ticket_medio") != nil || agg.Rows[0].Get("order_count") != int64(0) {
				t.Errorf("empty aggregate = %v", agg.Maps())
			}
		})
	}
}
