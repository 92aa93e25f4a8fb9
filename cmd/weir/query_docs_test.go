package main

import (
	"strings"
	"testing"
)

// TestQueryShowsPassages: weir query on the clinical example, with no model reachable,
// answers a protocol question with the passages quoted and cited, lists them with file and
// page in the metadata, and --explain shows the search.
func TestQueryShowsPassages(t *testing.T) {
	t.Setenv("WEIR_LLM_URL", "http://127.0.0.1:9/v1")
	t.Setenv("WEIR_AUDIT_PATH", "/dev/null")
	code, out, errOut := runCLI(t, "", "query", "--config", clinicalConfig, "--explain", "what is the primary endpoint?")
	if code != 0 {
		t.Fatalf("code %d: %s %s", code, out, errOut)
	}
	for _, want := range []string{
		"read 1: search_protocol on pdf (document search), allowed",
		`search: "what is the primary endpoint?", limit 5`,
		"found 5 passages: protocol.pdf p. 1,",
		`"answer": "From the study documents:\nFrom protocol.pdf p. 1: \"…The primary endpoint is the change from baseline (Day 1) in the ISI total score at Week 12.`,
		`"file": "docs/protocol.pdf",`, `"page": 1,`, `"cite": "protocol.pdf p. 1"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
