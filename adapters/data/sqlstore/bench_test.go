package sqlstore

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// benchQueries are typical data-route queries: a KPI, a grouped KPI with a filter, a page of
// rows, and a normalized text filter.
var benchQueries = []struct{ name, json string }{
	{"metric", `{"type":"aggregation","filters":[],"aggregations":[{"metric":"revenue"}],"confidence":0.9}`},
	{"grouped", `{"type":"aggregation","filters":[{"field":"order_date","operator":"between","value":["2025-02-01","2025-03-31"]}],"aggregations":[{"metric":"revenue","groupBy":"category"},{"metric":"ticket_medio"}],"orderBy":"revenue desc","limit":5}`},
	{"rows", `{"type":"detail","filters":[{"field":"waiter","operator":"equals","value":"Giulia"}],"limit":50}`},
	{"normalized", `{"type":"aggregation","filters":[{"field":"item_name","operator":"contains","value":"RAGU","matchStrategy":"normalized"}],"aggregations":[{"operation":"count"}]}`},
}

// BenchmarkQueryData runs a data query end to end in process — JSON parse, validation and
// planning, SQL build, execution on 10,000 rows of SQLite, result decoding — and reports the
// median latency next to the mean.
func BenchmarkQueryData(b *testing.B) {
	ds := analyticsDataset(b)
	st := loadAnalytics(b, "sqlite://"+filepath.Join(b.TempDir(), "bench.db"), 10000)
	ctx := context.Background()
	for _, bq := range benchQueries {
		b.Run(bq.name, func(b *testing.B) {
			var lat []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				q, err := data.ParseQuery([]byte(bq.json))
				if err != nil {
					b.Fatal(err)
				}
				p, err := ds.Plan(q)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := st.Run(ctx, p); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "median-µs")
		})
	}
}

// BenchmarkPlan measures what Weir adds before the database: parse, validate, build SQL.
func BenchmarkPlan(b *testing.B) {
	ds := analyticsDataset(b)
	for _, bq := range benchQueries {
		b.Run(bq.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				q, _ := data.ParseQuery([]byte(bq.json))
				p, err := ds.Plan(q)
				if err != nil {
					b.Fatal(err)
				}
				(&builder{d: dialect{kind: SQLite}}).build(p, p.Limit)
			}
		})
	}
}
