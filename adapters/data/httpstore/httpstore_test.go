package httpstore

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// tradeService serves the trade example's transactions like a REST API would: it filters
// by country and min_value itself (unless lax), and wraps rows in {"data":{"items":[...]}}.
type tradeService struct {
	mu    sync.Mutex
	urls  []string
	items []map[string]any
	lax   bool
	delay time.Duration
}

func newTradeService(t *testing.T) *tradeService {
	f, err := os.Open("../../../examples/trade/data/transactions.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := data.ReadCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	svc := &tradeService{}
	for _, r := range c.Records {
		item := map[string]any{}
		for i, h := range c.Header {
			if n, err := strconv.ParseFloat(r.Values[i], 64); err == nil && h != "declarationNumber" {
				item[h] = n
			} else {
				item[h] = r.Values[i]
			}
		}
		svc.items = append(svc.items, item)
	}
	return svc
}

func (s *tradeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.urls = append(s.urls, r.URL.RawQuery)
	s.mu.Unlock()
	time.Sleep(s.delay)
	q := r.URL.Query()
	var out []map[string]any
	for _, it := range s.items {
		if c := q.Get("country"); c != "" && !s.lax && !contains(strings.Split(c, ","), it["importCountry"].(string)) {
			continue
		}
		if m := q.Get("min_value"); m != "" && !s.lax {
			if v, _ := strconv.ParseFloat(m, 64); it["totalValueUSD"].(float64) <= v {
				continue
			}
		}
		out = append(out, it)
	}
	json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"items": out, "total": len(out)}})
}

func (s *tradeService) lastURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.urls[len(s.urls)-1]
}

func tradeDataset(t *testing.T) *data.Dataset {
	s, err := data.LoadSchema("../../../examples/trade/data/schema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func newStore(t *testing.T, svc *tradeService, mod func(*Config)) (*Store, *data.Dataset) {
	srv := httptest.NewServer(svc)
	t.Cleanup(srv.Close)
	cfg := Config{URL: srv.URL + "/v1/transactions?api=1", Rows: "data.items",
		Params:  map[string]string{"country": "{{importCountry}}", "min_value": "{{totalValueUSD.greaterThan}}", "limit": "{{limit}}"},
		Headers: map[string]string{"X-Api-Key": "k"}}
	if mod != nil {
		mod(&cfg)
	}
	ds := tradeDataset(t)
	st, err := New(cfg, ds, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return st, ds
}

func runQuery(t *testing.T, st *Store, ds *data.Dataset, q string) (*data.Result, error) {
	query, err := data.ParseQuery([]byte(q))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ds.Plan(query)
	if err != nil {
		t.Fatal(err)
	}
	return st.Run(context.Background(), p)
}

// expected counts the service's items that satisfy a Go predicate.
func expected(svc *tradeService, pred func(map[string]any) bool) int64 {
	var n int64
	for _, it := range svc.items {
		if pred(it) {
			n++
		}
	}
	return n
}

func TestParamsAndFiltering(t *testing.T) {
	for _, lax := range []bool{false, true} {
		svc := newTradeService(t)
		svc.lax = lax // a service that ignores the parameters must not widen the result
		st, ds := newStore(t, svc, nil)
		res, err := runQuery(t, st, ds, `{"type":"detail","limit":500,"filters":[{"field":"importCountry","operator":"in","value":["China","Vietnam"]},{"field":"totalValueUSD","operator":"greaterThan","value":5000}]}`)
		if err != nil {
			t.Fatal(err)
		}
		if got := svc.lastURL(); got != "api=1&country=China%2CVietnam&limit=500&min_value=5000" {
			t.Errorf("query string = %s", got)
		}
		want := expected(svc, func(it map[string]any) bool {
			c := it["importCountry"]
			return (c == "China" || c == "Vietnam") && it["totalValueUSD"].(float64) > 5000
		})
		if res.Total != want || want == 0 {
			t.Errorf("lax=%v: total %d, want %d", lax, res.Total, want)
		}
	}
}

func TestORAndStrategiesAreNotPassedOn(t *testing.T) {
	svc := newTradeService(t)
	st, ds := newStore(t, svc, nil)
	res, err := runQuery(t, st, ds, `{"type":"aggregation","filters":[{"field":"importCountry","operator":"equals","value":"China","logicalOperator":"OR"},{"field":"importCountry","operator":"equals","value":"japan","matchStrategy":"case-insensitive"}],"aggregations":[{"metric":"total_value","groupBy":"importCountry"},{"operation":"count"}],"orderBy":"importCountry"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := svc.lastURL(); got != "api=1&limit=50" {
		t.Errorf("query string = %s", got)
	}
	if len(res.Rows) != 2 || res.Rows[0].Get("importCountry") != "China" || res.Rows[1].Get("importCountry") != "Japan" {
		t.Errorf("rows = %v", res.Maps())
	}
	want := expected(svc, func(it map[string]any) bool { return it["importCountry"] == "China" })
	if res.Rows[0].Get("count") != want {
		t.Errorf("China count = %v, want %d", res.Rows[0].Get("count"), want)
	}
}

func TestFailures(t *testing.T) {
	q := `{"type":"detail","filters":[]}`
	cases := []struct {
		name string
		mod  func(*Config)
		svc  func(*tradeService)
		want string
	}{
		{"timeout", func(c *Config) { c.Timeout = 20 * time.Millisecond }, func(s *tradeService) { s.delay = 200 * time.Millisecond }, "deadline exceeded"},
		{"too large", func(c *Config) { c.MaxBytes = 1000 }, nil, "larger than 1000 bytes"},
		{"rows path", func(c *Config) { c.Rows = "data.rows" }, nil, `no array at "data.rows"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			svc := newTradeService(t)
			if tc.svc != nil {
				tc.svc(svc)
			}
			st, ds := newStore(t, svc, tc.mod)
			_, err := runQuery(t, st, ds, q)
			if err == nil || data.IsInvalidQuery(err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want a system error with %q", err, tc.want)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusBadGateway) }))
	defer srv.Close()
	ds := tradeDataset(t)
	st, err := New(Config{URL: srv.URL}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runQuery(t, st, ds, `{"type":"detail","filters":[]}`); err == nil || !strings.Contains(err.Error(), "502") {
		t.Errorf("err = %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	ds := tradeDataset(t)
	for _, cfg := range []Config{
		{URL: "ftp://x"},
		{URL: "http://x", Params: map[string]string{"c": "{{country}}"}},
		{URL: "http://x", Params: map[string]string{"c": "{{importCountry.near}}"}},
		{URL: "http://x", Params: map[string]string{"c": "static"}},
	} {
		if _, err := New(cfg, ds, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}

// TestWeekdayIsNotPassedOn checks that a filter on the weekday of a date never fills the
// date's placeholder (the service would read 0,6 as dates), and is applied by Weir.
func TestWeekdayIsNotPassedOn(t *testing.T) {
	svc := newTradeService(t)
	st, ds := newStore(t, svc, func(c *Config) { c.Params["day"] = "{{date}}" })
	res, err := runQuery(t, st, ds, `{"type":"aggregation","filters":[{"field":"date","part":"weekday","operator":"in","value":[0,6]}],"aggregations":[{"operation":"count"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := svc.lastURL(); strings.Contains(got, "day=") {
		t.Errorf("query string = %s", got)
	}
	want := expected(svc, func(it map[string]any) bool {
		d, _ := time.Parse(time.DateOnly, it["date"].(string))
		return d.Weekday() == time.Saturday || d.Weekday() == time.Sunday
	})
	if got := res.Rows[0].Get("count"); got != want || want == 0 {
		t.Errorf("weekend count = %v, want %d", got, want)
	}
}
