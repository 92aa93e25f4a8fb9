package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// ToolDescription is the description a model is given for a document search tool.
const ToolDescription = "Search the study documents (protocol, statistical analysis plan, manuals) and return " +
	"the passages that best match, each with its file, page and section. Use it for what the documents " +
	"say: design, eligibility, dosing, visits, endpoints, safety reporting, statistics. One topic per call; " +
	"use the documents' own words."

// MaxQueryBytes bounds the query of a tool call.
const MaxQueryBytes = 1000

// ToolParameters is the JSON schema of a search tool's arguments.
func ToolParameters() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"query": map[string]any{"type": "string", "description": "what to look for, as a question or keywords"},
			"limit": map[string]any{"type": "integer", "minimum": 1, "maximum": MaxLimit,
				"description": fmt.Sprintf("how many passages to return (default %d)", DefaultLimit)},
		},
		"required":             []string{"query"},
		"additionalProperties": false,
	}
}

// ToolArguments are the arguments of a search tool call: {"query": "...", "limit": 5}.
type ToolArguments struct {
	Query string `json:"query"`
	Limit int    `json:"limit,omitempty"`
}

// ParseArguments decodes and checks a tool call's arguments. Its errors are written for the
// model, which can correct the call; a limit above MaxLimit is lowered to it.
func ParseArguments(raw []byte) (ToolArguments, error) {
	var a ToolArguments
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf(`arguments must be a JSON object {"query": "...", "limit": N}: %v`, err)
	}
	if dec.More() {
		return a, errors.New("arguments must be one JSON object")
	}
	switch {
	case strings.TrimSpace(a.Query) == "":
		return a, errors.New("query is required and must not be empty")
	case len(a.Query) > MaxQueryBytes:
		return a, fmt.Errorf("query is longer than %d bytes; ask about one topic", MaxQueryBytes)
	case a.Limit < 0:
		return a, errors.New("limit must be positive")
	}
	a.Limit = min(a.Limit, MaxLimit)
	return a, nil
}

// ToolResult is the text a model receives for a search: every passage numbered, with its
// citation and section, then its whole text. The numbers in it ground the model's answer.
func ToolResult(ps []Passage) string {
	if len(ps) == 0 {
		return "No passage of the documents matches the query."
	}
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "[%d] %s", i+1, Cite(p))
		if p.Section != "" && p.Page > 0 {
			fmt.Fprintf(&b, " (%s)", p.Section)
		}
		b.WriteString("\n")
		b.WriteString(p.Text)
	}
	return b.String()
}

// Cite names where a passage is: "protocol.pdf p. 7" for a PDF, "sap.md § 3.3 Dropout"
// (the innermost heading) for other files.
func Cite(p Passage) string {
	name := path.Base(p.File)
	if p.Page > 0 {
		return fmt.Sprintf("%s p. %d", name, p.Page)
	}
	if p.Section != "" {
		parts := strings.Split(p.Section, " > ")
		return name + " § " + parts[len(parts)-1]
	}
	return name
}

// Quote is an answer made of the snippets of the first n passages, each with its
// citation, for when no model writes one. Passages scoring less than half the best are
// left out: they matched a few common words only.
//
//	From protocol.pdf p. 7: "…Assuming a dropout rate of 15% …"
func Quote(ps []Passage, n int) string {
	var lines []string
	for i, p := range ps[:min(n, len(ps))] {
		if i > 0 && p.Score < ps[0].Score/2 {
			break
		}
		s := p.Snippet
		if s == "" {
			s = p.Text
		}
		s = strings.Join(strings.Fields(s), " ")
		lines = append(lines, fmt.Sprintf("From %s: \"%s\"", Cite(p), truncate(s, 600)))
	}
	return strings.Join(lines, "\n")
}

// truncate cuts s to at most n bytes at a rune boundary, marking the cut with "…".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
