package config

import (
	"path/filepath"

	"github.com/weirgw/weir/adapters/data/httpstore"
	"github.com/weirgw/weir/adapters/llm"
)

// SurfaceQuery is the surface on which Weir answers questions itself (POST <path>):
// from data, from a model, from both, or through a bounded agent loop.
const SurfaceQuery = "query"

// DataSource is one entry of `data:`, a dataset the query surface answers from.
//
//	data:
//	  - name: orders
//	    schema: data/schema.yaml                  # the dataset schema (adapters/data/README.md)
//	    dsn: ${WEIR_DATA_DSN:-}                   # sqlite:///abs.db, sqlite:rel.db, postgres://...
//	    csv: data/orders.csv                      # without a dsn: loaded into an embedded SQLite at start
//	    tool: query_data                          # the tool name the agent loop offers for it
//	    tools: {rows: filter_data, metric: execute_metric}  # Weir's own reads, by what they return
//
// How a question becomes a query is the dataset's semantic layer: the `semantic:` section of
// its schema file (adapters/data/semantic).
//
// Exactly one of dsn, http and csv is used: dsn wins over csv when both are set, so a config
// can default to its demo CSV and read a real database from an environment variable.
type DataSource struct {
	// Name identifies the source in route and intent `sources` lists. Required, unique.
	Name string `yaml:"name"`
	// Schema is the dataset schema file, relative to this config. Required.
	Schema string `yaml:"schema"`
	// DSN is a SQL database URL.
	DSN string `yaml:"dsn"`
	// CSV, used when DSN is empty, is a CSV file (relative to this config) loaded into a
	// private embedded SQLite database when the snapshot is built.
	CSV string `yaml:"csv"`
	// HTTP is an existing REST/JSON data service.
	HTTP *httpstore.Config `yaml:"http"`
	// Timeout bounds each query. Default 5s.
	Timeout Duration `yaml:"timeout"`
	// MaxRows caps every result of a SQL backend. Default 1000.
	MaxRows int `yaml:"max_rows"`
	// Tool is the name under which the agent loop offers this source to the model. Default
	// query_data. The tools policy sees calls under this name.
	Tool string `yaml:"tool"`
	// Tools names Weir's own reads of this source by what they return, so that the tools
	// policy can tell a read of raw rows from a metric: every read is a tool call decided
	// before it runs. Each name defaults to Tool.
	Tools ReadTools `yaml:"tools"`
}

// ReadTools are the tool names of the kinds of read Weir makes on a source.
//
//	tools: {rows: filter_data, metric: execute_metric, group: aggregate_group, compare: compare_periods}
type ReadTools struct {
	// Rows names a read of raw rows.
	Rows string `yaml:"rows"`
	// Metric names a read of one or more measures over all matching rows.
	Metric string `yaml:"metric"`
	// Group names a read of measures per group (a breakdown, a ranking).
	Group string `yaml:"group"`
	// Compare names a read of measures in two periods, compared.
	Compare string `yaml:"compare"`
}

// QueryOptions are the settings of a query route.
type QueryOptions struct {
	// Model is the model the route's llm, data+llm and agent intents use. Without it those
	// intents answer from the data alone, with seed 000's "AI analysis unavailable" message.
	Model *llm.Config `yaml:"model"`
	// Sources are the data sources of intents whose route names none. Default: every
	// source, in the order of `data:`.
	Sources []string `yaml:"sources"`
	// KnownAnswers is a JSON-lines or YAML file of known question/answer pairs consulted
	// before anything else (relative to this config).
	KnownAnswers string `yaml:"known_answers"`
	// KnownAnswerMin is the similarity in [0, 1] at which a known answer is returned as
	// the answer. Default 0.8.
	KnownAnswerMin float64 `yaml:"known_answer_min"`
	// MaxResults caps the rows of an answer (a request's options.max_results may lower it).
	// Default 50.
	MaxResults int `yaml:"max_results"`
	// MaxIterations caps the agent loop of intents whose route sets none. Default 20.
	MaxIterations int `yaml:"max_iterations"`
	// Timeout bounds one question end to end. Default 60s.
	Timeout Duration `yaml:"timeout"`
	// SemanticTool, when set, is the name of one more tool of the agent loop: the semantic
	// query over the intent's sources (adapters/data/semantic), whose schema is the layer's —
	// measures, dimensions, joins on entities, comparisons. The policy must allow it like any
	// tool; each read it makes is decided again under the source's own tool names.
	SemanticTool string `yaml:"semantic_tool"`
	// Prompts is a directory (relative to this config) of per-intent instructions for the
	// model: <intent>.md is the system prompt of that intent's answers (seed 002's
	// analytics, strategy, data_preview and conversational prompts). Intents without one get
	// Weir's generic instruction.
	Prompts string `yaml:"prompts"`
}

func (c *Config) queryDefaults() {
	for i := range c.Data {
		d := &c.Data[i]
		def(&d.Tool, "query_data")
		for _, t := range []*string{&d.Tools.Rows, &d.Tools.Metric, &d.Tools.Group, &d.Tools.Compare} {
			def(t, d.Tool)
		}
	}
	for i := range c.Routes {
		r := &c.Routes[i]
		if r.Surface != SurfaceQuery {
			continue
		}
		def(&r.Path, "/v1/query")
		q := &r.QueryOptions
		if q.KnownAnswerMin == 0 {
			q.KnownAnswerMin = 0.8
		}
		if q.MaxResults == 0 {
			q.MaxResults = 50
		}
		if q.MaxIterations == 0 {
			q.MaxIterations = 20
		}
		defDur(&q.Timeout, DefaultTimeout)
	}
}

func (c *Config) resolveData(dir string) {
	abs := func(p *string) {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	for i := range c.Data {
		abs(&c.Data[i].Schema)
		abs(&c.Data[i].CSV)
	}
	for i := range c.Routes {
		abs(&c.Routes[i].QueryOptions.KnownAnswers)
		abs(&c.Routes[i].QueryOptions.Prompts)
	}
}

// validateData checks the data sources and the query routes' references to them.
func (c *Config) validateData(bad func(path, format string, args ...any), env lookupFunc) {
	names := map[string]bool{}
	for i, d := range c.Data {
		p := "data" + index(i)
		switch {
		case d.Name == "":
			bad(p, "data%s.name is required", index(i))
		case names[d.Name]:
			bad(p+".name", "data source %q is defined twice", d.Name)
		}
		names[d.Name] = true
		if d.Schema == "" {
			bad(p, "data source %q: schema (the dataset schema file) is required", d.Name)
		}
		n := 0
		for _, set := range []bool{d.DSN != "" || d.CSV != "", d.HTTP != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			bad(p, "data source %q: set one of dsn (or csv) and http", d.Name)
		}
		if d.Timeout < 0 || d.MaxRows < 0 {
			bad(p, "data source %q: timeout and max_rows must not be negative", d.Name)
		}
	}
	for i, r := range c.Routes {
		if r.Surface != SurfaceQuery {
			if r.QueryOptions.Model != nil || len(r.QueryOptions.Sources) > 0 || r.QueryOptions.KnownAnswers != "" || r.QueryOptions.Prompts != "" {
				bad("routes"+index(i), "route %q: model, sources, known_answers and prompts belong to query routes", r.Name)
			}
			continue
		}
		p := "routes" + index(i)
		if len(c.Data) == 0 && len(c.Documents) == 0 {
			bad(p, "route %q: a query route needs at least one source under data: or documents:", r.Name)
		}
		for j, s := range r.QueryOptions.Sources {
			if !names[s] && !c.isDocumentSource(s) {
				bad(p+".sources"+index(j), "route %q: unknown data source %q", r.Name, s)
			}
		}
		if r.QueryOptions.Model != nil {
			validateLLM(bad, env, p+".model", *r.QueryOptions.Model)
		}
		if r.QueryOptions.KnownAnswerMin < 0 || r.QueryOptions.KnownAnswerMin > 1 {
			bad(p+".known_answer_min", "route %q: known_answer_min must be in [0, 1]", r.Name)
		}
		if r.QueryOptions.MaxResults < 0 || r.QueryOptions.MaxIterations < 0 || r.QueryOptions.Timeout < 0 {
			bad(p, "route %q: max_results, max_iterations and timeout must not be negative", r.Name)
		}
	}
}

func (c *Config) isDocumentSource(name string) bool {
	for _, d := range c.Documents {
		if d.Name == name {
			return true
		}
	}
	return false
}
