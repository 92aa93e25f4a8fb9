// Package pgtest gives tests a private PostgreSQL schema on the server that
// WEIR_TEST_POSTGRES_DSN names (.ci/run sets it when 127.0.0.1:5432 answers), so that
// packages testing against a real PostgreSQL share one definition of "skip when absent".
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the pgx database/sql driver
)

// EnvDSN is the variable naming the test server.
const EnvDSN = "WEIR_TEST_POSTGRES_DSN"

var warned sync.Once

// DSN returns the test server's URL with a fresh schema as its search_path, dropped when
// the test ends, or "" (with a log line, once per package) when the variable is unset or
// the server does not answer.
func DSN(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvDSN)
	if base == "" {
		warned.Do(func() { t.Logf("%s is not set: PostgreSQL cases skipped", EnvDSN) })
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
		if db, err := sql.Open("pgx", base); err == nil {
			_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvDSN, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
