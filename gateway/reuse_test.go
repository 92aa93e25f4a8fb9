package gateway

import (
	"bytes"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"
)

// TestNoLeakBetweenRequests sends a long answer with a tool call and an allowlisted header,
// then a short plain one: pooled requests, responses and encoders are reused, so nothing of
// the first may reach the second's answer, headers or record.
func TestNoLeakBetweenRequests(t *testing.T) {
	e := startGateway(t, gwParams{})
	secret := "first-answer-" + strings.Repeat("x", 2048)
	first := func(rc *fasthttp.RequestCtx, _ map[string]any) {
		writeCompletion(rc, secret, []call{{"execute_metric", `{"metric":"revenue"}`}})
		rc.Response.Header.Set("X-Ratelimit-Remaining-Requests", "41")
	}
	second := func(rc *fasthttp.RequestCtx, _ map[string]any) { writeCompletion(rc, "Ciao!", nil) }
	secondBody := `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"scripted-model","choices":[{"index":0,"message":{"role":"assistant","content":"Ciao!","refusal":null},"finish_reason":"stop"}],"usage":{"completion_tokens":1,"prompt_tokens":1,"total_tokens":2}}`
	ask := func(question string) (int, []byte, *fasthttp.ResponseHeader) {
		return e.post(t, "/v1/chat/completions",
			[]byte(`{"model":"m","messages":[{"role":"user","content":"`+question+`"}]}`))
	}
	for round := range 3 {
		e.up.set(first)
		status, body, h := ask("Qual è il fatturato totale del 2024? primo")
		if status != 200 || !bytes.Contains(body, []byte(secret)) || string(h.Peek("X-Ratelimit-Remaining-Requests")) != "41" {
			t.Fatalf("round %d, first: status %d, X-Ratelimit-Remaining-Requests %q, body %.200s", round, status, h.Peek("X-Ratelimit-Remaining-Requests"), body)
		}
		e.up.set(second)
		status, body, h = ask("Ciao, grazie! secondo")
		if status != 200 || string(body) != secondBody {
			t.Fatalf("round %d, second: status %d, body %s, want %s", round, status, body, secondBody)
		}
		if v := h.Peek("X-Ratelimit-Remaining-Requests"); v != nil {
			t.Errorf("round %d: the second answer has the first's header X-Ratelimit-Remaining-Requests", round)
		}
		rec := e.lastRecord(t)
		if len(rec.ToolCalls) != 0 || rec.Content == nil || rec.Content.Answer != "Ciao!" ||
			!strings.Contains(rec.Content.Prompt, "secondo") {
			t.Fatalf("round %d: the second record has the first's data: %+v", round, rec)
		}
	}
}
