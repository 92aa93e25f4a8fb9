package loadtest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Scenario is one kind of request the harness sends: a body, the path it goes to and the
// canned answer the upstream gives it (named in the request body's user field, which every
// proxy forwards: see answerName).
type Scenario struct {
	// Key names the scenario in the JSON report: tools0, tools1, tools3, stream, query.
	Key string
	// Label names it in the table.
	Label string
	// Path is the request path on the target.
	Path string
	// Body is the request body.
	Body []byte
	// Answer is the canned answer's name, sent in the body's user field; "" for the query surface,
	// which answers from data without the upstream.
	Answer string
	// GatewayOnly scenarios are not driven through the passthrough: the query surface
	// answers from data, so a bare proxy hop has no equivalent.
	GatewayOnly bool
	// Optional scenarios are reported as not available when the gateway answers 404
	// (the config serves no such endpoint) instead of failing the run.
	Optional bool
	// expect must appear in a correct answer; the probe before the load checks it, so a
	// gateway that blocks or rewrites the answer is reported instead of measured.
	expect []string
}

// The analytics conversation the scenarios are taken from (examples/analytics): the rules
// classify every question as analytics with high confidence, so no fallback model is asked,
// and every answer is one the example's policies allow, so the gateway runs every stage and
// forwards the answer unchanged.
const (
	systemPrompt = "Sei l'assistente di analisi di un ristorante. Rispondi in italiano, in modo conciso. " +
		"Usa sempre gli strumenti per ottenere i numeri: non inventare mai valori. " +
		"Gli strumenti disponibili calcolano metriche (fatturato, food cost, ordini, ticket medio, margine), " +
		"aggregazioni per categoria, cameriere o mese, e confronti tra periodi."
	answerText = "Nel 2024 il fatturato è stato di 21956.62 € su 941 ordini, con un ticket medio di 23.33 €. " +
		"Il food cost è stato di 7689.61 €, cioè il 35.02% del fatturato, per un margine lordo di 14267.01 €. " +
		"I primi piatti sono la categoria più forte, con 12345.67 € di fatturato."
)

// toolDefs are the tools the application offers the model, with their JSON Schemas.
var toolDefs = []any{
	toolDef("execute_metric", "Calcola una metrica sui dati degli ordini.", map[string]any{
		"metric": map[string]any{"type": "string", "enum": []string{"revenue", "food_cost", "order_count", "ticket_medio", "gross_margin"}},
		"year":   map[string]any{"type": "integer"},
		"month":  map[string]any{"type": "integer", "minimum": 1, "maximum": 12},
	}),
	toolDef("aggregate_group", "Aggrega una metrica per una dimensione.", map[string]any{
		"metric":   map[string]any{"type": "string"},
		"group_by": map[string]any{"type": "string", "enum": []string{"category", "waiter", "month", "payment_method"}},
		"year":     map[string]any{"type": "integer"},
		"limit":    map[string]any{"type": "integer"},
	}),
	toolDef("compare_periods", "Confronta una metrica tra due periodi.", map[string]any{
		"metric": map[string]any{"type": "string"},
		"from":   map[string]any{"type": "string"},
		"to":     map[string]any{"type": "string"},
	}),
	toolDef("filter_data", "Restituisce righe grezze degli ordini.", map[string]any{
		"limit": map[string]any{"type": "integer", "maximum": 100},
	}),
}

func toolDef(name, desc string, props map[string]any) any {
	return map[string]any{"type": "function", "function": map[string]any{
		"name": name, "description": desc,
		"parameters": map[string]any{"type": "object", "properties": props},
	}}
}

// call is a tool call in a canned answer or in the conversation.
type call struct{ id, name, args string }

var (
	oneCall    = []call{{"call_rev", "execute_metric", `{"metric":"revenue","year":2024}`}}
	threeCalls = []call{
		{"call_rev", "execute_metric", `{"metric":"revenue","year":2024}`},
		{"call_cat", "aggregate_group", `{"metric":"revenue","group_by":"category","year":2024}`},
		{"call_cmp", "compare_periods", `{"metric":"revenue","from":"2023","to":"2024"}`},
	}
	// toolResults answer threeCalls in the final-answer conversation; every number of
	// answerText is in them, so grounding passes.
	toolResults = []string{
		`{"metric":"revenue","year":2024,"value":21956.62,"order_count":941,"ticket_medio":23.33,"food_cost":7689.61,"food_cost_percent":35.02,"gross_margin":14267.01}`,
		`{"metric":"revenue","group_by":"category","rows":[{"category":"primi","revenue":12345.67},{"category":"secondi","revenue":6210.4},{"category":"dolci","revenue":2100.55},{"category":"bevande","revenue":1300.0}]}`,
		`{"metric":"revenue","from":{"period":"2023","value":19876.1},"to":{"period":"2024","value":21956.62},"change_percent":10.47}`,
	}
)

// Scenarios returns the requests the harness drives, in table order.
func Scenarios() []Scenario {
	final := finalConversation()
	return []Scenario{
		{Key: "tools0", Label: "0 tool calls", Path: "/v1/chat/completions", Answer: "text",
			Body: chatBody(final, "text", false), expect: []string{"21956.62"}},
		{Key: "tools1", Label: "1 tool call", Path: "/v1/chat/completions", Answer: "tools1",
			Body: chatBody(question("Qual è il fatturato totale del 2024?"), "tools1", false), expect: []string{"execute_metric"}},
		{Key: "tools3", Label: "3 tool calls", Path: "/v1/chat/completions", Answer: "tools3",
			Body:   chatBody(question("Confronta il fatturato 2024 con il 2023 per categoria"), "tools3", false),
			expect: []string{"execute_metric", "aggregate_group", "compare_periods"}},
		{Key: "stream", Label: "stream, 0 calls", Path: "/v1/chat/completions", Answer: "stream",
			Body: chatBody(final, "stream", true), expect: []string{"finish_reason\":\"stop", "[DONE]"}},
		{Key: "query", Label: "query surface", Path: "/v1/query", GatewayOnly: true, Optional: true,
			Body: []byte(`{"query":"How many orders?"}`)},
	}
}

func question(q string) []any {
	return []any{
		map[string]any{"role": "system", "content": systemPrompt},
		map[string]any{"role": "user", "content": q},
	}
}

// finalConversation is the second turn of an analytics question: the model called three
// tools and now writes the answer, whose numbers the gateway grounds in the tool results.
func finalConversation() []any {
	msgs := question("Fammi un riepilogo del 2024: fatturato, food cost, margine e la categoria migliore.")
	var calls []any
	for _, c := range threeCalls {
		calls = append(calls, map[string]any{"id": c.id, "type": "function",
			"function": map[string]any{"name": c.name, "arguments": c.args}})
	}
	msgs = append(msgs, map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
	for i, c := range threeCalls {
		msgs = append(msgs, map[string]any{"role": "tool", "tool_call_id": c.id, "content": toolResults[i]})
	}
	return msgs
}

func chatBody(msgs []any, answer string, stream bool) []byte {
	req := map[string]any{"model": "gpt-4o-mini", "messages": msgs, "tools": toolDefs, "temperature": 0, "user": answerUser + answer}
	if stream {
		req["stream"] = true
		req["stream_options"] = map[string]any{"include_usage": true}
	}
	return mustJSON(req)
}

// cannedAnswers are the upstream's answers by name, encoded once.
func cannedAnswers() map[string][]byte {
	return map[string][]byte{
		"text":   completion(answerText, nil),
		"tools1": completion("", oneCall),
		"tools3": completion("", threeCalls),
		"stream": streamed(answerText, 8),
		// The fallback classifier's question (no answer named): only asked when the rules
		// are unsure, which the scenarios avoid.
		"": completion(`{"intent": "analytics", "confidence": 0.9}`, nil),
	}
}

func completion(content string, calls []call) []byte {
	msg := map[string]any{"role": "assistant", "content": content}
	finish := "stop"
	if len(calls) > 0 {
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, map[string]any{"id": c.id, "type": "function",
				"function": map[string]any{"name": c.name, "arguments": c.args}})
		}
		msg["content"], msg["tool_calls"], finish = nil, tcs, "tool_calls"
	}
	return mustJSON(map[string]any{
		"id": "chatcmpl-bench", "object": "chat.completion", "created": 1767225600, "model": "gpt-4o-mini",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 850, "completion_tokens": 60, "total_tokens": 910},
	})
}

// streamed is content as an OpenAI event stream cut into deltas of size bytes (about two
// tokens, as real servers send), with a usage chunk and [DONE].
func streamed(content string, size int) []byte {
	var b strings.Builder
	event := func(delta any, finish any, usage any) {
		chunk := map[string]any{"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1767225600,
			"model": "gpt-4o-mini", "choices": []any{}}
		if delta != nil {
			chunk["choices"] = []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}
		}
		if usage != nil {
			chunk["usage"] = usage
		}
		fmt.Fprintf(&b, "data: %s\n\n", mustJSON(chunk))
	}
	event(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	runes := []rune(content)
	for i := 0; i < len(runes); {
		j := i
		for n := 0; j < len(runes) && n < size; j++ {
			n += len(string(runes[j]))
		}
		event(map[string]any{"content": string(runes[i:j])}, nil, nil)
		i = j
	}
	event(map[string]any{}, "stop", nil)
	event(nil, nil, map[string]any{"prompt_tokens": 850, "completion_tokens": 60, "total_tokens": 910})
	b.WriteString("data: [DONE]\n\n")
	return []byte(b.String())
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only static values are encoded
	}
	return b
}
