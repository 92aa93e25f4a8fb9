package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/weirgw/weir/gateway/query"
)

// writeExplain shows how a question was read, from the response's metadata: the intent and
// route, the semantic query, each read with its tool, verdict and SQL (a document search
// with its text and the passages found), and what the query does not cover.
func writeExplain(w io.Writer, body []byte) {
	var r struct {
		Metadata *query.Metadata `json:"metadata"`
	}
	if json.Unmarshal(body, &r) != nil || r.Metadata == nil {
		fmt.Fprintln(w, "explain: the response has no metadata")
		return
	}
	md := r.Metadata
	fmt.Fprintf(w, "intent: %s (%s, confidence %.2f), route: %s\n", md.Intent, md.Classification, md.Confidence, md.Route)
	if sq := md.SemanticQuery; sq != nil {
		b, _ := json.MarshalIndent(sq, "  ", "  ")
		fmt.Fprintf(w, "semantic query:\n  %s\n", b)
		if len(sq.Uncovered) > 0 {
			fmt.Fprintf(w, "not covered (so no number is given for it):\n  - %s\n", strings.Join(sq.Uncovered, "\n  - "))
		}
	}
	for i, s := range md.Steps {
		verdict := "allowed"
		if !s.Allowed {
			verdict = "denied by policy, not run"
		}
		fmt.Fprintf(w, "read %d: %s on %s (%s), %s\n", i+1, s.Tool, s.Source, s.Why, verdict)
		if s.Search != "" {
			fmt.Fprintf(w, "  search: %q, limit %d\n", s.Search, s.Limit)
			if s.Allowed {
				fmt.Fprintf(w, "  found %d passages: %s\n", len(s.Found), strings.Join(s.Found, ", "))
			}
		}
		if s.SQL != "" {
			fmt.Fprintf(w, "  %s\n", s.SQL)
		}
		if len(s.Args) > 0 {
			args, _ := json.Marshal(s.Args)
			fmt.Fprintf(w, "  parameters: %s\n", args)
		}
	}
	fmt.Fprintln(w, "response:")
}
