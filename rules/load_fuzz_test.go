package rules

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes as a pack file next to a valid one: loading must return a
// pack or an ErrorList whose entries carry a code, never panic.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/mini/*.yaml")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("rules:\n  - {id: x, intent: simple, pattern: '((' }\n"))
	f.Add([]byte("extract: {a: {pattern: '(?P<n>x)', group: n}}\n"))
	f.Add([]byte("aliases: {t: [a, b]}\nrules: [{id: y, intent: simple, pattern: '{{t}}', when: 'matched(\"y\")'}]\n"))
	f.Add([]byte("\x00\xff: [\n"))
	base, err := os.ReadFile("testdata/mini/pack.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Load([]File{{Name: "pack.yaml", Data: base}, {Name: "fuzz.yaml", Data: data}})
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("want a non-empty ErrorList, got %T %v", err, err)
			}
			for _, e := range list {
				if e.Code == "" || e.File == "" {
					t.Fatalf("error without code or file: %+v", e)
				}
			}
			return
		}
		NewClassifier(p).Classify(t.Context(), "show critical findings from 2024")
	})
}
