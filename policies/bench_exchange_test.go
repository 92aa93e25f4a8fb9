package policies

import (
	"context"
	"testing"
)

// tools1Exchange runs the policy part of the load harness's tools1 request (gateway
// exchange.go and inspect.go) on one fresh Input, as the gateway does per request: an
// analytics question the rules classified, the request decision; the model proposes one
// execute_metric call, the tools decision; the answer has no text, the response decision.
func tools1Exchange(b *Bundle, ctx context.Context, filters map[string]any) error {
	in := Input{
		Route: Route{Name: "chat", Surface: "openai"},
		Classification: Classification{Intent: "analytics", Confidence: 0.9179, Source: "rules",
			Rules:   []string{"analytics.metric", "analytics.value_question", "analytics.metric_in_period"},
			Filters: filters},
		ToolsCalled: []string{},
	}
	d, err := b.Request(ctx, &in)
	if err != nil || !d.Allow {
		return errorf("bench", "request: %+v %v", d, err)
	}
	tin := in
	tin.ToolCalls = []ToolCall{b.ToolCall("call_1", "execute_metric", `{"metric":"revenue","year":2024}`)}
	t, err := b.Tools(ctx, &tin)
	if err != nil || !t.Allow {
		return errorf("bench", "tools: %+v %v", t, err)
	}
	rin := in
	rin.ToolCalls = []ToolCall{{ID: "call_1", Name: "execute_metric"}}
	r, err := b.Response(ctx, &rin)
	if err != nil || !r.Allow {
		return errorf("bench", "response: %+v %v", r, err)
	}
	return nil
}

// BenchmarkExchangeTools1 measures the three decisions of the load harness's tools1
// request on the analytics bundle (examples/analytics/weir.yaml).
func BenchmarkExchangeTools1(b *testing.B) {
	bu := loadT(b, "../examples/analytics/policies")
	// The gateway passes a context it cancels on shutdown (Gateway.base).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	filters := map[string]any{"metric": "revenue", "year": 2024}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if err := tools1Exchange(bu, ctx, filters); err != nil {
			b.Fatal(err)
		}
	}
}
