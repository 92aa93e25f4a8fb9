package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/config"
	"github.com/weirgw/weir/gateway/openai"
)

// The fuzz targets of the inspection: arbitrary upstream answers, plain and streamed, go
// through the stages of an enforce-mode route over the analytics pack and bundle. They must
// never panic, must answer in a well-formed way, must never let through a tool call that
// the request decision does not allow, and must pass the differential check: both client
// families read exactly the calls and texts Weir judged (differential_test.go).

// fuzzGateway is a gateway that is never started: the fuzz targets drive its exchanges.
func fuzzGateway(f *testing.F) *Gateway {
	f.Helper()
	g, err := New(context.Background(), Options{ConfigPath: writeConfig(f, gwParams{upstreamURL: "http://127.0.0.1:1/v1"}), Logger: discardLogger(), AuditSink: io.Discard})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { g.Shutdown(context.Background()) })
	return g
}

// fuzzRequest asks an analytics question offering execute_metric and filter_data; the
// analytics intent allows execute_metric only.
var fuzzRequest = []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"Qual è il fatturato totale?"},` +
	`{"role":"tool","tool_call_id":"c0","content":"{\"value\":21956.62}"}],"tools":[` +
	`{"type":"function","function":{"name":"execute_metric"}},{"type":"function","function":{"name":"filter_data"}}]}`)

// fuzzExchange runs decode, classify and admit for fuzzRequest on a route whose
// on_violation is error or rewrite.
func fuzzExchange(t *testing.T, g *Gateway, rewrite bool) *exchange {
	rc := &fasthttp.RequestCtx{}
	rc.Request.Header.SetMethod("POST")
	rc.Request.SetRequestURI("/v1/chat/completions")
	rc.Request.SetBody(fuzzRequest)
	snap := g.Snapshot()
	r, sub := snap.match("/v1/chat/completions")
	rt := *r
	if rewrite {
		rt.cfg.OnViolation = config.OnViolationRewrite
	}
	x := newExchange(g, rc, snap, &rt, sub, &openaiChat{})
	if err := x.run(g.base, stagesThrough("admit")); err != nil { // decode … admit
		t.Fatal(err)
	}
	return x
}

// allowedSet is the tools the request decision allows.
func allowedSet(x *exchange) map[string]bool {
	ok := map[string]bool{}
	for _, n := range x.admission.Obligations.AllowedTools {
		ok[n] = true
	}
	return ok
}

// callNames returns the names of the tool calls in a message or delta, read with exact
// keys: tool_calls[].function.name.
func callNames(msg map[string]any) []string {
	calls, _ := msg["tool_calls"].([]any)
	var out []string
	for _, c := range calls {
		cm, _ := c.(map[string]any)
		fn, _ := cm["function"].(map[string]any)
		name, _ := fn["name"].(string)
		out = append(out, name)
	}
	return out
}

func choicesOf(doc map[string]any, key string) []map[string]any {
	cs, _ := doc["choices"].([]any)
	var out []map[string]any
	for _, c := range cs {
		cm, _ := c.(map[string]any)
		m, _ := cm[key].(map[string]any)
		out = append(out, m)
	}
	return out
}

// FuzzStreamRelay feeds arbitrary bytes as the upstream's event stream. The client's
// stream must parse, hold only JSON events, end with [DONE] after at most one error event,
// and carry only tool calls the request decision allows.
func FuzzStreamRelay(f *testing.F) {
	call := func(i int, id, name, args string) string { return toolDelta(i, id, name, args) }
	for _, parts := range [][]string{
		{roleChunk(), textChunk("Il fatturato è 21.956,62 €."), finishChunk("stop"), sseDone},
		{roleChunk(), call(0, "c1", "execute_metric", `{"metric":`), call(0, "", "", `"revenue"}`), finishChunk("tool_calls"), sseDone},
		{roleChunk(), call(0, "c1", "execute_metric", `{}`), call(1, "c1", "filter_data", `{}`), finishChunk("tool_calls"), sseDone},
		{roleChunk(), call(0, "c1", "filter_data", `{not json`), textChunk("Il margine è 31%. "), finishChunk("tool_calls")},
		{rawToolDelta(`"tool_calls":[{"index":0,"id":"c","function":{"name":"filter_data"},"Function":{"name":"execute_metric"}}]`), finishChunk("tool_calls")},
		{rawToolDelta(`"function_call":{"name":"filter_data","arguments":"{}"}`), sseDone},
		{": keep-alive\r\n\r\n", "event: error\ndata: {\"error\":{}}\n\n"},
		{`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"name":"filter_data"}}]},"finish_reason":"tool_calls"}],"choices":[{"index":0,"delta":{}}]}` + "\n\n"},
		{"data: {\"choices\": [\n\n", sseDone},
	} {
		f.Add([]byte(joinParts(parts)), false)
		f.Add([]byte(joinParts(parts)), true)
	}
	g := fuzzGateway(f)
	f.Fuzz(func(t *testing.T, upstream []byte, rewrite bool) {
		x := fuzzExchange(t, g, rewrite)
		allowed := allowedSet(x)
		x.rc = nil
		x.stream = fasthttp.AcquireResponse()
		x.stream.SetBody(upstream)
		var out bytes.Buffer
		w := bufio.NewWriter(&out)
		g.streams.Add(1)
		startRelay(g, x).relay(w)
		w.Flush()
		evs, err := parseAll(t, out.Bytes())
		if err != nil || len(evs) == 0 || string(evs[len(evs)-1].data) != "[DONE]" {
			t.Fatalf("the client's stream %q does not end with [DONE] (%v)", out.Bytes(), err)
		}
		if d := forwardedDiff(out.Bytes(), true, *x.record(nil)); d != "" {
			t.Fatalf("%s\nstream: %q", d, out.Bytes())
		}
		for i, ev := range evs[:len(evs)-1] {
			var doc map[string]any
			if err := json.Unmarshal(ev.data, &doc); err != nil {
				t.Fatalf("event %d is not JSON: %q", i, ev.data)
			}
			if _, isErr := doc["error"]; isErr && i != len(evs)-2 {
				t.Fatalf("an error event is not the last before [DONE]: %q", out.Bytes())
			}
			for _, delta := range choicesOf(doc, "delta") {
				for _, name := range callNames(delta) {
					if !allowed[name] {
						t.Fatalf("tool call %q reached the client: %q", name, ev.data)
					}
				}
			}
		}
	})
}

func joinParts(parts []string) string {
	var b bytes.Buffer
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// FuzzChatResponse feeds arbitrary bytes as the upstream's chat completion. The exchange
// must end in an error or in a JSON body whose tool calls the request decision allows.
func FuzzChatResponse(f *testing.F) {
	for _, calls := range []string{
		`"tool_calls":[` + metricCall + `]`,
		`"tool_calls":[` + metricCall + `,` + blockedCall + `]`,
		`"tool_calls":[` + nonJSONCall + `]`,
		`"tool_calls":[` + caseCall + `]`,
		`"tool_calls":[{"id":"c","name":"filter_data","arguments":{}}]`,
		`"function_call":{"name":"filter_data","arguments":"{}"}`,
		`"content":"Il fatturato è 21.956,62 € e il margine il 31%."`,
		`"content":[{"type":"text","text":"Il margine è 31%."}],"tool_calls":null`,
	} {
		f.Add([]byte(completion(calls)), false)
		f.Add([]byte(completion(calls)), true)
	}
	f.Add([]byte(`{"choices":[{"message":{}},{"message":{"tool_calls":[]}}]}`), true)
	g := fuzzGateway(f)
	f.Fuzz(func(t *testing.T, upstream []byte, rewrite bool) {
		x := fuzzExchange(t, g, rewrite)
		allowed := allowedSet(x)
		x.upstreamStatus = 200
		s := x.surface.(*openaiChat)
		c, err := openai.DecodeCompletion(upstream)
		if err != nil {
			return
		}
		s.comp = c
		for _, ch := range c.Answer.Choices {
			x.unit.parts = append(x.unit.parts, &part{cs: x.choice(ch.Index), role: ch.Role, texts: ch.Texts, calls: ch.Calls, final: true, finish: ch.Finish})
		}
		if x.run(g.base, stagesFrom("inspect")) != nil {
			return
		}
		body := x.out.body
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatalf("the answer sent is not JSON: %q", body)
		}
		if d := forwardedDiff(body, false, *x.record(nil)); d != "" {
			t.Fatalf("%s\nanswer: %s", d, body)
		}
		for _, msg := range choicesOf(doc, "message") {
			for _, name := range callNames(msg) {
				if !allowed[name] {
					t.Fatalf("tool call %q reached the client: %s", name, body)
				}
			}
			if _, legacy := msg["function_call"]; legacy {
				t.Fatalf("a legacy function_call reached the client: %s", body)
			}
		}
	})
}
