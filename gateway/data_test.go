package gateway

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

// dataAPI is a scripted data API that records what Weir forwarded.
type dataAPI struct {
	mu                          sync.Mutex
	path, intent, filters, body string
	calls                       int
}

// seen returns what the API received last, under its lock.
func (d *dataAPI) seen() dataAPI {
	d.mu.Lock()
	defer d.mu.Unlock()
	return dataAPI{path: d.path, intent: d.intent, filters: d.filters, body: d.body, calls: d.calls}
}

func startDataAPI(t *testing.T) (*dataAPI, string) {
	d := &dataAPI{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &fasthttp.Server{Handler: func(rc *fasthttp.RequestCtx) {
		d.mu.Lock()
		d.calls++
		d.path = string(rc.RequestURI())
		d.intent = string(rc.Request.Header.Peek("X-Weir-Intent"))
		d.filters = string(rc.Request.Header.Peek("X-Weir-Filters"))
		d.body = string(rc.PostBody())
		d.mu.Unlock()
		rc.SetContentType("application/json")
		rc.SetBodyString(`{"rows":[]}`)
	}}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Shutdown() })
	return d, "http://" + ln.Addr().String() + "/api"
}

func startDataGateway(t *testing.T, mode, policies string) (*testEnv, *dataAPI) {
	d, url := startDataAPI(t)
	dir := t.TempDir()
	root, _ := filepath.Abs("..")
	cfg := `listen: 127.0.0.1:0
admin_listen: 127.0.0.1:0
rules: ` + filepath.Join(root, "examples/analytics/rules") + `
policies: ` + policies + `
upstreams:
  - {name: data, base_url: '` + url + `'}
routes:
  - {name: reports, surface: data, path: /reports, upstream: data, param: q, auth: none, mode: ` + mode + `}
audit: {path: audit.jsonl}
`
	p := filepath.Join(dir, "weir.yaml")
	os.WriteFile(p, []byte(cfg), 0o600)
	g, err := New(ctx, Options{ConfigPath: p, Logger: discardLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Shutdown(ctx) })
	return &testEnv{g: g}, d
}

func dataRequest(t *testing.T, addr, method, uri, body string) (int, string, *fasthttp.ResponseHeader) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	req.SetRequestURI("http://" + addr + uri)
	req.Header.SetMethod(method)
	req.Header.Set("X-Weir-Intent", "spoofed")
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
	if err := fasthttp.Do(req, resp); err != nil {
		t.Fatal(err)
	}
	h := &fasthttp.ResponseHeader{}
	resp.Header.CopyTo(h)
	return resp.StatusCode(), string(resp.Body()), h
}

func TestDataSurface(t *testing.T) {
	analytics, _ := filepath.Abs("../examples/analytics/policies")
	notAdmitted, _ := filepath.Abs("testdata/not_admitted")
	t.Run("query parameter", func(t *testing.T) {
		e, d := startDataGateway(t, "enforce", analytics)
		status, body, h := dataRequest(t, e.g.Addr(), "GET", "/reports/sales?q=Qual+%C3%A8+il+fatturato+totale%3F&limit=5", "")
		if status != 200 || body != `{"rows":[]}` || string(h.Peek("X-Weir-Intent")) != "analytics" {
			t.Fatalf("%d %s %s", status, body, h.Peek("X-Weir-Intent"))
		}
		s := d.seen()
		if s.path != "/api/sales?q=Qual+%C3%A8+il+fatturato+totale%3F&limit=5" || s.intent != "analytics" {
			t.Errorf("forwarded %q with intent %q", s.path, s.intent)
		}
		var filters map[string]any
		if err := json.Unmarshal([]byte(s.filters), &filters); err != nil || filters["metric"] != "revenue" {
			t.Errorf("X-Weir-Filters = %q", s.filters)
		}
		if rec := e.lastRecord(t); rec.Surface != "data" || rec.Route != "reports" || rec.Outcome != audit.OutcomeAllowed {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("json field", func(t *testing.T) {
		e, d := startDataGateway(t, "enforce", analytics)
		status, _, _ := dataRequest(t, e.g.Addr(), "POST", "/reports/search", `{"q": "Mostrami le prime 10 righe", "page": 2}`)
		s := d.seen()
		if status != 200 || s.intent != "data_preview" || !strings.Contains(s.body, `"page":2`) {
			t.Errorf("%d intent %q body %q", status, s.intent, s.body)
		}
	})
	t.Run("denied", func(t *testing.T) {
		e, d := startDataGateway(t, "enforce", notAdmitted)
		status, body, h := dataRequest(t, e.g.Addr(), "GET", "/reports/x?q=Ciao%2C+grazie%21", "")
		var eb errorBody
		json.Unmarshal([]byte(body), &eb)
		if status != 403 || eb.Error.Code != "intent_not_admitted" || string(h.Peek("X-Weir-Decision-Id")) != eb.Error.DecisionID || d.seen().calls != 0 {
			t.Fatalf("%d %s calls %d", status, body, d.seen().calls)
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeBlocked || rec.DecisionID != eb.Error.DecisionID {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("monitor", func(t *testing.T) {
		e, d := startDataGateway(t, "monitor", notAdmitted)
		status, _, _ := dataRequest(t, e.g.Addr(), "GET", "/reports/x?q=Ciao%2C+grazie%21", "")
		if status != 200 || d.seen().calls != 1 {
			t.Fatalf("%d calls %d", status, d.seen().calls)
		}
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeMonitored || !hasCode(rec.Violations, "intent_not_admitted") {
			t.Errorf("record = %+v", rec)
		}
	})
}
