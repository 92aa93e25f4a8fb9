package rules

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Summary is the one-paragraph form `weir classify` prints for a person.
func (c *Classification) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "intent      %s\nconfidence  %.2f\nsource      %s\n", c.Intent, c.Confidence, c.Source)
	if c.PrimaryTool != "" {
		fmt.Fprintf(&b, "tools       %s", c.PrimaryTool)
		if len(c.FallbackTools) > 0 {
			fmt.Fprintf(&b, " (fallback: %s)", strings.Join(c.FallbackTools, ", "))
		}
		b.WriteString("\n")
	}
	if len(c.Filters) > 0 {
		fmt.Fprintf(&b, "filters     %s\n", compactJSON(c.Filters))
	}
	if c.Source == SourceRules {
		fmt.Fprintf(&b, "rationale   %s\n", c.Rationale())
	}
	if c.Truncated {
		fmt.Fprintf(&b, "note        only the first %d bytes were classified\n", c.ScannedBytes)
	}
	return b.String()
}

// Explain says why the classification came out as it did: the rules that matched with
// their weights, the scores, the spans that filled each field, the override that fired, and
// whether the fallback tier was asked.
func (c *Classification) Explain() string {
	var b strings.Builder
	b.WriteString(c.Summary())
	fmt.Fprintf(&b, "why         %s\n", c.Reason)
	if len(c.Rules) == 0 {
		b.WriteString("rules       none matched\n")
	}
	for i, r := range c.Rules {
		label := "rules"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(&b, "%-11s %s → %s (%+g)\n", label, r.ID, r.Intent, r.Weight)
	}
	if len(c.Scores) > 0 {
		sc := append([]IntentScore(nil), c.Scores...)
		sort.SliceStable(sc, func(i, j int) bool { return sc[i].Score > sc[j].Score })
		parts := make([]string, len(sc))
		for i, s := range sc {
			parts[i] = fmt.Sprintf("%s %g", s.Intent, s.Score)
		}
		fmt.Fprintf(&b, "scores      %s\n", strings.Join(parts, ", "))
	}
	if c.Override != "" {
		fmt.Fprintf(&b, "override    %s\n", c.Override)
	}
	if c.Source != SourceRules && c.RulesIntent != "" {
		fmt.Fprintf(&b, "rules said  %s at %.2f\n", c.RulesIntent, c.RulesConfidence)
	}
	for i, s := range c.Spans {
		label := "spans"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(&b, "%-11s %s = %s  ← %q [%d:%d]\n", label, s.Field, compactJSON(s.Value), s.Text, s.Start, s.End)
	}
	if f := c.Fallback; f != nil {
		fmt.Fprintf(&b, "fallback    model %s, %s", orDash(f.Model), f.Latency)
		if f.Cached {
			b.WriteString(", cached")
		}
		if f.Error != "" {
			fmt.Fprintf(&b, ", failed: %s", f.Error)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func compactJSON(v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(out)
}
