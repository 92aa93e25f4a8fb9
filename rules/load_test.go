package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const okPack = `pack:
  name: t
  default: {intent: a}
intents:
  a: {description: first}
  b: {description: second}
`

// TestLoadErrors pins the code and line of every load error, and that all errors of all
// files are reported together.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string // "file:line: code"
	}{
		{"yaml syntax", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n   intent: a\n"}, []string{"r.yaml:1: yaml_syntax"}},
		{"unknown keys, all reported", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    patern: foo\n    wieght: 2\n"},
			[]string{"r.yaml:4: unknown_key", "r.yaml:5: unknown_key", "r.yaml:2: rule_empty"}},
		{"unknown top-level key", map[string]string{"p.yaml": okPack + "rulez: []\n"}, []string{"p.yaml:7: unknown_key"}},
		{"type mismatch", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    pattern: y\n    weight: heavy\n"}, []string{"r.yaml:5: type_mismatch"}},
		{"invalid regex", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    pattern: 'foo(('\n"}, []string{"r.yaml:4: rule_regex_invalid"}},
		{"invalid expr", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    when: 'year >'\n"}, []string{"r.yaml:4: rule_expr_invalid"}},
		{"unknown name in expr", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    when: 'nosuchfield != nil'\n"}, []string{"r.yaml:4: rule_expr_invalid"}},
		{"duplicate ids across files", map[string]string{"p.yaml": okPack, "r1.yaml": "rules:\n  - {id: x, intent: a, pattern: foo}\n", "r2.yaml": "rules:\n  - {id: x, intent: b, pattern: bar}\n"}, []string{"r2.yaml:2: rule_duplicate_id"}},
		{"unknown intent", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: zzz\n    pattern: foo\n"}, []string{"r.yaml:3: rule_unknown_intent"}},
		{"unknown alias in pattern", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    pattern: '{{colors}}'\n"}, []string{"r.yaml:4: rule_unknown_alias"}},
		{"unknown alias in extractor", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  color: {alias: colors}\n"}, []string{"x.yaml:2: extract_unknown_alias"}},
		{"unknown builtin", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  when_: {builtin: weekday}\n"}, []string{"x.yaml:2: extract_unknown_builtin"}},
		{"extractor with two sources", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  y: {builtin: year, pattern: x}\n"}, []string{"x.yaml:2: extract_invalid"}},
		{"extractor regex invalid", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  y: {pattern: '[a-'}\n"}, []string{"x.yaml:2: extract_regex_invalid"}},
		{"extractor group missing", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  y: {pattern: 'a(b)', group: 2}\n"}, []string{"x.yaml:2: extract_invalid"}},
		{"field conflict", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  a1: {pattern: 'a(b)', group: 1, field: f}\n  a2: {pattern: 'c(d)', group: 1, field: f, operator: lessThan}\n"}, []string{"x.yaml:3: extract_field_conflict"}},
		{"shared field is fine", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  a1: {pattern: 'a(b)', group: 1, field: f}\n  a2: {pattern: 'c(d)', group: [1], field: f}\n"}, nil},
		{"group list with a bad group", map[string]string{"p.yaml": okPack, "x.yaml": "extract:\n  a1: {pattern: 'a(b)', group: [1, 3]}\n"}, []string{"x.yaml:2: extract_invalid"}},
		{"matched unknown rule", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    when: 'matched(\"nope\")'\n"}, []string{"r.yaml:4: rule_unknown_reference"}},
		{"matched later when rule", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - {id: x, intent: a, when: 'matched(\"y\")'}\n  - {id: y, intent: a, when: 'words > 1'}\n"}, []string{"r.yaml:2: rule_unknown_reference"}},
		{"weight out of range", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    pattern: foo\n    weight: 50\n"}, []string{"r.yaml:5: rule_weight_invalid"}},
		{"alias conflict", map[string]string{"p.yaml": okPack, "a.yaml": "aliases:\n  sev:\n    High: [high]\n    Low: [high]\n"}, []string{"a.yaml:4: alias_term_conflict"}},
		{"alias duplicate table", map[string]string{"p.yaml": okPack, "a.yaml": "aliases:\n  sev: [a]\n", "b.yaml": "aliases:\n  sev: [b]\n"}, []string{"b.yaml:2: alias_duplicate"}},
		{"decide unknown intent", map[string]string{"p.yaml": okPack, "d.yaml": "decide:\n  - id: d\n    when: 'true'\n    intent: zzz\n"}, []string{"d.yaml:4: decide_unknown_intent"}},
		{"decide bad expr", map[string]string{"p.yaml": okPack, "d.yaml": "decide:\n  - id: d\n    when: 'score(\"nope\") > 1'\n    intent: a\n"}, []string{"d.yaml:3: decide_expr_invalid"}},
		{"pack missing", map[string]string{"i.yaml": "intents:\n  a: {description: x}\n"}, []string{"i.yaml:0: pack_missing"}},
		{"pack duplicate", map[string]string{"p.yaml": okPack, "q.yaml": "pack:\n  name: again\n  default: {intent: a}\n"}, []string{"q.yaml:1: pack_duplicate"}},
		{"default unknown", map[string]string{"p.yaml": "pack:\n  name: t\n  default: {intent: zzz}\nintents:\n  a: {description: x}\n"}, []string{"p.yaml:3: default_unknown_intent"}},
		{"threshold invalid", map[string]string{"p.yaml": "pack:\n  name: t\n  default: {intent: a}\n  fallback: {below: 1.5}\nintents:\n  a: {description: x}\n"}, []string{"p.yaml:4: threshold_invalid"}},
		{"calibration invalid", map[string]string{"p.yaml": "pack:\n  name: t\n  default: {intent: a}\n  calibration:\n    target: 0\n    folds: 1\n    sets: [ok.jsonl, '']\nintents:\n  a: {description: x}\n"},
			[]string{"p.yaml:5: calibration_invalid", "p.yaml:6: calibration_invalid", "p.yaml:7: calibration_invalid"}},
		{"calibration unknown key", map[string]string{"p.yaml": "pack:\n  name: t\n  default: {intent: a}\n  calibration: {set: [x.jsonl]}\nintents:\n  a: {description: x}\n"}, []string{"p.yaml:4: unknown_key"}},
		{"descriptions invalid", map[string]string{"p.yaml": okPack, "r.yaml": "rules:\n  - id: x\n    intent: a\n    pattern: foo\n    description: '   '\n  - id: y\n    intent: a\n    pattern: bar\n    description: \"two\\nlines\"\n  - id: z\n    intent: a\n    pattern: baz\n    description: '" + strings.Repeat("x", 201) + "'\ndecide:\n  - id: d\n    when: 'true'\n    intent: a\n    description: \"\\t\"\n"},
			[]string{"r.yaml:5: rule_description_invalid", "r.yaml:9: rule_description_invalid", "r.yaml:13: rule_description_invalid", "r.yaml:18: decide_description_invalid"}},
		{"valid pack with an empty file", map[string]string{"p.yaml": okPack, "empty.yaml": "# nothing yet\n"}, nil},
		{"intent duplicate", map[string]string{"p.yaml": okPack, "i.yaml": "intents:\n  a: {description: again}\n"}, []string{"p.yaml:5: intent_duplicate"}},
		{"description missing", map[string]string{"p.yaml": okPack, "i.yaml": "intents:\n  c: {}\n"}, []string{"i.yaml:2: intent_description_missing"}},
		{"route invalid", map[string]string{"p.yaml": okPack, "i.yaml": "intents:\n  c:\n    description: x\n    route: {kind: teleport}\n"}, []string{"i.yaml:4: route_invalid"}},
		{"test unknown intent and field", map[string]string{"p.yaml": okPack, "t.yaml": "tests:\n  - query: hi\n    intent: zzz\n  - query: hi\n    intent: a\n    filters: {nofield: 1}\n"}, []string{"t.yaml:3: test_unknown_intent", "t.yaml:4: test_unknown_field"}},
		{"errors of several files together", map[string]string{"p.yaml": okPack, "r1.yaml": "rules:\n  - {id: x, intent: q, pattern: foo}\n", "r2.yaml": "rules:\n  - {id: y, intent: a, pattern: '('}\n"}, []string{"r1.yaml:2: rule_unknown_intent", "r2.yaml:2: rule_regex_invalid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var files []File
			for name, data := range tc.files {
				files = append(files, File{Name: name, Data: []byte(data)})
			}
			_, err := Load(files)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("want no error, got:\n%v", err)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("want ErrorList, got %v", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Code))
			}
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, err)
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("want %d errors, got %d:\n%s", len(tc.want), len(got), err)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestErrorFormat(t *testing.T) {
	_, err := Load([]File{{Name: "rules/findings.yaml", Data: []byte(okPack + "rules:\n  - {id: x, intent: a, pattern: '('}\n")}})
	if err == nil || !strings.HasPrefix(err.Error(), "rules/findings.yaml:8: rule_regex_invalid: rule \"x\": ") {
		t.Fatalf("got %v", err)
	}
}

func TestLoadDirMissing(t *testing.T) {
	if _, err := LoadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "pack_empty") {
		t.Fatalf("got %v", err)
	}
}
