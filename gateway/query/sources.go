package query

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/adapters/data/source"
	"github.com/weirgw/weir/adapters/data/sqlstore"
	"github.com/weirgw/weir/gateway/config"
)

// Source is an open data source of the query surface: the dataset, its backend, the tool
// name the agent loop offers it under, and how extracted filters map onto it.
type Source struct {
	Name string
	Tool string
	*source.Source

	cfg     config.DataSource
	stamp   string // the schema and CSV files' size and modification time when opened
	cleanup func()
	// sem is the source in the semantic layer, with the values it read at open.
	sem *semantic.Source
	// warning is what went wrong reading the values, if anything.
	warning string
}

// explain renders what the backend sends for a query (SQL and parameters, or the HTTP
// request), for --explain; "" when the query does not plan.
func (s *Source) explain(q *data.Query) (string, []any) {
	p, err := s.Dataset.Plan(q)
	if err != nil {
		return "", nil
	}
	if x, ok := s.Backend.(data.Explainer); ok {
		return x.Explain(p)
	}
	return "", nil
}

// Config returns the configuration the source was opened with; a reload that keeps it
// unchanged keeps the open source.
func (s *Source) Config() config.DataSource { return s.cfg }

// Close closes the backend and removes an embedded database.
func (s *Source) Close() error {
	err := s.Source.Close()
	if s.cleanup != nil {
		s.cleanup()
	}
	return err
}

// OpenSource opens one configured data source. A source with a csv file and no dsn is
// loaded into a private embedded SQLite database, removed again by Close.
func OpenSource(ctx context.Context, cfg config.DataSource) (*Source, error) {
	sc := source.Config{Schema: cfg.Schema, DSN: cfg.DSN, HTTP: cfg.HTTP, Timeout: time.Duration(cfg.Timeout), MaxRows: cfg.MaxRows}
	var cleanup func()
	if cfg.DSN == "" && cfg.HTTP == nil {
		dsn, rm, err := embedCSV(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("data source %s: %w", cfg.Name, err)
		}
		sc.DSN, cleanup = dsn, rm
	}
	src, err := source.Open(ctx, sc)
	if err != nil {
		if cleanup != nil {
			cleanup()
		}
		return nil, fmt.Errorf("data source %s: %w", cfg.Name, err)
	}
	s := &Source{Name: cfg.Name, Tool: cfg.Tool, Source: src, cfg: cfg, stamp: stamp(cfg), cleanup: cleanup}
	if err := openSemantic(ctx, s); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("data source %s: %w", cfg.Name, err)
	}
	return s, nil
}

// stamp identifies the versions of the files a source was built from.
func stamp(cfg config.DataSource) string {
	var b strings.Builder
	for _, p := range []string{cfg.Schema, cfg.CSV} {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, "%s:%d:%d;", p, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// embedCSV loads cfg.CSV into a new SQLite file in a private temporary directory and
// returns its DSN. Every row must convert: a demo dataset with bad rows is a config error,
// reported with the CSV's line numbers.
func embedCSV(ctx context.Context, cfg config.DataSource) (string, func(), error) {
	schema, err := data.LoadSchema(cfg.Schema)
	if err != nil {
		return "", nil, err
	}
	ds, err := data.Compile(schema)
	if err != nil {
		return "", nil, err
	}
	fields := ds.Schema().Fields
	rows, bad, err := data.ReadCSVFile(cfg.CSV, fields)
	if err != nil {
		return "", nil, err
	}
	if len(bad) > 0 {
		msgs := make([]string, 0, 5)
		for i, b := range bad {
			if i == 5 {
				msgs = append(msgs, fmt.Sprintf("and %d more", len(bad)-5))
				break
			}
			msgs = append(msgs, b.String())
		}
		return "", nil, fmt.Errorf("%s: %d bad rows: %s", cfg.CSV, len(bad), strings.Join(msgs, "; "))
	}
	dir, err := os.MkdirTemp("", "weir-data-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	dsn := "sqlite://" + filepath.ToSlash(filepath.Join(dir, cfg.Name+".db"))
	if !strings.HasPrefix(dsn, "sqlite:///") {
		dsn = "sqlite:///" + strings.TrimPrefix(dsn, "sqlite://")
	}
	if err := sqlstore.Load(ctx, dsn, ds.Schema().Table, fields, rows, sqlstore.LoadOptions{}); err != nil {
		cleanup()
		return "", nil, err
	}
	return dsn, cleanup, nil
}

// OpenSources opens every configured source. prev lends open sources whose configuration
// did not change (a reload keeps warm connections and does not reload embedded data).
// On error, the sources opened here are closed again.
func OpenSources(ctx context.Context, cfgs []config.DataSource, prev map[string]*Source) (map[string]*Source, error) {
	out := map[string]*Source{}
	var errs []error
	for _, c := range cfgs {
		if p := prev[c.Name]; p != nil && sameSource(p.cfg, c) && p.stamp == stamp(c) {
			out[c.Name] = p
			continue
		}
		s, err := OpenSource(ctx, c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[c.Name] = s
	}
	if len(errs) > 0 {
		for name, s := range out {
			if prev[name] != s {
				_ = s.Close()
			}
		}
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func sameSource(a, b config.DataSource) bool {
	if a.Name != b.Name || a.Schema != b.Schema || a.DSN != b.DSN || a.CSV != b.CSV || a.Timeout != b.Timeout ||
		a.MaxRows != b.MaxRows || a.Tool != b.Tool || a.Tools != b.Tools || (a.HTTP == nil) != (b.HTTP == nil) {
		return false
	}
	return a.HTTP == nil || fmt.Sprintf("%+v", *a.HTTP) == fmt.Sprintf("%+v", *b.HTTP)
}
