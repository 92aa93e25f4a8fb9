package sqlstore

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/weirgw/weir/adapters/data"
)

// CheckSchema checks, once when a source is opened, that the table of a dataset exists and
// has every column the schema declares. SQLite would otherwise read a missing column's
// double-quoted name as a string literal and return the name as every row's value.
func (s *Store) CheckSchema(ctx context.Context, schema *data.Schema) error {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	q := `SELECT name FROM pragma_table_info(?1)`
	if s.d.kind == Postgres {
		q = `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = ANY(current_schemas(false))`
	}
	rows, err := s.db.QueryContext(ctx, q, schema.Table)
	if err != nil {
		return fmt.Errorf("sqlstore: reading the columns of %s: %w", schema.Table, err)
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return fmt.Errorf("sqlstore: reading the columns of %s: %w", schema.Table, err)
		}
		have[strings.ToLower(name)] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sqlstore: reading the columns of %s: %w", schema.Table, err)
	}
	if len(have) == 0 {
		return fmt.Errorf("sqlstore: table %s does not exist in the %s database", schema.Table, s.d.kind)
	}
	var missing []string
	for _, f := range schema.Fields {
		if !have[strings.ToLower(f.Column)] {
			missing = append(missing, f.Column)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("sqlstore: table %s has no column %s that the schema %s declares", schema.Table, strings.Join(missing, ", "), schema.File)
	}
	return nil
}
