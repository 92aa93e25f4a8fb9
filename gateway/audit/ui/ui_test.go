package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

const token = "reviewer-token-0123456789"

// testTrail writes 120 decisions over two days, rotated over several files: every third
// blocked with tool_not_allowed on filter_data, routes chat and query, subjects alice and
// bob, one with its content recorded.
func testTrail(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, err := audit.New(audit.Options{Path: path, Rotate: audit.Rotate{MaxBytes: 16 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
	for i := range 120 {
		if err := w.Write(testRecord(i, start.Add(time.Duration(i)*24*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return path
}

func testRecord(i int, at time.Time) *audit.Record {
	r := &audit.Record{Time: at, DecisionID: fmt.Sprintf("D%04d", i), Surface: "openai", Route: []string{"chat", "query"}[i%2],
		Subject: audit.Subject{ID: []string{"alice", "bob"}[i%2], Roles: []string{"analyst"}}, Intent: []string{"analytics", "strategy", "data_preview"}[i%3],
		Confidence: 0.9, Source: []string{"rules", "default", "rules", "llm"}[i%4], Rules: []string{"r1"}, Outcome: audit.OutcomeAllowed, Status: 200,
		ToolCalls:  []audit.ToolCall{{ID: "c1", Name: "execute_metric", Allowed: true, Origin: audit.OriginModel, Action: audit.ActionForwarded}},
		Violations: []audit.Violation{}, LatencyUS: map[string]int64{"decode": 21, "classify": 9, "admit": 48, "upstream": 1830, "inspect": 40, "total": 2010},
		RequestID: fmt.Sprintf("req-%d", i), Mode: "enforce", RouteKind: "model", PolicyRevision: "5c0e9a1f", PackRevision: "a91d77b2"}
	if i%3 == 0 {
		r.Outcome, r.Status = audit.OutcomeBlocked, 403
		r.ToolCalls = append(r.ToolCalls, audit.ToolCall{ID: "c2", Name: "filter_data", Reason: `tool "filter_data" is not allowed`, Origin: audit.OriginModel, Action: audit.ActionRefused})
		r.Violations = append(r.Violations, audit.Violation{Code: "tool_not_allowed", Message: "filter_data is not allowed", Rule: "weir.tools.call_violation"})
	}
	if i == 7 {
		r.Content = &audit.Content{Prompt: "Qual è il fatturato <b>totale</b>?", Answer: "25.400 €"}
		r.ToolCalls[0].Arguments = json.RawMessage(`{"metric":"revenue"}`)
	}
	return r
}

func server(t *testing.T, opts Options) *httptest.Server {
	srv := httptest.NewServer(New(opts))
	t.Cleanup(srv.Close)
	return srv
}

// loggedIn returns a client that logged in through the form.
func loggedIn(t *testing.T, srv *httptest.Server) *http.Client {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.PostForm(srv.URL+"/ui/login", url.Values{"token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Request.URL.Path != "/ui/" {
		t.Fatalf("login: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	return c
}

func get(t *testing.T, c *http.Client, u string, hdr ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestAccess(t *testing.T) {
	srv := server(t, Options{Trail: testTrail(t), Token: token})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		name   string
		hdr    []string
		status int
	}{
		{"no token", nil, 401},
		{"browser without session", []string{"Accept", "text/html"}, 303},
		{"wrong token", []string{"Authorization", "Bearer nope"}, 401},
		{"bearer token", []string{"Authorization", "Bearer " + token}, 200},
		{"forged cookie", []string{"Cookie", cookieName + "=" + token}, 401},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if code, _ := get(t, noRedirect, srv.URL+"/ui/summary", tc.hdr...); code != tc.status {
				t.Fatalf("status %d, want %d", code, tc.status)
			}
		})
	}
	resp, _ := http.PostForm(srv.URL+"/ui/login", url.Values{"token": {"wrong"}})
	if resp.StatusCode != 401 {
		t.Fatalf("login with a wrong token: %d", resp.StatusCode)
	}
	off := server(t, Options{Trail: "x"})
	if code, body := get(t, http.DefaultClient, off.URL+"/ui/"); code != 404 || !strings.Contains(body, "audit.ui.token") {
		t.Fatalf("without a token the view is off: %d %s", code, body)
	}
}

func TestPages(t *testing.T) {
	srv := server(t, Options{Trail: testTrail(t), Token: token})
	c := loggedIn(t, srv)
	tests := []struct {
		name, path string
		want       []string
		not        []string
	}{
		{"list, newest first, paged", "/ui/", []string{"120 decisions, page 1 of 3", "D0119", `rel="next"`}, []string{"D0069"}},
		{"page 3", "/ui/?page=3", []string{"D0000", `rel="prev"`}, []string{"D0119"}},
		{"filter outcome and tool", "/ui/?outcome=blocked&tool=filter_data", []string{"40 decisions", "D0117"}, []string{"D0118"}},
		{"filter subject, route, violation", "/ui/?subject=bob&route=query&violation=tool_not_allowed", []string{"20 decisions", "D0003"}, []string{"D0006"}},
		{"filter intent and time", "/ui/?intent=strategy&from=2026-03-01T08:00&to=2026-03-01T12:00", []string{"3 decisions", "D0001", "D0007"}, []string{"D0010"}},
		{"bad time", "/ui/?from=yesterday", []string{"is not a date and time", "120 decisions"}, nil},
		{"decision with content", "/ui/decision/D0007", []string{"Qual è il fatturato &lt;b&gt;totale&lt;/b&gt;?", "&#34;metric&#34;: &#34;revenue&#34;", "seq 8", "bob", "analyst"}, []string{"Not recorded"}},
		{"decision without content", "/ui/decision/D0003", []string{"tool_not_allowed", "weir.tools.call_violation", "Not recorded"}, nil},
		{"unknown decision", "/ui/decision/nope", []string{"no decision nope"}, nil},
		{"summary", "/ui/summary", []string{"120 decisions", "Outcomes over time", "<rect", "filter_data blocked: 40", "Intents by source", "llm"}, nil},
		{"summary filtered", "/ui/summary?route=chat", []string{"60 decisions"}, nil},
		{"stylesheet", "/ui/static/style.css", []string{"font:"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, body := get(t, c, srv.URL+tc.path)
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(body, w) {
					t.Errorf("page has %q", w)
				}
			}
		})
	}
}

func TestStdoutTrail(t *testing.T) {
	srv := server(t, Options{Trail: "stdout", Token: token})
	if _, body := get(t, loggedIn(t, srv), srv.URL+"/ui/"); !strings.Contains(body, "not written to a file") {
		t.Fatalf("page: %s", body)
	}
}

// TestOldRecords: records written before subject was an object are listed and shown.
func TestOldRecords(t *testing.T) {
	srv := server(t, Options{Trail: "../testdata/legacy.jsonl", Token: token})
	c := loggedIn(t, srv)
	if _, body := get(t, c, srv.URL+"/ui/?subject=alice"); !strings.Contains(body, "3 decisions") || !strings.Contains(body, "OLD3") {
		t.Fatalf("list of old records:\n%s", body)
	}
	if _, body := get(t, c, srv.URL+"/ui/decision/OLD2"); !strings.Contains(body, "alice") || !strings.Contains(body, "not &lt;allowed&gt; &amp; refused") {
		t.Fatalf("old record page:\n%s", body)
	}
}
