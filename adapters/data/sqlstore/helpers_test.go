package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/demo"
	"github.com/weirgw/weir/adapters/data/sqlstore/pgtest"
)

// backend is a database the corpus runs against.
type backend struct {
	name string
	dsn  string
}

// backends returns SQLite (always) and PostgreSQL when WEIR_TEST_POSTGRES_DSN is set and
// answers. Each PostgreSQL test gets its own schema, dropped at cleanup.
func backends(t *testing.T) []backend {
	t.Helper()
	bs := []backend{{"sqlite", "sqlite://" + filepath.Join(t.TempDir(), "test.db")}}
	if pg := pgtest.DSN(t); pg != "" {
		bs = append(bs, backend{"postgres", pg})
	}
	return bs
}

// analyticsDataset compiles the shipped analytics schema.
func analyticsDataset(t testing.TB) *data.Dataset {
	t.Helper()
	s, err := data.LoadSchema("../../../examples/analytics/data/schema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// loadAnalytics writes the demo dataset (rows lines) and opens a read-only store on it.
func loadAnalytics(t testing.TB, dsn string, rows int) *Store {
	t.Helper()
	ctx := context.Background()
	if err := Load(ctx, dsn, "orders", demo.AnalyticsFields(), demo.Analytics(rows, demo.DefaultSeed), LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// run parses, plans and runs a JSON query.
func run(t testing.TB, st *Store, ds *data.Dataset, q string) (*data.Result, error) {
	t.Helper()
	query, err := data.ParseQuery([]byte(q))
	if err != nil {
		return nil, err
	}
	p, err := ds.Plan(query)
	if err != nil {
		return nil, err
	}
	return st.Run(context.Background(), p)
}

func mustRun(t testing.TB, st *Store, ds *data.Dataset, q string) *data.Result {
	t.Helper()
	res, err := run(t, st, ds, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return res
}
