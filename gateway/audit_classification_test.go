package gateway

import (
	"testing"
	"time"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/rules"
)

func TestRecordClassification(t *testing.T) {
	tests := []struct {
		name  string
		class rules.Classification
		want  audit.Record
	}{
		{"rules decided", rules.Classification{Source: rules.SourceRules, Reason: "rules scored analytics highest"},
			audit.Record{Reason: "rules scored analytics highest"}},
		{"the model decided", rules.Classification{Source: rules.SourceLLM, Reason: "r; the fallback classifier decided",
			Fallback: &rules.FallbackInfo{Model: "gpt-4o-mini", Latency: 1500 * time.Microsecond, Tokens: 612, Intent: "analytics"}},
			audit.Record{Reason: "r; the fallback classifier decided", Fallback: &audit.Fallback{Model: "gpt-4o-mini", LatencyUS: 1500, Tokens: 612, Intent: "analytics"}}},
		{"the model failed", rules.Classification{Source: rules.SourceDefault, Reason: "r; the pack default applies",
			Fallback: &rules.FallbackInfo{Model: "m", Latency: 2 * time.Second, Error: "llm timeout: context deadline exceeded"}},
			audit.Record{Reason: "r; the pack default applies", Fallback: &audit.Fallback{Model: "m", LatencyUS: 2e6, Error: "timeout"}}},
		// The error's text may quote the upstream's body: only its reason is recorded.
		{"the model's error quotes its body", rules.Classification{Source: rules.SourceDefault, Reason: "r",
			Fallback: &rules.FallbackInfo{Model: "m", Error: `llm upstream_error: status 401: {"error":"key sk-live-123 revoked"}`}},
			audit.Record{Reason: "r", Fallback: &audit.Fallback{Model: "m", Error: "upstream_error"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rec audit.Record
			recordClassification(&rec, &tc.class)
			if rec.Reason != tc.want.Reason || (rec.Fallback == nil) != (tc.want.Fallback == nil) ||
				(rec.Fallback != nil && *rec.Fallback != *tc.want.Fallback) {
				t.Errorf("got %q %+v, want %q %+v", rec.Reason, rec.Fallback, tc.want.Reason, tc.want.Fallback)
			}
		})
	}
}
