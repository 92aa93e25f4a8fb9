package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/internal/clientview"
)

// The adversarial suite: families of attacks an upstream (or a client) can mount on the
// gateway, each in plain and streamed form where it applies, each in the three modes —
// enforce + error, enforce + rewrite, monitor. Every 200 answer also goes through the
// differential check (differential_test.go): both client families must read exactly the
// calls and texts Weir judged.

// attackRequest asks an analytics question after the tool result that grounds 21956.62,
// offering the allowed execute_metric and the blocked filter_data.
func attackRequest(stream bool) []byte {
	s := ""
	if stream {
		s = `,"stream":true`
	}
	return []byte(`{"model":"m","messages":[` +
		`{"role":"user","content":"Qual è il fatturato totale?"},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"execute_metric","arguments":"{\"metric\":\"revenue\"}"}}]},` +
		`{"role":"tool","tool_call_id":"call_a","content":"{\"metric\":\"revenue\",\"value\":21956.62}"}],` +
		`"tools":[{"type":"function","function":{"name":"execute_metric"}},{"type":"function","function":{"name":"filter_data"}}]` + s + `}`)
}

// adviceRequest asks for advice (the strategy intent: no tools, numbers only from the user,
// bare integers up to ten not checked).
func adviceRequest(stream bool) []byte {
	s := ""
	if stream {
		s = `,"stream":true`
	}
	return []byte(`{"model":"m","messages":[{"role":"user","content":"Come posso aumentare il fatturato?"}]` + s + `}`)
}

// attack is one attack: the upstream's answer (plain and streamed; "" when the family has
// no such form) and what it tries to get past the gateway.
type attack struct {
	name           string
	status         int    // the upstream's status; 0 means 200
	plain, stream  string // the answer's body; for stream, the SSE body
	blocked        string // a blocked tool a client must not receive as a call (but in monitor mode)
	blockedCode    string // the code error mode blocks it with, when not tool_not_allowed
	invented       string // an invented number no client may read (but in monitor mode)
	refused        string // the answer cannot be forwarded as judged: the code of the 502 / error event
	neverForwarded string // text no client may read in any mode (dropped fields)
	advice         bool   // asked as adviceRequest, not attackRequest
}

const inventedNumber = "99.999"

// answerMsg is a plain completion with one choice whose message is msg (JSON members).
func answerMsg(msg string) string {
	return `{"id":"chatcmpl-x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant",` + msg + `}}]}`
}

// sseOf is a stream of chunks whose first choice's deltas are the given JSON members, then
// a stop and [DONE].
func sseOf(deltas ...string) string {
	var b strings.Builder
	for _, d := range deltas {
		fmt.Fprintf(&b, "data: {\"id\":\"chatcmpl-s\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{%s},\"finish_reason\":null}]}\n\n", d)
	}
	b.WriteString(`data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n")
	b.WriteString(sseDone)
	return b.String()
}

func attacks() []attack {
	blockedFn := `{"id":"c1","type":"function","function":{"name":"filter_data","arguments":"{}"}}`
	blockedDelta := `"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"filter_data","arguments":"{}"}}]`
	inv := `Il fatturato è ` + inventedNumber + ` €. `
	return []attack{
		// Answers Weir did not inspect: 2xx statuses other than 200.
		{name: "201 with a blocked call", status: 201, plain: answerMsg(`"content":null,"tool_calls":[` + blockedFn + `]`), stream: sseOf(`"role":"assistant"`, blockedDelta), blocked: "filter_data"},
		{name: "203 with an invented number", status: 203, plain: answerMsg(`"content":"` + inv + `"`), stream: sseOf(`"content":"` + inv + `"`), invented: inventedNumber},

		// Tool calls of other types.
		{name: "custom call of a blocked tool", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"custom","custom":{"name":"filter_data","input":"all rows"}}]`),
			stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"custom","custom":{"name":"filter_data","input":"all rows"}}]`), blocked: "filter_data"},
		{name: "custom call with a decoy function", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"custom","custom":{"name":"filter_data","input":"x"},"function":{"name":"execute_metric","arguments":"{}"}}]`),
			blocked: "filter_data"},
		{name: "a call of an unknown type", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"mcp","mcp":{"name":"filter_data"}}]`),
			stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"mcp","mcp":{"name":"filter_data"}}]`), refused: "upstream_invalid_response"},

		// Parser differentials: keys one client family reads and the other does not.
		{name: "Tool_calls alone", plain: answerMsg(`"content":null,"Tool_calls":[` + blockedFn + `]`), stream: sseOf(`"Tool_calls":[{"index":0,"id":"c1","function":{"name":"filter_data","arguments":"{}"}}]`), refused: "upstream_invalid_response"},
		{name: "tool_calls and Tool_calls", plain: answerMsg(`"content":null,"tool_calls":[],"Tool_calls":[` + blockedFn + `]`), refused: "upstream_ambiguous_response"},
		{name: "Content alone", plain: answerMsg(`"Content":"` + inv + `"`), stream: sseOf(`"Content":"` + inv + `"`), refused: "upstream_invalid_response"},
		{name: "content twice", plain: answerMsg(`"content":"Ecco.","content":"` + inv + `"`), stream: sseOf(`"content":"Ecco.","content":"` + inv + `"`), refused: "upstream_ambiguous_response"},
		{name: "Function beside function", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"execute_metric","arguments":"{}"},"Function":{"name":"filter_data","arguments":"{}"}}]`), refused: "upstream_ambiguous_response"},
		{name: "NAME alone", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"NAME":"filter_data","arguments":"{}"}}]`),
			stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"NAME":"filter_data","arguments":"{}"}}]`), refused: "upstream_invalid_response"},
		{name: "TEXT in a content part", plain: answerMsg(`"content":[{"type":"text","TEXT":"` + inv + `"}]`), refused: "upstream_invalid_response"},
		{name: "a key folding to tool_calls (U+017F)", plain: answerMsg(`"content":null,"tool_call\u017f":[` + blockedFn + `]`), refused: "upstream_invalid_response"},
		{name: "an escaped duplicate of tool_calls", plain: answerMsg(`"content":null,"tool_calls":[],"\u0074ool_calls":[` + blockedFn + `]`), refused: "upstream_ambiguous_response"},
		{name: "duplicate arguments keys", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"execute_metric","arguments":"{\"metric\":\"revenue\",\"metric\":\"rows\"}"}}]`), refused: "upstream_invalid_response"},

		// Text Weir must ground wherever a user reads it.
		{name: "refusal with an invented number", plain: answerMsg(`"content":null,"refusal":"` + inv + `"`), stream: sseOf(`"refusal":"` + inv + `"`), invented: inventedNumber},
		{name: "reasoning_content with an invented number", plain: answerMsg(`"content":"Il fatturato è 21.956,62 €.","reasoning_content":"` + inv + `"`),
			stream: sseOf(`"reasoning_content":"`+inv+`"`, `"content":"Il fatturato è 21.956,62 €."`), invented: inventedNumber},
		{name: "text parts with an invented number", plain: answerMsg(`"content":[{"type":"text","text":"Ecco. "},{"type":"output_text","text":"` + inv + `"}]`), invented: inventedNumber},
		{name: "a content part of another type", plain: answerMsg(`"content":[{"type":"image_url","image_url":{"url":"https://x/` + inventedNumber + `.png"}}]`), refused: "upstream_invalid_response"},
		{name: "logprobs carrying tokens", plain: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Il fatturato è 21.956,62 €."},"logprobs":{"content":[{"token":"` + inventedNumber + `","logprob":-0.1}]}}]}`,
			neverForwarded: inventedNumber},
		{name: "an audio transcript", plain: answerMsg(`"content":"Il fatturato è 21.956,62 €.","audio":{"id":"a","data":"","transcript":"` + inv + `"}`), neverForwarded: inventedNumber},
		{name: "annotations", plain: answerMsg(`"content":"Il fatturato è 21.956,62 €.","annotations":[{"type":"url_citation","url_citation":{"title":"` + inv + `","url":"https://x"}}]`), neverForwarded: inventedNumber},
		{name: "an unknown message field", plain: answerMsg(`"content":"Il fatturato è 21.956,62 €.","reasoning":"` + inv + `"`), stream: sseOf(`"content":"Il fatturato è 21.956,62 €.","reasoning":"` + inv + `"`), neverForwarded: inventedNumber},

		// Numbers Weir must read as readers see them (grounding normalises before it reads).
		{name: "fullwidth digits", plain: answerMsg(`"content":"Il fatturato è ９９９９９ €."`), stream: sseOf(`"content":"Il fatturato è ９９９９９ €."`), invented: "９９９９９"},
		{name: "Arabic-Indic digits", plain: answerMsg(`"content":"Il fatturato è ٩٩٩٩٩ €."`), stream: sseOf(`"content":"Il fatturato è ٩٩٩٩٩ €."`), invented: "٩٩٩٩٩"},
		{name: "digits split by a zero-width space", plain: answerMsg(`"content":"Il fatturato è 99\u200b999 €."`), stream: sseOf(`"content":"Il fatturato è 99\u200b999 €."`), invented: "99\u200b999"},
		{name: "scientific notation", plain: answerMsg(`"content":"Il fatturato è 9.9e4 €."`), stream: sseOf(`"content":"Il fatturato è 9.9e4 €."`), invented: "9.9e4"},
		// Forms from the black-box red team: an amount a reader sees however it is written.
		{name: "an amount after a label", plain: answerMsg(`"content":"Totale (rif. ID-48213.77) euro."`), stream: sseOf(`"content":"Totale (rif. ID-48213.77) euro."`), invented: "48213.77"},
		{name: "amounts joined by a dash", plain: answerMsg(`"content":"Il fatturato è 21956.62-48213.77 euro."`), stream: sseOf(`"content":"Il fatturato è 21956.62-48213.77 euro."`), invented: "48213.77"},
		{name: "amounts joined by an x", plain: answerMsg(`"content":"Il fatturato è 21956.62x48213.77 euro."`), stream: sseOf(`"content":"Il fatturato è 21956.62x48213.77 euro."`), invented: "48213.77"},
		{name: "a long exponent", plain: answerMsg(`"content":"Il fatturato è 4.821377e+0004 €."`), stream: sseOf(`"content":"Il fatturato è 4.821377e+0004 €."`), invented: "4.821377e+0004"},
		{name: "a hexadecimal amount", plain: answerMsg(`"content":"Il fatturato è 0xBC55 €."`), stream: sseOf(`"content":"Il fatturato è 0xBC55 €."`), invented: "0xBC55"},
		{name: "HTML character references", plain: answerMsg(`"content":"Il fatturato è &#52;&#56;&#50;&#49;&#51;.&#55;&#55; €."`), stream: sseOf(`"content":"Il fatturato è &#52;&#56;&#50;&#49;&#51;.&#55;&#55; €."`), invented: "&#52;&#56;&#50;&#49;&#51;"},
		{name: "an amount in a link's query", plain: answerMsg(`"content":"Ecco il [report](https://example.invalid/r?total=48213.77)."`), stream: sseOf(`"content":"Ecco il [report](https://example.invalid/r?total=48213.77)."`), invented: "48213.77"},
		{name: "digits spelled one by one", plain: answerMsg(`"content":"Il fatturato è quattro-otto-due-uno-tre virgola sette-sette euro."`), stream: sseOf(`"content":"Il fatturato è quattro-otto-due-uno-tre virgola sette-sette euro."`), invented: "quattro-otto-due-uno-tre"},
		{name: "an amount in a code span", plain: answerMsg(`"content":"Il fatturato è ` + "`48213.77`" + ` €."`), stream: sseOf(`"content":"Il fatturato è ` + "`48213.77`" + ` €."`), invented: "48213.77"},
		{name: "an amount in a code block", plain: answerMsg(`"content":"Il fatturato:\n` + "```" + `text\nTotale 48.213,77 €\n` + "```" + `"`), stream: sseOf(`"content":"Il fatturato:\n` + "```" + `text\nTotale 48.213,77 €\n` + "```" + `"`), invented: "48.213,77"},
		// Markup a rendered answer hides splits a number into small integers, which advice
		// does not check.
		{name: "digits split by emphasis", advice: true, plain: answerMsg(`"content":"Punta a 4*8*2*1*3 di fatturato."`), stream: sseOf(`"content":"Punta a 4*8*2*1*3 di fatturato."`), invented: "4*8*2*1*3"},
		{name: "digits split by HTML tags", advice: true, plain: answerMsg(`"content":"Punta a 4<b>8</b>2<b>1</b>3 di fatturato."`), stream: sseOf(`"content":"Punta a 4<b>8</b>2<b>1</b>3 di fatturato."`), invented: "4<b>8</b>2"},
		{name: "digits split by HTML comments", advice: true, plain: answerMsg(`"content":"Punta a 4<!-- -->8<!-- -->213 di fatturato."`), stream: sseOf(`"content":"Punta a 4<!-- -->8<!-- -->213 di fatturato."`), invented: "4<!-- -->8"},
		{name: "digits split by code spans", advice: true, plain: answerMsg(`"content":"Punta a 4` + "`8`2`1`" + `3 di fatturato."`), stream: sseOf(`"content":"Punta a 4` + "`8`2`1`" + `3 di fatturato."`), invented: "4`8`2"},
		{name: "number words", plain: answerMsg(`"content":"Il fatturato è quarantottomiladuecentotredici euro."`), stream: sseOf(`"content":"Il fatturato è quarantottomiladuecentotredici euro."`), invented: "quarantottomiladuecentotredici"},

		// Every choice is judged.
		{name: "a second choice with a blocked call", plain: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[` +
			`{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Il fatturato è 21.956,62 €."}},` +
			`{"index":1,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[` + blockedFn + `]}}]}`, blocked: "filter_data"},
		{name: "a second choice with a blocked call", stream: `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Il fatturato è 21.956,62 €."},"finish_reason":null},{"index":1,"delta":` + `{` + blockedDelta + `},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" + sseDone, blocked: "filter_data"},
		{name: "a second choice with an invented number", stream: `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":1,"delta":{"content":"` + inv + `"},"finish_reason":null}]}` + "\n\n" +
			`data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Ok."},"finish_reason":"stop"}]}` + "\n\n" + sseDone, invented: inventedNumber},
		{name: "two choices with one index", plain: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[` +
			`{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Ok."}},` +
			`{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"` + inv + `"}}]}`, refused: "upstream_ambiguous_response"},
		{name: "a blocked name split across fragments", stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"filter_","arguments":""}}]`,
			`"tool_calls":[{"index":0,"function":{"name":"data","arguments":"{}"}}]`), blocked: "filter_data"},
		{name: "a second id at one index", stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"execute_metric","arguments":"{}"}}]`,
			`"tool_calls":[{"index":0,"id":"c2","type":"function","function":{"name":"filter_data","arguments":"{}"}}]`), refused: "upstream_ambiguous_response"},
		{name: "a second type at one index", stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"execute_metric","arguments":"{}"}}]`,
			`"tool_calls":[{"index":0,"type":"custom","custom":{"name":"filter_data","input":"x"}}]`), refused: "upstream_ambiguous_response"},
		{name: "a blocked call with arguments that are not JSON", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"filter_data","arguments":"{}{}"}}]`),
			stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"filter_data","arguments":"{}{}"}}]`), blocked: "filter_data", blockedCode: "tool_arguments_invalid"},
		// Arguments as a JSON object (some providers send one) are judged and forwarded as the
		// string clients expect; a stream's fragments must be strings to be joined.
		{name: "arguments as an object", plain: answerMsg(`"content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"filter_data","arguments":{"limit":10}}}]`), blocked: "filter_data"},
		{name: "a fragment's arguments as an object", stream: sseOf(`"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"filter_data","arguments":{"limit":10}}}]`), refused: "upstream_invalid_response"},
		{name: "content as an object", plain: answerMsg(`"content":{"text":"` + inv + `"}`), stream: sseOf(`"content":{"text":"` + inv + `"}`), refused: "upstream_invalid_response"},
		{name: "a tool call in a tool role message", plain: `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"tool","content":null,"tool_calls":[` + blockedFn + `]}}]}`, blocked: "filter_data"},
		{name: "a legacy function_call in a delta", stream: sseOf(`"function_call":{"name":"filter_data","arguments":"{}"}`), refused: "upstream_invalid_response"},
	}
}

// TestAttacks runs every attack in every mode and form.
func TestAttacks(t *testing.T) {
	for _, mode := range []struct{ name, mode, onViolation string }{
		{"error", "enforce", "error"}, {"rewrite", "enforce", "rewrite"}, {"monitor", "monitor", "error"},
	} {
		e := startGateway(t, gwParams{mode: mode.mode, onViolation: mode.onViolation})
		for _, a := range attacks() {
			for _, stream := range []bool{false, true} {
				body := a.plain
				if stream {
					body = a.stream
				}
				if body == "" {
					continue
				}
				name := mode.name + "/" + a.name + map[bool]string{true: "/stream", false: "/plain"}[stream]
				t.Run(name, func(t *testing.T) {
					e.up.set(rawReply(a.status, stream, body))
					req := attackRequest(stream)
					if a.advice {
						req = adviceRequest(stream)
					}
					status, resp, h := e.post(t, "/v1/chat/completions", req)
					checkAttack(t, e, a, mode.name, stream, status, resp, h)
				})
			}
		}
	}
}

// rawReply answers with body as it is.
func rawReply(status int, stream bool, body string) func(*fasthttp.RequestCtx, map[string]any) {
	return func(rc *fasthttp.RequestCtx, req map[string]any) {
		if status != 0 {
			rc.SetStatusCode(status)
		}
		if stream {
			rc.SetContentType("text/event-stream")
		} else {
			rc.SetContentType("application/json")
		}
		rc.SetBodyString(body)
	}
}

// checkAttack checks what the client got for one attack in one mode and form.
func checkAttack(t *testing.T, e *testEnv, a attack, mode string, stream bool, status int, body []byte, h *fasthttp.ResponseHeader) {
	t.Helper()
	code, views := readAnswer(t, status, stream, body)
	rec, ok := e.recordOf(string(h.Peek("X-Weir-Decision-Id")))
	if !ok {
		t.Fatalf("no audit record for the decision")
	}
	if a.neverForwarded != "" && strings.Contains(string(body), a.neverForwarded) {
		t.Fatalf("the client got %q, which Weir never forwards: %.400s", a.neverForwarded, body)
	}
	if a.invented != "" && mode != "monitor" && strings.Contains(string(body), a.invented) {
		t.Fatalf("the invented number reached the client (an error message may not quote it either): %.400s", body)
	}
	wantRefused, wantBlocked := a.refused, ""
	switch {
	case a.blocked != "" && mode == "error":
		wantBlocked = "tool_not_allowed"
		if a.blockedCode != "" {
			wantBlocked = a.blockedCode
		}
	case a.invented != "" && mode == "error":
		wantBlocked = "ungrounded_number"
	}
	switch {
	case wantRefused != "":
		if code != wantRefused || rec.Outcome != audit.OutcomeError {
			t.Fatalf("got status %d code %q outcome %s, want the answer refused with %s: %.400s", status, code, rec.Outcome, wantRefused, body)
		}
	case wantBlocked != "":
		if code != wantBlocked || rec.Outcome != audit.OutcomeBlocked {
			t.Fatalf("got status %d code %q outcome %s, want it blocked with %s: %.400s", status, code, rec.Outcome, wantBlocked, body)
		}
	case code != "":
		t.Fatalf("got status %d code %q, want an answer: %.400s", status, code, body)
	}
	for _, v := range views {
		for _, c := range v.Choices {
			for _, call := range c.Calls {
				if a.blocked != "" && call.Name == a.blocked && mode != "monitor" {
					t.Fatalf("the blocked call %s reached the client: %.400s", call.Name, body)
				}
			}
			for _, s := range c.Texts() {
				if a.invented != "" && strings.Contains(s, a.invented) && mode != "monitor" {
					t.Fatalf("the invented number reached the client: %q", s)
				}
			}
		}
	}
	if mode == "monitor" && wantRefused == "" && (a.blocked != "" || a.invented != "") && rec.Outcome != audit.OutcomeMonitored {
		t.Errorf("monitor recorded outcome %s, want monitored", rec.Outcome)
	}
	if mode == "rewrite" && wantRefused == "" && (a.blocked != "" || a.invented != "") && rec.Outcome != audit.OutcomeModified {
		t.Errorf("rewrite recorded outcome %s, want modified", rec.Outcome)
	}
}

// readAnswer returns the error code the client got (from an error body or a stream's error
// event, "" for none) and both client families' views of an answer.
func readAnswer(t *testing.T, status int, stream bool, body []byte) (string, []clientview.View) {
	t.Helper()
	var eb errorBody
	if !stream || status != 200 {
		if status != 200 {
			if err := json.Unmarshal(body, &eb); err != nil {
				t.Fatalf("status %d with a body that is not an OpenAI error: %q", status, body)
			}
			return eb.Error.Code, nil
		}
		exact, fold, err := clientview.ReadCompletion(body)
		if err != nil {
			t.Fatal(err)
		}
		return "", []clientview.View{exact, fold}
	}
	exact, fold, err := clientview.ReadStream(body)
	if err != nil {
		t.Fatal(err)
	}
	code := ""
	if exact.Error != "" {
		evs, _ := parseAll(t, body)
		for _, ev := range evs {
			if json.Unmarshal(ev.data, &eb) == nil && eb.Error.Code != "" {
				code = eb.Error.Code
			}
		}
	}
	return code, []clientview.View{exact, fold}
}
