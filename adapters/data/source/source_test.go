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
