package gateway

import (
	"testing"

	"github.com/valyala/fasthttp"
)

// BenchmarkChatToolCall runs the whole chat path in process (handler call, no client
// connection) for an analytics question whose answer proposes one allowed tool call; the
// scripted upstream is on loopback, so the number includes one local round trip.
func BenchmarkChatToolCall(b *testing.B) {
	e := startGateway(b, gwParams{})
	e.up.set(reply("", call{"execute_metric", `{"metric":"revenue"}`}))
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"Qual è il fatturato totale?"}],` +
		`"tools":[{"type":"function","function":{"name":"execute_metric","parameters":{"type":"object"}}}]}`)
	var req fasthttp.Request
	req.Header.SetMethod("POST")
	req.SetRequestURI("/v1/chat/completions")
	req.SetBody(body)
	b.ReportAllocs()
	for b.Loop() {
		var rc fasthttp.RequestCtx
		rc.Init(&req, nil, nil)
		e.g.handle(&rc)
		if rc.Response.StatusCode() != 200 {
			b.Fatalf("status %d: %s", rc.Response.StatusCode(), rc.Response.Body())
		}
	}
}
