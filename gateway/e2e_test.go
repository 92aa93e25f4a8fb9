package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

var ctx = context.Background()

func tool(name string) openai.ChatCompletionToolUnionParam {
	return openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
		Name:       name,
		Parameters: shared.FunctionParameters{"type": "object", "properties": map[string]any{}},
	})
}

func params(msgs ...openai.ChatCompletionMessageParamUnion) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{Model: "scripted-model", Messages: msgs}
}

// withToolResult is a conversation in which execute_metric already answered.
func withToolResult(question, result string) []openai.ChatCompletionMessageParamUnion {
	return []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage("You are a restaurant analytics assistant."),
		openai.UserMessage(question),
		{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: "call_a",
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "execute_metric", Arguments: `{"metric":"revenue"}`}},
		}}}},
		openai.ToolMessage(result, "call_a"),
	}
}

func apiError(t *testing.T, err error, status int, code string) *openai.Error {
	t.Helper()
	var ae *openai.Error
	if !errors.As(err, &ae) {
		t.Fatalf("want an API error %d %s, got %v", status, code, err)
	}
	if ae.StatusCode != status || ae.Code != code {
		t.Fatalf("error = %d %q (%s), want %d %q", ae.StatusCode, ae.Code, ae.RawJSON(), status, code)
	}
	var body struct {
		Error struct {
			Type       string `json:"type"`
			DecisionID string `json:"decision_id"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(ae.RawJSON()), &body.Error); err != nil || body.Error.DecisionID == "" {
		t.Fatalf("error body lacks decision_id: %s", ae.RawJSON())
	}
	if got := ae.Response.Header.Get("X-Weir-Decision-Id"); got != body.Error.DecisionID {
		t.Fatalf("X-Weir-Decision-Id %q != body decision_id %q", got, body.Error.DecisionID)
	}
	return ae
}

func TestChatPlainAllowed(t *testing.T) {
	e := startGateway(t, gwParams{})
	e.up.set(reply("Ciao! Come posso aiutarti?"))
	var hr *http.Response
	c, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!")), option.WithResponseInto(&hr))
	if err != nil {
		t.Fatal(err)
	}
	if c.Choices[0].Message.Content != "Ciao! Come posso aiutarti?" {
		t.Errorf("content = %q", c.Choices[0].Message.Content)
	}
	if hr.Header.Get("X-Weir-Intent") != "conversational" || hr.Header.Get("X-Upstream") != "" {
		t.Errorf("headers = %v: Weir's own, and no upstream header outside the allowlist", hr.Header)
	}
	_, auth, _ := e.up.last()
	if auth != "Bearer upstream-key" {
		t.Errorf("upstream Authorization = %q: the client's key must not be forwarded", auth)
	}
	rec := e.lastRecord(t)
	if rec.DecisionID != hr.Header.Get("X-Weir-Decision-Id") || rec.Outcome != audit.OutcomeAllowed ||
		rec.Intent != "conversational" || rec.Status != 200 || rec.PolicyRevision == "" || rec.PackRevision == "" {
		t.Errorf("record = %+v", rec)
	}
	for _, st := range []string{"decode", "identify", "classify", "admit", "route", "upstream", "inspect", "validate", "encode", "total"} {
		if _, ok := rec.LatencyUS[st]; !ok {
			t.Errorf("latency_us lacks %s", st)
		}
	}
	if rec.Content == nil || rec.Content.Prompt != "Ciao, grazie!" {
		t.Errorf("content not recorded with include_content: %+v", rec.Content)
	}
	if !strings.Contains(e.logs.String(), rec.DecisionID) {
		t.Errorf("the log line lacks the decision id")
	}
}

func TestChatNarrowsTools(t *testing.T) {
	e := startGateway(t, gwParams{})
	e.up.set(reply("", call{"execute_metric", `{"metric":"revenue"}`}))
	p := params(openai.UserMessage("Qual è il fatturato totale?"))
	p.Tools = []openai.ChatCompletionToolUnionParam{tool("execute_metric"), tool("filter_data")}
	c, err := e.client.Chat.Completions.New(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Choices[0].Message.ToolCalls) != 1 || c.Choices[0].Message.ToolCalls[0].Function.Name != "execute_metric" {
		t.Fatalf("tool calls = %+v", c.Choices[0].Message.ToolCalls)
	}
	req, _, _ := e.up.last()
	tools, _ := req["tools"].([]any)
	if len(tools) != 1 || !strings.Contains(mustJSON(tools), "execute_metric") {
		t.Errorf("upstream saw tools %s, want only execute_metric", mustJSON(tools))
	}
	rec := e.lastRecord(t)
	if rec.Outcome != audit.OutcomeAllowed || len(rec.ToolsRemoved) != 1 || rec.ToolsRemoved[0] != "filter_data" ||
		len(rec.ToolCalls) != 1 || !rec.ToolCalls[0].Allowed {
		t.Errorf("record = %+v", rec)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestChatViolations(t *testing.T) {
	grounded := withToolResult("Qual è il fatturato totale?", `{"metric":"revenue","value":21956.62}`)
	tests := []struct {
		name        string
		onViolation string
		mode        string
		msgs        []openai.ChatCompletionMessageParamUnion
		reply       func(*fasthttp.RequestCtx, map[string]any)
		status      int
		code        string
		outcome     string
		check       func(t *testing.T, c *openai.ChatCompletion)
	}{
		{name: "blocked tool, error", onViolation: "error",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("", call{"filter_data", `{"limit":10}`}), status: 403, code: "tool_not_allowed", outcome: audit.OutcomeBlocked},
		{name: "blocked tool, rewrite", onViolation: "rewrite",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("", call{"execute_metric", `{"metric":"revenue"}`}, call{"filter_data", `{"limit":10}`}), status: 200, outcome: audit.OutcomeModified,
			check: func(t *testing.T, c *openai.ChatCompletion) {
				m := c.Choices[0].Message
				if len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Name != "execute_metric" {
					t.Errorf("tool calls = %+v", m.ToolCalls)
				}
				if !strings.Contains(m.Content, "blocked tool call filter_data") {
					t.Errorf("content = %q, want the blocked call named", m.Content)
				}
			}},
		{name: "all tools blocked, rewrite", onViolation: "rewrite",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("", call{"filter_data", `{}`}), status: 200, outcome: audit.OutcomeModified,
			check: func(t *testing.T, c *openai.ChatCompletion) {
				if len(c.Choices[0].Message.ToolCalls) != 0 || c.Choices[0].FinishReason != "stop" {
					t.Errorf("choice = %+v", c.Choices[0])
				}
			}},
		{name: "invalid arguments, error", onViolation: "error",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("", call{"execute_metric", `{not json`}), status: 403, code: "tool_arguments_invalid", outcome: audit.OutcomeBlocked},
		{name: "ungrounded number, error", onViolation: "error", msgs: grounded,
			reply: reply("Il fatturato è 21956.62 € e il margine è 31%."), status: 422, code: "ungrounded_number", outcome: audit.OutcomeBlocked},
		{name: "ungrounded number, rewrite", onViolation: "rewrite", msgs: grounded,
			reply: reply("Il fatturato è 21956.62 € e il margine è 31%."), status: 200, outcome: audit.OutcomeModified,
			check: func(t *testing.T, c *openai.ChatCompletion) {
				want := "Il fatturato è 21956.62 € e il margine è " + UnverifiedMarker + "."
				if c.Choices[0].Message.Content != want {
					t.Errorf("content = %q, want %q", c.Choices[0].Message.Content, want)
				}
			}},
		{name: "grounded number in another format", onViolation: "error", msgs: grounded,
			reply: reply("Il fatturato è 21.956,62 €."), status: 200, outcome: audit.OutcomeAllowed},
		{name: "derivation allowed", onViolation: "error",
			msgs:  withToolResult("Quanto fatturato serve per crescere del 50%?", `{"metric":"revenue","value":21956.62}`),
			reply: reply("Oggi 21956.62 €; con +50% servono 32934.93 €."), status: 200, outcome: audit.OutcomeAllowed},
		{name: "tool call required, error", onViolation: "error",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("Il fatturato è ottimo."), status: 422, code: "tool_call_required", outcome: audit.OutcomeBlocked},
		{name: "tool call required, rewrite withholds", onViolation: "rewrite",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("Il fatturato è ottimo."), status: 200, outcome: audit.OutcomeModified,
			check: func(t *testing.T, c *openai.ChatCompletion) {
				if !strings.HasPrefix(c.Choices[0].Message.Content, "[weir] answer withheld:") {
					t.Errorf("content = %q", c.Choices[0].Message.Content)
				}
			}},
		{name: "strategy numbers, error", onViolation: "error",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Come posso aumentare il fatturato del 50%?")},
			reply: reply("Punta a +50% con 3 leve; il fatturato salirà a 120000 €."), status: 422, code: "ungrounded_number", outcome: audit.OutcomeBlocked},
		{name: "monitor forwards blocked tool", mode: "monitor",
			msgs:  []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Qual è il fatturato totale?")},
			reply: reply("", call{"filter_data", `{"limit":10}`}), status: 200, outcome: audit.OutcomeMonitored,
			check: func(t *testing.T, c *openai.ChatCompletion) {
				if len(c.Choices[0].Message.ToolCalls) != 1 || c.Choices[0].Message.ToolCalls[0].Function.Name != "filter_data" {
					t.Errorf("monitor must forward unchanged: %+v", c.Choices[0].Message)
				}
			}},
		{name: "monitor forwards ungrounded number", mode: "monitor", msgs: grounded,
			reply: reply("Il margine è 31%."), status: 200, outcome: audit.OutcomeMonitored,
			check: func(t *testing.T, c *openai.ChatCompletion) {
				if c.Choices[0].Message.Content != "Il margine è 31%." {
					t.Errorf("content = %q", c.Choices[0].Message.Content)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := startGateway(t, gwParams{mode: tc.mode, onViolation: tc.onViolation})
			e.up.set(tc.reply)
			p := params(tc.msgs...)
			p.Tools = []openai.ChatCompletionToolUnionParam{tool("execute_metric")}
			c, err := e.client.Chat.Completions.New(ctx, p)
			if tc.status != 200 {
				apiError(t, err, tc.status, tc.code)
			} else if err != nil {
				var ae *openai.Error
				if errors.As(err, &ae) {
					t.Fatalf("%v: %s", err, ae.RawJSON())
				}
				t.Fatal(err)
			} else if tc.check != nil {
				tc.check(t, c)
			}
			rec := e.lastRecord(t)
			if rec.Outcome != tc.outcome || rec.Status != tc.status {
				t.Errorf("record outcome %q status %d, want %q %d (%+v)", rec.Outcome, rec.Status, tc.outcome, tc.status, rec)
			}
			if tc.outcome != audit.OutcomeAllowed && len(rec.Violations) == 0 {
				t.Errorf("record has no violations")
			}
			if tc.code != "" && !hasCode(rec.Violations, tc.code) {
				t.Errorf("record violations %+v lack %s", rec.Violations, tc.code)
			}
		})
	}
}

func hasCode(vs []audit.Violation, code string) bool {
	for _, v := range vs {
		if v.Code == code {
			return true
		}
	}
	return false
}

func TestChatNotAdmitted(t *testing.T) {
	for _, mode := range []string{"enforce", "monitor"} {
		t.Run(mode, func(t *testing.T) {
			abs, _ := filepath.Abs("testdata/not_admitted")
			e := startGateway(t, gwParams{policies: abs, mode: mode})
			e.up.set(reply("Ciao!"))
			_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!")))
			_, _, calls := e.up.last()
			rec := e.lastRecord(t)
			if mode == "enforce" {
				apiError(t, err, 403, "intent_not_admitted")
				if calls != 0 {
					t.Errorf("the upstream was called %d times for a denied request", calls)
				}
				if rec.Outcome != audit.OutcomeBlocked {
					t.Errorf("outcome = %s", rec.Outcome)
				}
				return
			}
			if err != nil || calls != 1 || rec.Outcome != audit.OutcomeMonitored || !hasCode(rec.Violations, "intent_not_admitted") {
				t.Errorf("monitor: err %v calls %d record %+v", err, calls, rec)
			}
		})
	}
}

func TestChatFailures(t *testing.T) {
	t.Run("upstream down", func(t *testing.T) {
		e := startGateway(t, gwParams{upstreamURL: "http://127.0.0.1:1/v1"})
		_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao!")))
		apiError(t, err, 502, "upstream_unavailable")
		if rec := e.lastRecord(t); rec.Outcome != audit.OutcomeError || rec.Status != 502 || rec.Error != "upstream_unavailable" {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("upstream timeout", func(t *testing.T) {
		e := startGateway(t, gwParams{timeout: "300ms"})
		e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
			time.Sleep(time.Second)
			writeCompletion(rc, "late", nil)
		})
		_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao!")))
		apiError(t, err, 504, "upstream_timeout")
		if rec := e.lastRecord(t); rec.Status != 504 || rec.Outcome != audit.OutcomeError {
			t.Errorf("record = %+v", rec)
		}
	})
	t.Run("upstream error status passes through", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
			rc.SetStatusCode(429)
			rc.SetContentType("application/json")
			rc.SetBodyString(`{"error":{"message":"slow down","type":"rate_limit","code":"rate_limited"}}`)
		})
		_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao!")))
		apiError(t, err, 429, "rate_limited")
	})
	t.Run("upstream answers garbage", func(t *testing.T) {
		e := startGateway(t, gwParams{})
		e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) { rc.SetBodyString("<html>") })
		_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao!")))
		apiError(t, err, 502, "upstream_invalid_response")
	})
	e := startGateway(t, gwParams{maxBody: 4096})
	for _, tc := range []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"malformed JSON", `{"model": "m", "messages": [`, 400, "invalid_json"},
		{"no messages", `{"model": "m"}`, 400, "invalid_request"},
		{"messages wrong type", `{"model": "m", "messages": "hi"}`, 400, "invalid_request"},
		// The scripted upstream answers JSON: a stream Weir cannot inspect is never forwarded.
		{"stream answered without SSE", `{"model": "m", "stream": true, "messages": [{"role":"user","content":"Ciao"}]}`, 502, "upstream_invalid_response"},
		{"too large", `{"model": "m", "messages": [{"role":"user","content":"` + strings.Repeat("x", 5000) + `"}]}`, 413, "request_too_large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body, h := e.post(t, "/v1/chat/completions", []byte(tc.body))
			var eb errorBody
			if err := json.Unmarshal(body, &eb); err != nil {
				t.Fatalf("body %q is not an OpenAI error", body)
			}
			if status != tc.status || eb.Error.Code != tc.code || eb.Error.DecisionID == "" || string(h.Peek("X-Weir-Decision-Id")) != eb.Error.DecisionID {
				t.Fatalf("status %d body %s", status, body)
			}
			if rec := e.lastRecord(t); rec.DecisionID != eb.Error.DecisionID || rec.Status != tc.status || rec.Outcome != audit.OutcomeError {
				t.Errorf("record = %+v", rec)
			}
		})
	}
}

func TestModelsAndUnknownPaths(t *testing.T) {
	e := startGateway(t, gwParams{})
	page, err := e.client.Models.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 1 || page.Data[0].ID != "scripted-model" {
		t.Errorf("models = %+v", page.Data)
	}
	status, body, _ := rawPost(t, e.g.Addr(), "/v1/embeddings", []byte(`{}`))
	if status != 404 || !strings.Contains(string(body), `"not_found"`) {
		t.Errorf("unknown endpoint: %d %s", status, body)
	}
	status, _, _ = rawPost(t, e.g.Addr(), "/other", []byte(`{}`))
	if status != 404 {
		t.Errorf("unknown route: %d", status)
	}
}

type brokenDisk struct{}

func (brokenDisk) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestAuditWriteFailure(t *testing.T) {
	t.Run("fail_closed", func(t *testing.T) {
		e := startGateway(t, gwParams{auditSink: brokenDisk{}})
		_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!")))
		var ae *openai.Error
		if !errors.As(err, &ae) || ae.StatusCode != 503 || ae.Code != "audit_unavailable" {
			t.Fatalf("err = %v", err)
		}
		if !strings.Contains(e.logs.String(), "audit write failed") {
			t.Errorf("the failure was not logged")
		}
	})
	t.Run("log", func(t *testing.T) {
		e := startGateway(t, gwParams{auditSink: brokenDisk{}, auditOnError: "log"})
		if _, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!"))); err != nil {
			t.Fatal(err)
		}
		if m := adminGet(t, e.g.AdminAddr(), "/metrics"); !strings.Contains(m, "weir_audit_write_errors_total 1") {
			t.Errorf("audit write errors not counted")
		}
	})
}

func TestChatCompressedUpstream(t *testing.T) {
	e := startGateway(t, gwParams{})
	e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
		writeCompletion(rc, "Ciao!", nil)
		rc.Response.SetBody(fasthttp.AppendGzipBytes(nil, rc.Response.Body()))
		rc.Response.Header.Set("Content-Encoding", "gzip")
	})
	c, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!")))
	if err != nil {
		t.Fatal(err)
	}
	if c.Choices[0].Message.Content != "Ciao!" {
		t.Errorf("content = %q", c.Choices[0].Message.Content)
	}
}

func TestChatPolicyError(t *testing.T) {
	bundle, _ := filepath.Abs("testdata/policy_error")
	for _, mode := range []string{"enforce", "monitor"} {
		t.Run(mode, func(t *testing.T) {
			e := startGateway(t, gwParams{policies: bundle, mode: mode})
			e.up.set(reply("Ciao!"))
			_, err := e.client.Chat.Completions.New(ctx, params(openai.UserMessage("Ciao, grazie!")))
			rec := e.lastRecord(t)
			if !hasCode(rec.Violations, "policy_error") {
				t.Errorf("record lacks policy_error: %+v", rec.Violations)
			}
			if mode == "enforce" {
				var ae *openai.Error
				if !errors.As(err, &ae) || ae.StatusCode != 500 || ae.Code != "policy_error" {
					t.Fatalf("policy errors must deny: %v", err)
				}
				if _, _, calls := e.up.last(); calls != 0 || rec.Outcome != audit.OutcomeError {
					t.Errorf("calls %d outcome %s", calls, rec.Outcome)
				}
				return
			}
			if err != nil || rec.Outcome != audit.OutcomeMonitored {
				t.Errorf("monitor: err %v outcome %s", err, rec.Outcome)
			}
		})
	}
}
