package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/weirgw/weir/adapters/data"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Options tune a Store. Zero values take the defaults.
type Options struct {
	// Timeout bounds each query (context deadline, and statement_timeout on PostgreSQL).
	// Default 5s.
	Timeout time.Duration
	// MaxRows caps the rows of every result, below each dataset's own cap. Default 1000.
	MaxRows int
	// MaxFuzzyValues caps the distinct values PostgreSQL fuzzy matching compares in Go; a
	// column with more is an error that suggests another strategy. Default 20000.
	MaxFuzzyValues int
	// MaxOpenConns caps the pool. Default 8.
	MaxOpenConns int
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 1000
	}
	if o.MaxFuzzyValues <= 0 {
		o.MaxFuzzyValues = 20000
	}
	if o.MaxOpenConns <= 0 {
		o.MaxOpenConns = 8
	}
	return o
}

// Store is a read-only SQL data backend. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	d    dialect
	opts Options
}

var _ data.Backend = (*Store)(nil)

// Open opens a read-only store and checks that the database answers. A SQLite file must
// exist (read-only mode never creates one).
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	db, d, err := openDB(dsn, true)
	if err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	db.SetMaxOpenConns(opts.MaxOpenConns)
	db.SetMaxIdleConns(opts.MaxOpenConns)
	pctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: %s: %w", d.kind, err)
	}
	return &Store{db: db, d: d, opts: opts}, nil
}

// openDB opens a database/sql handle for a DSN, read-only or read-write.
func openDB(dsn string, readOnly bool) (*sql.DB, dialect, error) {
	p, err := ParseDSN(dsn)
	if err != nil {
		return nil, dialect{}, err
	}
	d := dialect{kind: p.Kind}
	var db *sql.DB
	if p.Kind == SQLite {
		if err := registerFunctions(); err != nil {
			return nil, d, fmt.Errorf("sqlstore: registering SQLite functions: %w", err)
		}
		db, err = sql.Open("sqlite", sqliteURI(p.Path, readOnly))
	} else {
		db, err = sql.Open("pgx", p.URL)
	}
	if err != nil {
		return nil, d, fmt.Errorf("sqlstore: %w", err)
	}
	return db, d, nil
}

// Close closes the pool.
func (s *Store) Close() error { return s.db.Close() }

// Kind returns the store's engine.
func (s *Store) Kind() Kind { return s.d.kind }

// Run executes a plan in a read-only transaction with the store's timeout.
func (s *Store) Run(ctx context.Context, p *data.Plan) (*data.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, readOnlyTx)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only: nothing to keep
	if s.d.kind == Postgres {
		ms := strconv.FormatInt(s.opts.Timeout.Milliseconds(), 10)
		if _, err := tx.ExecContext(ctx, "SELECT set_config('statement_timeout', $1, true)", ms); err != nil {
			return nil, fmt.Errorf("sqlstore: statement_timeout: %w", err)
		}
	}
	var fuzzy map[*data.Pred][]string
	if s.d.kind == Postgres {
		if fuzzy, err = s.fuzzyMatches(ctx, tx, p); err != nil {
			return nil, err
		}
	}
	limit := min(p.Limit, s.opts.MaxRows)
	res, err := s.query(ctx, tx, p, (&builder{d: s.d, fuzzy: fuzzy}).build(p, limit))
	if err == nil && len(p.Aggs) == 0 && (len(res.Rows) == limit || p.Offset > 0) {
		st := (&builder{d: s.d, fuzzy: fuzzy}).buildCount(p)
		err = tx.QueryRowContext(ctx, st.sql, st.args...).Scan(&res.Total)
		res.Truncated = res.Total > int64(len(res.Rows))
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, fmt.Errorf("sqlstore: query exceeded %v: %w", s.opts.Timeout, err)
		}
		return nil, fmt.Errorf("sqlstore: query: %w", err)
	}
	res.Warnings = append(res.Warnings, p.Warnings...)
	if p.Limit > s.opts.MaxRows {
		res.Warnings = append(res.Warnings, fmt.Sprintf("at most %d rows are returned by this backend", s.opts.MaxRows))
	}
	data.RoundMetrics(p, res)
	return res, nil
}

func (s *Store) query(ctx context.Context, tx *sql.Tx, p *data.Plan, st stmt) (*data.Result, error) {
	rows, err := tx.QueryContext(ctx, st.sql, st.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := p.Columns()
	kinds := columnKinds(p)
	res := &data.Result{Columns: cols, Rows: []data.Row{}}
	extra := 0
	if len(p.Aggs) > 0 {
		extra = 1 // the group count
	}
	for rows.Next() {
		vals := make([]any, len(cols)+extra)
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i := range cols {
			vals[i] = normalize(vals[i], kinds[i])
		}
		if extra > 0 {
			res.Total, _ = vals[len(cols)].(int64)
		}
		res.Rows = append(res.Rows, data.NewRow(cols, vals[:len(cols)]))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if extra == 0 {
		res.Total = int64(len(res.Rows))
	}
	res.Truncated = res.Total > int64(len(res.Rows))
	return res, nil
}

// fuzzyMatches computes, for each fuzzy predicate, the column's values within the threshold,
// by reading the column's distinct values (at most MaxFuzzyValues) and comparing them in Go.
func (s *Store) fuzzyMatches(ctx context.Context, tx *sql.Tx, p *data.Plan) (map[*data.Pred][]string, error) {
	out := map[*data.Pred][]string{}
	table := s.d.quote(p.Dataset.Schema().Table)
	for gi := range p.Where {
		for pi := range p.Where[gi] {
			pr := &p.Where[gi][pi]
			if pr.Strategy != data.MatchFuzzy {
				continue
			}
			col := s.d.quote(pr.Field.Column)
			q := "SELECT DISTINCT " + col + " FROM " + table + " WHERE " + col + " IS NOT NULL LIMIT $1"
			rows, err := tx.QueryContext(ctx, q, s.opts.MaxFuzzyValues+1)
			if err != nil {
				return nil, fmt.Errorf("sqlstore: fuzzy candidates: %w", err)
			}
			var vals []string
			for rows.Next() {
				var v string
				if err := rows.Scan(&v); err != nil {
					rows.Close()
					return nil, fmt.Errorf("sqlstore: fuzzy candidates: %w", err)
				}
				vals = append(vals, v)
			}
			rows.Close()
			if len(vals) > s.opts.MaxFuzzyValues {
				return nil, &data.QueryError{Problems: []data.Problem{{
					Path:    "filters",
					Message: fmt.Sprintf("field %s has more than %d distinct values, too many for fuzzy matching; use matchStrategy normalized", pr.Field.Name, s.opts.MaxFuzzyValues),
				}}}
			}
			out[pr] = fuzzyFilter(pr, vals)
		}
	}
	return out, nil
}

func fuzzyFilter(pr *data.Pred, vals []string) []string {
	op := pr.Op
	if op == data.OpIn {
		op = data.OpEquals
	}
	var keep []string
	for _, v := range vals {
		f := data.Fold(v)
		for _, needle := range pr.Folded {
			if data.FuzzyMatch(op, f, needle, pr.Threshold) {
				keep = append(keep, v)
				break
			}
		}
	}
	return keep
}

// readOnlyTx are the options of every query transaction.
var readOnlyTx = &sql.TxOptions{ReadOnly: true}
