package gateway

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
	"github.com/weirgw/weir/adapters/data/sqlstore"
)

// testPostgresDSN returns WEIR_TEST_POSTGRES_DSN with a fresh schema as its search path
// (dropped after the test), or "" when it is unset or does not answer.
func testPostgresDSN(t *testing.T) string {
	t.Helper()
	base := os.Getenv("WEIR_TEST_POSTGRES_DSN")
	if base == "" {
		return ""
	}
	db, err := sql.Open("pgx", base)
	if err != nil {
		return ""
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if db.PingContext(ctx) != nil {
		return ""
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "weir_gw_test_" + hex.EncodeToString(b)
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", base); err == nil {
			_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("WEIR_TEST_POSTGRES_DSN: %v", err)
	}
	qv := u.Query()
	qv.Set("search_path", schema)
	u.RawQuery = qv.Encode()
	return u.String()
}

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
	f, err := os.Open(filepath.Join(dir, "orders.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := data.ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	rows, bad, err := data.ConvertCSV(c, ds.Schema().Fields)
	if err != nil || len(bad) > 0 {
		t.Fatalf("%v %v", err, bad)
	}
	if err := sqlstore.Load(context.Background(), dsn, ds.Schema().Table, ds.Schema().Fields, rows, sqlstore.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	return len(rows)
}
