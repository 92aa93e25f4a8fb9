package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func outcomes(spec ...string) []Outcome {
	// Each spec is "conf right|wrong".
	var out []Outcome
	for i, s := range spec {
		var conf float64
		var verdict string
		fmt.Sscanf(s, "%g %s", &conf, &verdict)
		got := "a"
		if verdict == "wrong" {
			got = "b"
		}
		out = append(out, Outcome{Labelled: Labelled{Query: fmt.Sprint("q", i), Intent: "a"}, Got: got, Confidence: conf, Decided: conf >= 0.6})
	}
	return out
}

// TestSuggest pins the threshold choice: the lowest confidence at which the answers at or
// above it keep the target precision, over ties as a whole; the pack's own threshold (floor,
// 1 where it plays no part) is a candidate too.
func TestSuggest(t *testing.T) {
	tests := []struct {
		name  string
		os    []Outcome
		floor float64
		want  float64
		found bool
	}{
		{"all right: the lowest confidence", outcomes("0.9 right", "0.7 right", "0.65 right"), 1, 0.65, true},
		{"a wrong low answer is cut off", outcomes("0.9 right", "0.8 right", "0.7 wrong"), 1, 0.8, true},
		{"a wrong high answer diluted by enough right ones", outcomes("0.95 wrong", "0.9 right", "0.9 right", "0.9 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right", "0.8 right"), 1, 0.8, true},
		{"ties are decided together", outcomes("0.9 right", "0.8 right", "0.8 wrong"), 1, 0.9, true},
		{"nothing reaches the target", outcomes("0.9 wrong", "0.8 right"), 1, 0, false},
		{"no answers", nil, 1, 0, false},
		{"the pack's threshold when it keeps the target", outcomes("0.9 right", "0.8 right", "0.5 wrong"), 0.6, 0.6, true},
		{"the pack's threshold below every answer", outcomes("0.9 right", "0.8 right"), 0.6, 0.6, true},
		{"an answer above the pack's threshold when that one does not keep it", outcomes("0.9 right", "0.7 wrong", "0.65 right"), 0.6, 0.9, true},
		{"unanswered outcomes are ignored", append(outcomes("0.9 right"), Outcome{Labelled: Labelled{Intent: "a"}}), 1, 0.9, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, found := suggest(tc.os, 0.95, tc.floor)
			if got != tc.want || found != tc.found {
				t.Errorf("suggest = %v, %v; want %v, %v", got, found, tc.want, tc.found)
			}
		})
	}
}

// TestCrossValidate checks that every question is scored once, at a threshold chosen
// without it: a wrong answer that alone sets its own fold's threshold is still counted.
func TestCrossValidate(t *testing.T) {
	os := outcomes("0.9 right", "0.9 right", "0.8 right", "0.8 right", "0.7 wrong", "0.7 right", "0.65 right", "0.95 right", "0.9 right", "0.85 right")
	cv := crossValidate(os, 0.95, 0.6, 5)
	if cv.N != len(os) {
		t.Fatalf("scored %d of %d", cv.N, len(os))
	}
	if cv.Decided == 0 || cv.Right > cv.Decided {
		t.Errorf("implausible tally %+v", cv)
	}
	if again := crossValidate(os, 0.95, 0.6, 5); again != cv {
		t.Errorf("not deterministic: %+v then %+v", cv, again)
	}
	if small := crossValidate(os[:3], 0.95, 0.6, 5); small.Decided != 0 || small.N != 0 {
		t.Errorf("fewer questions than folds must give an empty tally, got %+v", small)
	}
}

func writeSet(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fresh.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCalibrateMini measures the mini pack on a small set whose outcomes are known: a simple
// question, an analytical one, a hybrid, one the rules miss and one they decide wrongly.
func TestCalibrateMini(t *testing.T) {
	p, err := LoadDir("testdata/mini")
	if err != nil {
		t.Fatal(err)
	}
	path := writeSet(t,
		`{"query": "show critical findings in hotels", "intent": "simple", "style": "plain"}`,
		`{"query": "what trends do you see?", "intent": "complex", "style": "plain"}`,
		``,
		`{"query": "list findings and explain the trends", "intent": "hybrid", "style": "multipart"}`,
		`{"query": "good morning", "intent": "complex", "style": "terse", "why": "ignored"}`,
		`{"query": "show urgent findings from 2024", "intent": "hybrid", "style": "plain"}`,
	)
	set, err := ReadLabelled(path)
	if err != nil {
		t.Fatal(err)
	}
	if set.Name != "fresh" || len(set.Questions) != 5 || set.Questions[4].Line != 6 {
		t.Fatalf("read %+v", set)
	}
	c, err := p.Calibrate([]LabelledSet{set})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sets) != 2 || c.Sets[0].Name != "inline" || c.Sets[0].N != len(p.Tests()) {
		t.Fatalf("sets %+v", c.Sets)
	}
	want := Tally{Name: "held", N: 5, Decided: 4, Right: 3}
	if c.Held != want {
		t.Errorf("held = %+v, want %+v", c.Held, want)
	}
	if len(c.Suspects) != 0 {
		t.Errorf("one wrong decision makes no suspect, got %+v", c.Suspects)
	}
	var simple IntentCalibration
	for _, in := range c.Intents {
		if in.Intent == "simple" {
			simple = in
		}
	}
	if simple.Labelled.N != 1 || simple.Claimed.Decided != 2 || simple.Claimed.Right != 1 {
		t.Errorf("simple: %+v", simple)
	}
	// The wrong answer ties with a right one at the highest confidence: no threshold helps.
	if c.Found {
		t.Errorf("suggested %v at %+v, want none", c.Suggested, c.AtSuggested)
	}
	styles := map[string]Tally{}
	for _, s := range c.Styles {
		styles[s.Name] = s
	}
	if styles["plain"].N != 3 || styles["terse"].Decided != 0 {
		t.Errorf("styles %+v", c.Styles)
	}
	report := c.Report(true)
	for _, w := range []string{"calibration mini: 5 held questions (fresh 5)", "at threshold 0.60 the rules decide 80.0%, precision 75.0%",
		"confidence not earned", "no threshold reaches 95.0% precision", "fresh.jsonl:6: \"show urgent findings from 2024\" → simple", "intent (held)"} {
		if !strings.Contains(report, w) {
			t.Errorf("report lacks %q:\n%s", w, report)
		}
	}
}

// TestCalibrationSetErrors: bad lines and unknown labels point at their file and line; a
// declared set that does not exist points at its declaration.
func TestCalibrationSetErrors(t *testing.T) {
	path := writeSet(t, `{"query": "show findings", "intent": "simple"}`, `not json`, `{"query": "", "intent": "simple"}`)
	_, err := ReadLabelled(path)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 || list[0].Line != 2 || list[1].Line != 3 || list[0].Code != "set_invalid" {
		t.Fatalf("got %v", err)
	}
	p, err := LoadDir("testdata/mini")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Calibrate([]LabelledSet{{Name: "x", Questions: []Labelled{{Query: "q", Intent: "nosuch", File: "x.jsonl", Line: 4}}}})
	if err == nil || !strings.Contains(err.Error(), "x.jsonl:4: set_unknown_intent") {
		t.Errorf("unknown label: %v", err)
	}
	dir := t.TempDir()
	pack := "pack:\n  name: t\n  default: {intent: a}\n  calibration:\n    sets: [missing.jsonl]\nintents:\n  a: {description: x}\n"
	if err := os.WriteFile(filepath.Join(dir, "pack.yaml"), []byte(pack), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err = LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.CalibrationSets()
	if err == nil || !strings.Contains(err.Error(), "pack.yaml:5: set_unreadable") {
		t.Errorf("missing set: %v", err)
	}
}
