package policies

import (
	"strings"
	"testing"
)

func TestParseArguments(t *testing.T) {
	tests := []struct {
		name, raw string
		limit     int
		problem   string // substring; "" means valid
	}{
		{"object", `{"metricName":"revenue","n":1.50}`, 100, ""},
		{"empty means none", "", 100, ""},
		{"blank means none", " \n\t", 100, ""},
		{"nested", `{"a":{"b":[1,{"c":null}]}}`, 100, ""},
		{"truncated", `{"a":`, 100, "invalid JSON"},
		{"single quotes", `{'a':1}`, 100, "invalid JSON"},
		{"two objects", `{"a":1}{"b":2}`, 100, "data after"},
		{"trailing garbage", `{"a":1} x`, 100, "data after"},
		{"array", `[1]`, 100, "must be a JSON object, got array"},
		{"string", `"{}"`, 100, "got string"},
		{"null", `null`, 100, "got null"},
		{"at the limit", `{"a":"12345"}`, 13, ""},
		{"over the limit", `{"a":"123456"}`, 13, "over the limit of 13"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args, problem := ParseArguments(tc.raw, tc.limit)
			if tc.problem == "" {
				if problem != "" || args == nil {
					t.Errorf("got %v, %q; want valid", args, problem)
				}
				return
			}
			if !strings.Contains(problem, tc.problem) || args != nil {
				t.Errorf("got %v, %q; want problem %q and nil arguments", args, problem, tc.problem)
			}
		})
	}
}
