package gateway

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestPassthrough: with Options.Passthrough every route is a bare proxy hop. A tool call
// the policy blocks is forwarded, nothing is audited, the request reaches the upstream as
// the client sent it (but for the upstream's key), and an event stream is relayed as is.
func TestPassthrough(t *testing.T) {
	up := startUpstream(t)
	dir := t.TempDir()
	cfg := writeConfig(t, gwParams{upstreamURL: up.url, dir: dir})
	g := serve(t, Options{ConfigPath: cfg, Passthrough: true})
	const events = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Il fatturato è 99999 €.\"}}]}\n\ndata: [DONE]\n\n"
	for _, tc := range []struct {
		name, body, want string
		reply            func(*fasthttp.RequestCtx, map[string]any)
	}{
		{name: "blocked tool call forwarded",
			body:  `{"model":"m","messages":[{"role":"user","content":"Qual è il fatturato totale?"}],"tools":[{"type":"function","function":{"name":"filter_data"}}]}`,
			reply: reply("", call{"filter_data", `{"limit":10}`}), want: `"name":"filter_data"`},
		{name: "stream relayed",
			body: `{"model":"m","stream":true,"messages":[{"role":"user","content":"Qual è il fatturato totale?"}]}`,
			reply: func(rc *fasthttp.RequestCtx, _ map[string]any) {
				rc.SetContentType("text/event-stream")
				rc.SetBodyString(events)
			}, want: events},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up.set(tc.reply)
			var req fasthttp.Request
			var resp fasthttp.Response
			req.Header.SetMethod("POST")
			req.SetRequestURI("http://" + g.Addr() + "/v1/chat/completions")
			req.Header.Set("Authorization", "Bearer client-key")
			req.SetBodyString(tc.body)
			if err := fasthttp.DoTimeout(&req, &resp, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode() != 200 || !strings.Contains(string(resp.Body()), tc.want) {
				t.Fatalf("status %d, body %s; want 200 with %s", resp.StatusCode(), resp.Body(), tc.want)
			}
			if id := resp.Header.Peek("X-Weir-Decision-Id"); len(id) > 0 {
				t.Errorf("the passthrough made decision %s", id)
			}
			got, auth, _ := up.last()
			var sent map[string]any
			_ = json.Unmarshal([]byte(tc.body), &sent)
			if !reflect.DeepEqual(got, sent) || auth != "Bearer upstream-key" {
				t.Errorf("upstream got %v with %q, want the client's body with the upstream's key", got, auth)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "audit.jsonl")); err == nil && len(b) > 0 {
		t.Errorf("the passthrough audited:\n%s", b)
	}
}
