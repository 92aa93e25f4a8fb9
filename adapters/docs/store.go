package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/weirgw/weir/adapters/data/sqlstore"
)

// store is where an index lives: embedded SQLite FTS5 or PostgreSQL full-text search.
type store interface {
	// sync makes the source's passages those of build when its recorded fingerprint
	// differs from fp, in one transaction, and reports whether it rebuilt them.
	sync(ctx context.Context, source, fp string, build func() ([]chunk, error)) (bool, error)
	// search returns the source's best passages for t, best first, Snippet unset.
	search(ctx context.Context, source string, t terms, limit int) ([]Passage, error)
	// counts returns the passages and the highest page of every file of the source.
	counts(ctx context.Context, source string) (map[string][2]int, error)
	close() error
}

// openStore opens the store a DSN names; without one, a private SQLite file in a new
// temporary directory, removed by the returned cleanup.
func openStore(ctx context.Context, dsn string) (store, func(), error) {
	if dsn == "" {
		dir, err := os.MkdirTemp("", "weir-docs-")
		if err != nil {
			return nil, nil, err
		}
		cleanup := func() { _ = os.RemoveAll(dir) }
		st, err := openSQLite(ctx, filepath.Join(dir, "docs.db"))
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		return st, cleanup, nil
	}
	p, err := sqlstore.ParseDSN(dsn)
	if err != nil {
		return nil, nil, err
	}
	var st store
	switch p.Kind {
	case sqlstore.SQLite:
		st, err = openSQLite(ctx, p.Path)
	case sqlstore.Postgres:
		st, err = openPostgres(ctx, p.URL)
	default:
		err = fmt.Errorf("unsupported DSN kind %q", p.Kind)
	}
	return st, func() {}, err
}
