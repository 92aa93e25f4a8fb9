// Package source wires a dataset schema to its backend from configuration, so that the
// gateway and the CLI open data sources in one call and run queries in another.
package source

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/httpstore"
	"github.com/weirgw/weir/adapters/data/sqlstore"
)

// Config is one data source in a Weir config file.
type Config struct {
	// Schema is the dataset schema YAML file (see adapters/data/README.md).
	Schema string `yaml:"schema" json:"schema"`
	// DSN is a SQL database URL: sqlite:///abs.db, sqlite:rel.db or postgres://...
	// Exactly one of DSN and HTTP is set.
	DSN string `yaml:"dsn" json:"dsn"`
	// HTTP is a REST JSON data service.
	HTTP *httpstore.Config `yaml:"http" json:"http"`
	// Timeout bounds each query; default 5s.
	Timeout time.Duration `yaml:"timeout" json:"timeout"`
	// MaxRows caps every result (SQL backends); default 1000.
	MaxRows int `yaml:"max_rows" json:"max_rows"`
}

// Source is an open data source: the compiled dataset and its backend.
type Source struct {
	Dataset *data.Dataset
	Backend data.Backend
}

// Open compiles the schema and opens the backend. The backend is checked: a SQL database
// must answer and hold the schema's table with every declared column.
func Open(ctx context.Context, cfg Config) (*Source, error) {
	if (cfg.DSN == "") == (cfg.HTTP == nil) {
		return nil, errors.New("data source: set exactly one of dsn and http")
	}
	s, err := data.LoadSchema(cfg.Schema)
	if err != nil {
		return nil, err
	}
	ds, err := data.Compile(s)
	if err != nil {
		return nil, err
	}
	var b data.Backend
	if cfg.DSN != "" {
		var st *sqlstore.Store
		if st, err = sqlstore.Open(ctx, os.ExpandEnv(cfg.DSN), sqlstore.Options{Timeout: cfg.Timeout, MaxRows: cfg.MaxRows}); err == nil {
			if err = st.CheckSchema(ctx, ds.Schema()); err != nil {
				_ = st.Close()
			}
		}
		b = st
	} else {
		h := *cfg.HTTP
		if h.Timeout == 0 {
			h.Timeout = cfg.Timeout
		}
		b, err = httpstore.New(h, ds, &http.Client{})
	}
	if err != nil {
		return nil, fmt.Errorf("data source %s: %w", ds.Schema().Name, err)
	}
	return &Source{Dataset: ds, Backend: b}, nil
}

// Query parses, validates and runs a JSON query (a query_data tool call's arguments).
// Errors for which data.IsInvalidQuery is true go back to the model; others are system errors.
func (s *Source) Query(ctx context.Context, raw []byte) (*data.Result, error) {
	q, err := data.ParseQuery(raw)
	if err != nil {
		return nil, err
	}
	return s.Run(ctx, q)
}

// Run validates and runs a query built in Go (e.g. from extracted filters).
func (s *Source) Run(ctx context.Context, q *data.Query) (*data.Result, error) {
	p, err := s.Dataset.Plan(q)
	if err != nil {
		return nil, err
	}
	return s.Backend.Run(ctx, p)
}

// Close closes the backend.
func (s *Source) Close() error { return s.Backend.Close() }
