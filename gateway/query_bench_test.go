package gateway

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/adapters/data/demo"
	"github.com/weirgw/weir/adapters/data/sqlstore"
)

// BenchmarkQueryData is a data-route question end to end in process — request decoding,
// classification, the request decision, the filters → query mapping, planning, SQL on 10,000
// demo rows in SQLite, the answer, the response JSON and the audit record — through
// Gateway.Do, the handler the listener uses. sub-benchmark query=only runs the same data
// query alone, so the difference is what Weir adds. It reports the median next to the mean.
func BenchmarkQueryData(b *testing.B) {
	root, _ := filepath.Abs("..")
	ex := filepath.Join(root, "examples/analytics")
	dir := b.TempDir()
	dsn := "sqlite://" + filepath.Join(dir, "orders.db")
	ctx := context.Background()
	if err := sqlstore.Load(ctx, dsn, "orders", demo.AnalyticsFields(), demo.Analytics(10000, 1), sqlstore.LoadOptions{}); err != nil {
		b.Fatal(err)
	}
	cfg := fmt.Sprintf(`rules: %[1]s/rules
policies: %[1]s/policies
routes:
  - {name: query, surface: query, path: /v1/query, auth: none}
data:
  - name: orders
    schema: %[1]s/data/schema.yaml
    dsn: %[2]s
    tool: execute_metric
    tools: {rows: filter_data, metric: execute_metric, group: aggregate_group, compare: compare_periods}
`, ex, dsn)
	path := filepath.Join(dir, "weir.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	g, err := New(ctx, Options{ConfigPath: path, Logger: discardLogger(), AuditSink: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Shutdown(ctx)
	for _, c := range []struct{ name, question, query string }{
		{"question=order_count", "How many orders?", `{"type":"aggregation","aggregations":[{"metric":"order_count"}]}`},
		{"question=revenue_by_month", "fatturato per mese", `{"type":"aggregation","aggregations":[{"metric":"revenue","groupBy":"month"}]}`},
	} {
		body := []byte(q(c.question))
		b.Run(c.name+"/gateway", func(b *testing.B) {
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			var lat []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				req.Reset()
				req.Header.SetMethod("POST")
				req.SetRequestURI("http://weir/v1/query")
				req.SetBody(body)
				g.Do(req, resp)
				if resp.StatusCode() != 200 || !bytes.Contains(resp.Body(), []byte(`"result":{"shape":"`)) || bytes.Contains(resp.Body(), []byte(`not read`)) {
					b.Fatalf("%d %s", resp.StatusCode(), resp.Body())
				}
				lat = append(lat, time.Since(t0))
			}
			reportMedian(b, lat)
		})
		b.Run(c.name+"/query=only", func(b *testing.B) {
			src := g.Snapshot().sources["orders"]
			var lat []time.Duration
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				if _, err := src.Query(ctx, []byte(c.query)); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			reportMedian(b, lat)
		})
	}
}

func reportMedian(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "median-µs")
}
