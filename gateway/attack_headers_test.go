package gateway

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
)

// The attack families on headers, credentials, logs and the request side.

// postWith sends body with extra request headers (each may repeat) and returns the answer.
func postWith(t *testing.T, e *testEnv, path string, body []byte, headers [][2]string) (int, []byte, *fasthttp.ResponseHeader) {
	t.Helper()
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI("http://" + e.g.Addr() + path)
	req.Header.SetMethod("POST")
	req.Header.SetContentType("application/json")
	for _, h := range headers {
		req.Header.Add(h[0], h[1])
	}
	req.SetBody(body)
	if err := fasthttp.Do(req, resp); err != nil {
		t.Fatal(err)
	}
	h := &fasthttp.ResponseHeader{}
	resp.Header.CopyTo(h)
	return resp.StatusCode(), append([]byte(nil), resp.Body()...), h
}

// TestClientCredentialsNeverGoUpstream: every common form and copy of a client's
// credential stays with Weir; the upstream gets the route's key, once.
func TestClientCredentialsNeverGoUpstream(t *testing.T) {
	e := startGateway(t, gwParams{})
	secrets := [][2]string{
		{"Authorization", "Bearer client-secret-1"}, {"Authorization", "Bearer client-secret-2"},
		{"Api-Key", "client-secret-3"}, {"X-Api-Key", "client-secret-4"}, {"Proxy-Authorization", "Basic client-secret-5"},
		{"Cookie", "session=client-secret-6"}, {"OpenAI-Organization", "client-secret-7"}, {"X-Weir-Subject", "admin"},
	}
	for _, stream := range []bool{false, true} {
		if stream {
			e.up.set(streamReply(roleChunk(), textChunk("Ciao!"), finishChunk("stop"), sseDone))
		}
		status, _, _ := postWith(t, e, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", map[bool]string{true: `,"stream":true`}[stream])), secrets)
		if status != 200 {
			t.Fatalf("status %d", status)
		}
		e.up.mu.Lock()
		header := e.up.header
		e.up.mu.Unlock()
		if strings.Contains(header, "client-secret") || strings.Contains(header, "X-Weir-Subject") {
			t.Errorf("stream=%v: a client credential reached the upstream:\n%s", stream, header)
		}
		if n := strings.Count(header, "Authorization: Bearer upstream-key"); n != 1 {
			t.Errorf("stream=%v: %d copies of the route's key upstream:\n%s", stream, n, header)
		}
	}
}

// TestUpstreamCannotSetWeirHeaders: an upstream's own X-Weir-* headers (or any header
// outside the allowlist) never reach the client; Weir's are set once, by Weir.
func TestUpstreamCannotSetWeirHeaders(t *testing.T) {
	e := startGateway(t, gwParams{})
	forge := func(rc *fasthttp.RequestCtx) {
		rc.Response.Header.Add("X-Weir-Intent", "data_preview")
		rc.Response.Header.Add("X-Weir-Decision-Id", "FORGED")
		rc.Response.Header.Add("Set-Cookie", "tracker=1")
	}
	for _, stream := range []bool{false, true} {
		e.up.set(func(rc *fasthttp.RequestCtx, req map[string]any) {
			if stream {
				streamReply(roleChunk(), textChunk("Ciao!"), finishChunk("stop"), sseDone)(rc, req)
			} else {
				writeCompletion(rc, "Ciao!", nil)
			}
			forge(rc)
		})
		status, _, h := e.post(t, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", map[bool]string{true: `,"stream":true`}[stream])))
		if status != 200 {
			t.Fatalf("status %d", status)
		}
		var intents, ids []string
		for k, v := range h.All() {
			switch strings.ToLower(string(k)) {
			case "x-weir-intent":
				intents = append(intents, string(v))
			case "x-weir-decision-id":
				ids = append(ids, string(v))
			case "set-cookie":
				t.Errorf("stream=%v: the upstream's Set-Cookie reached the client", stream)
			}
		}
		if len(intents) != 1 || intents[0] != "conversational" || len(ids) != 1 || ids[0] == "FORGED" {
			t.Errorf("stream=%v: X-Weir-Intent %v, X-Weir-Decision-Id %v: want Weir's, once", stream, intents, ids)
		}
	}
}

// TestNothingSecretInLogsOrRecords: a malformed request with credentials, and an upstream
// error whose text carries a secret, leave no trace of either in the logs, the audit trail
// or (for the upstream's text) the client's answer.
func TestNothingSecretInLogsOrRecords(t *testing.T) {
	e := startGateway(t, gwParams{})
	postWith(t, e, "/v1/chat/completions", []byte(`{"messages": [ "half`), [][2]string{{"Authorization", "Bearer client-secret-log"}})
	// A request fasthttp cannot read at all: its error quotes the request's bytes.
	if _, _, err := sendRaw(e.g.Addr(), "POST /v1/chat/completions HTTP/1.1\r\nHost: weir\r\nAuthorization: Bearer client-secret-log\r\nContent-Length: nope\r\n\r\n{}"); err != nil {
		t.Fatal(err)
	}
	e.up.set(func(rc *fasthttp.RequestCtx, _ map[string]any) {
		rc.SetStatusCode(401)
		rc.SetContentType("application/json")
		rc.SetBodyString(`{"error":{"message":"Incorrect API key provided: upstream-secret-777. Prompt was: Ciao","type":"invalid_request_error","code":"invalid_api_key"}}`)
	})
	status, body, _ := e.post(t, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", "")))
	var eb errorBody
	if status != 401 || json.Unmarshal(body, &eb) != nil || eb.Error.Code != "invalid_api_key" || eb.Error.Type != "invalid_request_error" || eb.Error.DecisionID == "" {
		t.Errorf("got %d %s: want the upstream's status, type and code in Weir's error", status, body)
	}
	trail, _ := json.Marshal(e.records(t))
	for _, secret := range []string{"client-secret-log", "upstream-secret-777"} {
		for where, text := range map[string]string{"logs": e.logs.String(), "audit trail": string(trail), "answer": string(body)} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds %q", where, secret)
			}
		}
	}
}

// TestRequestSideNarrowing: the tools Weir removes cannot come back through tool_choice, a
// case variant or a duplicate key.
func TestRequestSideNarrowing(t *testing.T) {
	e := startGateway(t, gwParams{})
	e.up.set(reply("", call{"execute_metric", `{"metric":"revenue"}`}))
	tools := `,"tools":[{"type":"function","function":{"name":"execute_metric"}},{"type":"function","function":{"name":"filter_data"}}]`
	for _, tc := range []struct {
		name, extra string
		status      int
	}{
		{"tool_choice forcing a blocked tool", tools + `,"tool_choice":{"type":"function","function":{"name":"filter_data"}}`, 200},
		{"allowed_tools naming a blocked tool", tools + `,"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"required","tools":[{"type":"function","function":{"name":"filter_data"}},{"type":"function","function":{"name":"execute_metric"}}]}}`, 200},
		{"a custom tool of a blocked name", `,"tools":[{"type":"custom","custom":{"name":"filter_data"}}]`, 200},
		{"Tools beside tools", tools + `,"Tools":[{"type":"function","function":{"name":"filter_data"}}]`, 400},
		{"tools twice", tools + `,"tools":[{"type":"function","function":{"name":"filter_data"}}]`, 400},
		{"Tool_choice alone", tools + `,"Tool_choice":{"type":"function","function":{"name":"filter_data"}}`, 400},
		// A tool_choice may name a tool the client did not offer: judged by the same list.
		{"tool_choice forcing a blocked tool not offered", `,"tools":[{"type":"function","function":{"name":"execute_metric"}}],"tool_choice":{"type":"function","function":{"name":"filter_data"}}`, 200},
		{"tool_choice naming it escaped", `,"tools":[{"type":"function","function":{"name":"execute_metric"}}],"tool_choice":{"type":"function","function":{"name":"filter\u005fdata"}}`, 200},
		{"allowed_tools naming a tool not offered", `,"tools":[{"type":"function","function":{"name":"execute_metric"}}],"tool_choice":{"type":"allowed_tools","allowed_tools":{"mode":"auto","tools":[{"type":"function","function":{"name":"filter_data"}}]}}`, 200},
		{"a custom tool_choice", `,"tools":[{"type":"function","function":{"name":"execute_metric"}}],"tool_choice":{"type":"custom","custom":{"name":"filter_data"}}`, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"model":"m","messages":[{"role":"user","content":"Qual è il fatturato totale?"}]` + tc.extra + `}`
			before := e.upCalls()
			status, resp, _ := e.post(t, "/v1/chat/completions", []byte(body))
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, resp)
			}
			if status != 200 {
				if e.upCalls() != before {
					t.Errorf("a refused request reached the upstream")
				}
				return
			}
			e.up.mu.Lock()
			forwarded := string(e.up.rawReq)
			e.up.mu.Unlock()
			if strings.Contains(forwarded, "filter_data") {
				t.Errorf("the blocked tool was offered upstream: %s", forwarded)
			}
			if rec := e.lastRecord(t); strings.Contains(tc.extra, `"tools":[{"type":"function","function":{"name":"execute_metric"}},{`) &&
				(len(rec.ToolsRemoved) == 0 || rec.ToolsRemoved[0] != "filter_data") {
				t.Errorf("record tools_removed = %v", rec.ToolsRemoved)
			}
		})
	}
}

func (e *testEnv) upCalls() int {
	_, _, n := e.up.last()
	return n
}

// TestEveryRequestRecorded: a models list and an unknown path get a decision id and a
// record; the models list is Weir's encoding of what it read.
func TestEveryRequestRecorded(t *testing.T) {
	e := startGateway(t, gwParams{})
	for _, tc := range []struct{ method, path, outcome string }{
		{"GET", "/v1/models", audit.OutcomeAllowed},
		{"POST", "/v1/embeddings", audit.OutcomeError},
		{"GET", "/elsewhere", audit.OutcomeError},
	} {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		req.SetRequestURI("http://" + e.g.Addr() + tc.path)
		req.Header.SetMethod(tc.method)
		if err := fasthttp.Do(req, resp); err != nil {
			t.Fatal(err)
		}
		id := string(resp.Header.Peek("X-Weir-Decision-Id"))
		rec, ok := e.recordOf(id)
		if id == "" || !ok || rec.Outcome != tc.outcome || rec.Status != resp.StatusCode() {
			t.Errorf("%s %s: decision %q, record %+v", tc.method, tc.path, id, rec)
		}
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(resp)
	}
}
