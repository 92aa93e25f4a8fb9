package gateway

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/sqlstore"
)

// loadCSVToPostgres loads an example's orders.csv into dsn as weir data load does and
// returns the row count.
func loadCSVToPostgres(t *testing.T, dsn, dir string) int {
	t.Helper()
	s, err := data.LoadSchema(filepath.Join(dir, "schema.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	rows, bad, err := data.ReadCSVFile(filepath.Join(dir, "orders.csv"), ds.Schema().Fields)
	if err != nil || len(bad) > 0 {
		t.Fatalf("%v %v", err, bad)
	}
	if err := sqlstore.Load(context.Background(), dsn, ds.Schema().Table, ds.Schema().Fields, rows, sqlstore.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	return len(rows)
}
