package policies

import (
	"context"
	"testing"
)

func BenchmarkRequestDecision(b *testing.B) {
	bu := loadT(b, "../examples/analytics/policies")
	ctx := context.Background()
	in := &Input{Route: Route{Name: "chat", Surface: "openai"}, Classification: Classification{Intent: "analytics", Confidence: 0.9, Source: "rules", Rules: []string{"revenue"}}}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if d, err := bu.Request(ctx, in); err != nil || !d.Allow {
			b.Fatal(d, err)
		}
	}
}

// BenchmarkToolsDecision measures the inspect stage: three proposed calls, one blocked.
func BenchmarkToolsDecision(b *testing.B) {
	bu := loadT(b, "../examples/analytics/policies")
	ctx := context.Background()
	in := &Input{Route: Route{Name: "chat", Surface: "openai"}, Classification: Classification{Intent: "analytics", Confidence: 0.9, Source: "rules"}}
	in.ToolCalls = []ToolCall{
		bu.ToolCall("call_1", "execute_metric", `{"metricName":"revenue","period":"2024"}`),
		bu.ToolCall("call_2", "compare_periods", `{"metricName":"revenue","from":"2023","to":"2024"}`),
		bu.ToolCall("call_3", "filter_data", `{"limit":10}`),
	}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if d, err := bu.Tools(ctx, in); err != nil || d.Allow || len(d.Calls) != 3 {
			b.Fatal(d, err)
		}
	}
}

// BenchmarkToolsDecisionTrade adds argument validation in Rego (query_data) to the calls.
func BenchmarkToolsDecisionTrade(b *testing.B) {
	bu := loadT(b, "../examples/trade/policies")
	ctx := context.Background()
	q := `{"type":"detail","filters":[{"field":"goodsName","operator":"contains","value":"Laptop"},{"field":"totalValueUSD","operator":"greaterThan","value":50000}],"limit":50,"confidence":0.9}`
	in := &Input{Classification: Classification{Intent: "detail"}}
	in.ToolCalls = []ToolCall{bu.ToolCall("1", "query_data", q), bu.ToolCall("2", "query_data", q), bu.ToolCall("3", "query_data", q)}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if d, err := bu.Tools(ctx, in); err != nil || !d.Allow {
			b.Fatal(d, err)
		}
	}
}

// BenchmarkResponseDecision measures the validate stage: three grounded numbers, one of
// them a derivation, after a tool call.
func BenchmarkResponseDecision(b *testing.B) {
	bu := loadT(b, "../examples/analytics/policies")
	ctx := context.Background()
	in := &Input{Route: Route{Name: "chat", Surface: "openai"}, Classification: Classification{Intent: "analytics", Confidence: 0.9, Source: "rules"}}
	in.ToolCalls = []ToolCall{}
	in.ToolsCalled = []string{"execute_metric"}
	in.Answer.Numbers = []Number{
		{Text: "21.956,62 €", Value: 21956.62, Grounded: true, Source: "tool:execute_metric $.value", SourceKind: "tool"},
		{Text: "+50%", Value: 50, Grounded: true, Source: "user", SourceKind: "user"},
		{Text: "32.934,93 €", Value: 32934.93, Grounded: true, Source: "tool:execute_metric $.value; user", SourceKind: "tool", Derivation: "21956.62 × (1 + 50%)"},
	}
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		if d, err := bu.Response(ctx, in); err != nil || !d.Allow {
			b.Fatal(d, err)
		}
	}
}
