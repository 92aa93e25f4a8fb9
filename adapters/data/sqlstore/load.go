package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// LoadOptions tune Load.
type LoadOptions struct {
	// Replace drops an existing table of the same name first; without it an existing table
	// is an error.
	Replace bool
	// BatchSize is the rows per INSERT statement; default 200.
	BatchSize int
}

// ErrTableExists is returned by Load when the table exists and Replace is not set.
var ErrTableExists = errors.New("table exists")

// Load creates a table with the given fields (typed columns) and inserts the rows in one
// transaction with batched, parameterized INSERTs: either every row is loaded or none is.
// Rows hold values in field order, typed as data.ConvertCSV returns them.
func Load(ctx context.Context, dsn, table string, fields []data.Field, rows [][]any, opts LoadOptions) error {
	if !data.ValidIdent(table) {
		return fmt.Errorf("sqlstore: table name %q must be a plain identifier", table)
	}
	for _, f := range fields {
		if !data.ValidIdent(f.Column) {
			return fmt.Errorf("sqlstore: column name %q must be a plain identifier", f.Column)
		}
	}
	db, d, err := openDB(dsn, false)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit this is a no-op
	if err := createTable(ctx, tx, d, table, fields, opts.Replace); err != nil {
		return err
	}
	if err := insertRows(ctx, tx, d, table, fields, rows, opts.BatchSize); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: commit: %w", err)
	}
	return nil
}

func createTable(ctx context.Context, tx *sql.Tx, d dialect, table string, fields []data.Field, replace bool) error {
	exists, err := tableExists(ctx, tx, d, table)
	if err != nil {
		return err
	}
	if exists && !replace {
		return fmt.Errorf("sqlstore: %w: %s (use replace to drop it first)", ErrTableExists, table)
	}
	if exists {
		if _, err := tx.ExecContext(ctx, "DROP TABLE "+d.quote(table)); err != nil {
			return fmt.Errorf("sqlstore: drop %s: %w", table, err)
		}
	}
	cols := make([]string, len(fields))
	for i, f := range fields {
		cols[i] = d.quote(f.Column) + " " + d.columnType(string(f.Type))
	}
	ddl := "CREATE TABLE " + d.quote(table) + " (" + strings.Join(cols, ", ") + ")"
	if _, err := tx.ExecContext(ctx, ddl); err != nil {
		return fmt.Errorf("sqlstore: create %s: %w", table, err)
	}
	return nil
}

func tableExists(ctx context.Context, tx *sql.Tx, d dialect, table string) (bool, error) {
	q := "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1"
	if d.kind == Postgres {
		q = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
	}
	var n int
	if err := tx.QueryRowContext(ctx, q, table).Scan(&n); err != nil {
		return false, fmt.Errorf("sqlstore: checking for table %s: %w", table, err)
	}
	return n > 0, nil
}

func insertRows(ctx context.Context, tx *sql.Tx, d dialect, table string, fields []data.Field, rows [][]any, batch int) error {
	if batch <= 0 {
		batch = 200
	}
	batch = max(1, min(batch, 30000/len(fields))) // stay under both engines' parameter limits
	cols := make([]string, len(fields))
	for i, f := range fields {
		cols[i] = d.quote(f.Column)
	}
	head := "INSERT INTO " + d.quote(table) + " (" + strings.Join(cols, ", ") + ") VALUES "
	for start := 0; start < len(rows); start += batch {
		chunk := rows[start:min(start+batch, len(rows))]
		var sb strings.Builder
		args := make([]any, 0, len(chunk)*len(fields))
		sb.WriteString(head)
		for r, row := range chunk {
			if r > 0 {
				sb.WriteString(", ")
			}
			sb.WriteByte('(')
			for c, v := range row {
				if c > 0 {
					sb.WriteString(", ")
				}
				args = append(args, v)
				ph := d.ph(len(args))
				if fields[c].Type == data.TypeDate {
					ph = d.dateParam(ph)
				}
				sb.WriteString(ph)
			}
			sb.WriteByte(')')
		}
		if _, err := tx.ExecContext(ctx, sb.String(), args...); err != nil {
			return fmt.Errorf("sqlstore: insert rows %d-%d: %w", start+1, start+len(chunk), err)
		}
	}
	return nil
}
