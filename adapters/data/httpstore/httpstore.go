// Package httpstore runs data plans against an existing REST data service that answers
// GET requests with JSON. Filters are mapped to query parameters by templates in the
// config; rows are read from a JSON path of the response. The service filters what the
// templates pass on; Weir then applies every filter of the plan itself, and computes
// aggregations, order and limit in memory (data.Eval), so a service that ignores a parameter
// cannot widen a result.
package httpstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// Config describes a REST data service.
type Config struct {
	// URL is the endpoint, e.g. https://api.example.com/v1/transactions.
	URL string `yaml:"url" json:"url"`
	// Params maps query parameter names to templates: {{field}} is the value of an equals
	// (or, comma-joined, in) filter on field; {{field.operator}} the value of a filter with
	// that operator (between: low,high; {{field.between.0}} and {{field.between.1}} the
	// bounds); {{limit}} the plan's limit. A parameter whose placeholders have no value is
	// not sent. Only exact-strategy filters of a query without OR are passed on.
	Params map[string]string `yaml:"params" json:"params"`
	// Headers are sent with every request (e.g. an API key).
	Headers map[string]string `yaml:"headers" json:"headers"`
	// Rows is the dot path of the rows array in the response, e.g. data.items; empty means
	// the response is the array.
	Rows string `yaml:"rows" json:"rows"`
	// Timeout bounds each request; default 5s.
	Timeout time.Duration `yaml:"timeout" json:"timeout"`
	// MaxBytes caps the response body; default 4 MiB. A larger response is an error.
	MaxBytes int64 `yaml:"max_bytes" json:"max_bytes"`
}

// Store is an HTTP JSON data backend. It is safe for concurrent use.
type Store struct {
	cfg    Config
	client *http.Client
	params []param
}

var _ data.Backend = (*Store)(nil)

// param is a compiled parameter template.
type param struct {
	name  string
	tmpl  string
	holes []hole
}

// hole is one {{...}} placeholder.
type hole struct {
	text, field, op string
	index           int // -1, or the between bound
}

var holeRE = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z]+))?(?:\.([01]))?\s*\}\}`)

// New validates a config against the dataset it serves and returns a store.
func New(cfg Config, ds *data.Dataset, client *http.Client) (*Store, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("httpstore: url %q must be an absolute http(s) URL", cfg.URL)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = 4 << 20
	}
	if client == nil {
		client = &http.Client{}
	}
	s := &Store{cfg: cfg, client: client}
	for _, name := range sortedKeys(cfg.Params) {
		p, err := compileParam(name, cfg.Params[name], ds)
		if err != nil {
			return nil, err
		}
		s.params = append(s.params, p)
	}
	return s, nil
}

func compileParam(name, tmpl string, ds *data.Dataset) (param, error) {
	p := param{name: name, tmpl: tmpl}
	for _, m := range holeRE.FindAllStringSubmatch(tmpl, -1) {
		h := hole{text: m[0], field: m[1], op: m[2], index: -1}
		if m[3] != "" {
			h.index, _ = strconv.Atoi(m[3])
		}
		if h.field == "limit" && h.op == "" {
			p.holes = append(p.holes, h)
			continue
		}
		if _, ok := ds.Schema().Field(h.field); !ok {
			return p, fmt.Errorf("httpstore: param %s: %s is not a field of %s", name, h.field, ds.Schema().Name)
		}
		if h.op != "" && !contains(data.Operators, h.op) {
			return p, fmt.Errorf("httpstore: param %s: %s is not an operator", name, h.op)
		}
		p.holes = append(p.holes, h)
	}
	if len(p.holes) == 0 || strings.Count(tmpl, "{{") != len(p.holes) {
		return p, fmt.Errorf("httpstore: param %s: template %q needs {{field}}, {{field.operator}} or {{limit}} placeholders", name, tmpl)
	}
	return p, nil
}

// Close does nothing; the HTTP client is shared.
func (s *Store) Close() error { return nil }

// Run fetches the rows the templates select, then evaluates the whole plan over them.
func (s *Store) Run(ctx context.Context, p *data.Plan) (*data.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.requestURL(p), nil)
	if err != nil {
		return nil, fmt.Errorf("httpstore: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	for k, v := range s.cfg.Headers {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("httpstore: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("httpstore: %s answered %s", req.URL.Redacted(), resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.cfg.MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("httpstore: reading response: %w", err)
	}
	if int64(len(body)) > s.cfg.MaxBytes {
		return nil, fmt.Errorf("httpstore: response larger than %d bytes", s.cfg.MaxBytes)
	}
	rows, err := s.decodeRows(body, p.Dataset.Schema().Fields)
	if err != nil {
		return nil, err
	}
	return data.Eval(p, rows), nil
}

// requestURL renders the parameters whose placeholders all have values.
func (s *Store) requestURL(p *data.Plan) string {
	u, _ := url.Parse(s.cfg.URL)
	q := u.Query()
	for _, prm := range s.params {
		if v, ok := render(prm, p); ok {
			q.Set(prm.name, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func render(prm param, p *data.Plan) (string, bool) {
	out := prm.tmpl
	for _, h := range prm.holes {
		v, ok := holeValue(h, p)
		if !ok {
			return "", false
		}
		out = strings.Replace(out, h.text, v, 1)
	}
	return out, true
}

// holeValue finds the value of a placeholder among the plan's exact filters. Filters joined
// by OR are never passed on: the service could not combine them correctly; nor are filters
// on a part of a date (the weekday), which the service would read as the date itself.
func holeValue(h hole, p *data.Plan) (string, bool) {
	if h.field == "limit" && h.op == "" {
		return strconv.Itoa(p.Limit), true
	}
	if len(p.Where) != 1 {
		return "", false
	}
	for _, pr := range p.Where[0] {
		if pr.Field.Name != h.field || pr.Strategy != data.MatchExact || pr.Not || pr.Part != "" {
			continue
		}
		switch {
		case h.op == "" && (pr.Op == data.OpEquals || pr.Op == data.OpIn), h.op == pr.Op && h.index < 0:
			return joinValues(pr.Values), true
		case h.op == pr.Op && pr.Op == data.OpBetween:
			return format(pr.Values[h.index]), true
		}
	}
	return "", false
}

func joinValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = format(v)
	}
	return strings.Join(parts, ",")
}

func format(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return fmt.Sprint(v)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

var errShape = errors.New("httpstore: unexpected response shape")

var _ data.Explainer = (*Store)(nil)

// Explain describes the request Run sends for a plan; filters, aggregations, order and
// limit are then applied by Weir in memory.
func (s *Store) Explain(p *data.Plan) (string, []any) {
	return "GET " + s.requestURL(p) + " — then every filter, aggregation, order and limit applied in Weir (data.Eval)", nil
}
