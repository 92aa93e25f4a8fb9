package rules

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// This file holds the YAML schema of a rule-pack file. Decoding is strict (unknown keys are
// errors); positions for semantic errors come from the parallel yaml.Node tree (see load.go).

// fileDoc is one YAML file of a pack; every key is optional in a single file.
type fileDoc struct {
	Pack    *packDoc              `yaml:"pack"`
	Intents map[string]intentDoc  `yaml:"intents"`
	Aliases map[string]aliasTable `yaml:"aliases"`
	Extract map[string]extractDoc `yaml:"extract"`
	Rules   []ruleDoc             `yaml:"rules"`
	Decide  []decideDoc           `yaml:"decide"`
	Tests   []testDoc             `yaml:"tests"`
}

// packDoc holds the pack-wide settings.
type packDoc struct {
	Name         string          `yaml:"name"`
	Description  string          `yaml:"description"`
	Default      *defaultDoc     `yaml:"default"`
	Fallback     *fallbackDoc    `yaml:"fallback"`
	MaxScanBytes int             `yaml:"max_scan_bytes"`
	TestClock    string          `yaml:"test_clock"`
	Normalize    *normalizeDoc   `yaml:"normalize"`
	Calibration  *calibrationDoc `yaml:"calibration"`
}

// calibrationDoc names the labelled sets `weir check` measures the rules on, the precision
// the confidence threshold must keep, and the folds of the cross-validated estimate.
type calibrationDoc struct {
	Sets   []string `yaml:"sets"`
	Target *float64 `yaml:"target"`
	Folds  *int     `yaml:"folds"`
}

type defaultDoc struct {
	Intent     string   `yaml:"intent"`
	Confidence *float64 `yaml:"confidence"`
}

type fallbackDoc struct {
	Below *float64 `yaml:"below"`
}

type normalizeDoc struct {
	Lowercase          *bool `yaml:"lowercase"`
	FoldDiacritics     *bool `yaml:"fold_diacritics"`
	CollapseWhitespace *bool `yaml:"collapse_whitespace"`
}

type intentDoc struct {
	Description string   `yaml:"description"`
	Route       routeDoc `yaml:"route"`
}

// routeDoc is per-intent data for the query surface and the gateway; it does not affect
// classification.
type routeDoc struct {
	Kind             string   `yaml:"kind"`
	PrimaryTool      string   `yaml:"primary_tool"`
	FallbackTools    []string `yaml:"fallback_tools"`
	Tools            []string `yaml:"tools"`
	Sources          []string `yaml:"sources"`
	MaxIterations    int      `yaml:"max_iterations"`
	MaxResults       int      `yaml:"max_results"`
	MaxContextRows   int      `yaml:"max_context_rows"`
	MaxContextTokens int      `yaml:"max_context_tokens"`
}

type extractDoc struct {
	Alias    string `yaml:"alias"`
	Pattern  string `yaml:"pattern"`
	Builtin  string `yaml:"builtin"`
	Group    any    `yaml:"group"`
	Type     string `yaml:"type"`
	On       string `yaml:"on"`
	List     bool   `yaml:"list"`
	Field    string `yaml:"field"`
	Operator string `yaml:"operator"`
}

type ruleDoc struct {
	ID      string   `yaml:"id"`
	Intent  string   `yaml:"intent"`
	Pattern string   `yaml:"pattern"`
	On      string   `yaml:"on"`
	When    string   `yaml:"when"`
	Weight  *float64 `yaml:"weight"`
	// Description says in a sentence what the rule recognises; it is the rationale a
	// classification gives when the rule supports the decided intent.
	Description string `yaml:"description"`
}

type decideDoc struct {
	ID         string   `yaml:"id"`
	When       string   `yaml:"when"`
	Intent     string   `yaml:"intent"`
	Confidence *float64 `yaml:"confidence"`
	// Description says why the override decides as it does; part of the rationale.
	Description string `yaml:"description"`
}

type testDoc struct {
	Query         string         `yaml:"query"`
	Intent        string         `yaml:"intent"`
	Filters       map[string]any `yaml:"filters"`
	MinConfidence *float64       `yaml:"min_confidence"`
	Source        string         `yaml:"source"`
	Absent        []string       `yaml:"absent"`
	Now           string         `yaml:"now"`
}

// aliasTable maps canonical values to their terms. In YAML it is either a mapping
// (canonical → term or [terms]) or a plain sequence of terms, each its own canonical value.
type aliasTable struct {
	entries []aliasEntry
}

type aliasEntry struct {
	canonical string
	terms     []string
	line      int
}

// UnmarshalYAML accepts both table forms and keeps the canonical values in file order.
func (t *aliasTable) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode {
				return typeErr(item, "an alias term must be a string")
			}
			t.entries = append(t.entries, aliasEntry{canonical: item.Value, terms: []string{item.Value}, line: item.Line})
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := n.Content[i], n.Content[i+1]
			e := aliasEntry{canonical: key.Value, line: key.Line}
			switch val.Kind {
			case yaml.ScalarNode:
				e.terms = []string{val.Value}
			case yaml.SequenceNode:
				for _, item := range val.Content {
					if item.Kind != yaml.ScalarNode {
						return typeErr(item, "an alias term must be a string")
					}
					e.terms = append(e.terms, item.Value)
				}
			default:
				return typeErr(val, "the terms of %q must be a string or a list of strings", key.Value)
			}
			t.entries = append(t.entries, e)
		}
	default:
		return typeErr(n, "an alias table must be a mapping (canonical: [terms]) or a list of terms")
	}
	return nil
}

func typeErr(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %s", n.Line, fmt.Sprintf(format, args...))}}
}
