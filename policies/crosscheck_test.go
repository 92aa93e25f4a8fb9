package policies

import (
	"strings"
	"testing"
)

func TestCrossCheck(t *testing.T) {
	b := loadT(t, "../examples/analytics/policies")
	tests := []struct {
		name    string
		intents []string
		routes  map[string][]string
		want    []string
	}{
		{"consistent", []string{"analytics", "strategy", "data_preview", "conversational"},
			map[string][]string{"analytics": {"execute_metric", "compare_periods"}, "data_preview": {"filter_data"}}, nil},
		{"intent without policy", []string{"analytics", "forecast"}, nil, []string{`intent "forecast" of the rule pack has no policy entry`}},
		{"unknown tool", []string{"analytics"}, map[string][]string{"analytics": {"execute_sql"}}, []string{`names tool "execute_sql", which the policy does not know`}},
		{"tool not allowed for the intent", nil, map[string][]string{"analytics": {"filter_data"}}, []string{`does not allow for "analytics"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			errs := CrossCheck(b, tc.intents, tc.routes)
			if len(errs) != len(tc.want) {
				t.Fatalf("got %v, want %d errors", errs, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(errs[i].Error(), w) {
					t.Errorf("error %q lacks %q", errs[i], w)
				}
			}
		})
	}
}
