package policies

import (
	"reflect"
	"strings"
	"testing"
)

// BenchmarkParseArguments parses a typical tool call's arguments.
func BenchmarkParseArguments(b *testing.B) {
	raw := `{"path": "/srv/reports/q3.csv", "limit": 25, "recursive": false, "tags": ["finance", "q3"], "opts": {"depth": 2, "ratio": 0.5}}`
	b.ReportAllocs()
	for b.Loop() {
		if _, p := ParseArguments(raw, 0); p != "" {
			b.Fatal(p)
		}
	}
}

// TestParseArgumentsFast checks that typical arguments take the fast path and that, on the
// whole corpus, whatever it accepts decodes exactly as encoding/json does.
func TestParseArgumentsFast(t *testing.T) {
	for _, raw := range []string{`{}`, `{"a":1,"a":[true,false,null,-0.5e+3]}`, "{\"k\":\"h\u00e9llo\",\"n\":{\"m\":[]}}"} {
		if _, ok := parseObjectFast(raw); !ok {
			t.Errorf("%q: fast path refused it", raw)
		}
	}
	for _, raw := range []string{`{"a":"\n"}`, "{\"a\":\"\xff\"}", `{"a":01}`, `{"a":1}x`, `[1]`, `{"a":1,}`} {
		if _, ok := parseObjectFast(raw); ok {
			t.Errorf("%q: fast path took it", raw)
		}
	}
	for _, raw := range argumentsCorpus {
		want, _ := parseArgumentsBytes(raw, 0)
		if got, ok := parseObjectFast(strings.TrimSpace(raw)); ok && !reflect.DeepEqual(any(got), want) {
			t.Errorf("%q: got %#v, want %#v", raw, got, want)
		}
	}
}
