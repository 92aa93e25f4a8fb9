package source

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/demo"
	"github.com/weirgw/weir/adapters/data/sqlstore"
)

func TestOpenAndQuery(t *testing.T) {
	ctx := context.Background()
	dsn := "sqlite://" + filepath.Join(t.TempDir(), "a.db")
	if err := sqlstore.Load(ctx, dsn, "orders", demo.AnalyticsFields(), demo.Analytics(demo.GoldenRows, demo.DefaultSeed), sqlstore.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WEIR_DATA_DSN", dsn)
	src, err := Open(ctx, Config{Schema: "../../../examples/analytics/data/schema.yaml", DSN: "$WEIR_DATA_DSN"})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	res, err := src.Query(ctx, []byte(`{"type":"aggregation","filters":[],"aggregations":[{"metric":"revenue"}]}`))
	if err != nil || res.Rows[0].Get("revenue") != 21956.62 {
		t.Fatalf("%v %v", res, err)
	}
	_, err = src.Query(ctx, []byte(`{"type":"aggregation","filters":[],"aggregations":[{"metric":"fatturato"}]}`))
	if !data.IsInvalidQuery(err) || !strings.Contains(err.Error(), "use one of revenue") {
		t.Errorf("err = %v", err)
	}
	if _, err := Open(ctx, Config{Schema: "x.yaml"}); err == nil {
		t.Error("no backend accepted")
	}
}

// TestOpenChecksColumns: a table that lacks a column of the schema is refused when the
// source opens, instead of SQLite answering the column's name as its value.
func TestOpenChecksColumns(t *testing.T) {
	ctx := context.Background()
	var fields []data.Field
	var keep []int
	for i, f := range demo.AnalyticsFields() {
		if f.Name != "waiter" {
			fields = append(fields, f)
			keep = append(keep, i)
		}
	}
	var rows [][]any
	for _, r := range demo.Analytics(50, demo.DefaultSeed) {
		var out []any
		for _, i := range keep {
			out = append(out, r[i])
		}
		rows = append(rows, out)
	}
	for name, table := range map[string]string{"missing column": "orders", "missing table": "other"} {
		t.Run(name, func(t *testing.T) {
			dsn := "sqlite://" + filepath.Join(t.TempDir(), "a.db")
			if err := sqlstore.Load(ctx, dsn, table, fields, rows, sqlstore.LoadOptions{}); err != nil {
				t.Fatal(err)
			}
			_, err := Open(ctx, Config{Schema: "../../../examples/analytics/data/schema.yaml", DSN: dsn})
			want := "has no column waiter"
			if table != "orders" {
				want = "table orders does not exist"
			}
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v, want %q", err, want)
			}
		})
	}
}
