package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/demo"
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
	if pg := postgresDSN(t); pg != "" {
		bs = append(bs, backend{"postgres", pg})
	}
	return bs
}

var pgWarned bool

func postgresDSN(t *testing.T) string {
	t.Helper()
	base := os.Getenv("WEIR_TEST_POSTGRES_DSN")
	if base == "" {
		if !pgWarned {
			t.Log("WEIR_TEST_POSTGRES_DSN is not set: PostgreSQL cases skipped")
			pgWarned = true
		}
		return ""
	}
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Logf("PostgreSQL cases skipped: %v", err)
		return ""
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		t.Logf("PostgreSQL cases skipped: %s does not answer: %v", base, err)
		return ""
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "weir_test_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("pgx", base)
		if err == nil {
			_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("WEIR_TEST_POSTGRES_DSN: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
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
