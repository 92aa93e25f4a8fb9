package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Labelled is a question with the intent a person gave it: a line of a labelled set
// (`{"query", "intent", "style"}` per line) or an inline test.
type Labelled struct {
	Query  string `json:"query"`
	Intent string `json:"intent"`
	// Style is the kind of phrasing (terse, typo, negated, ...), when the set says; reports
	// break precision and coverage down by it.
	Style string `json:"style,omitempty"`
	// Set names where the question came from (the file's base name without .jsonl, or
	// "inline" for the pack's own tests); File and Line locate it.
	Set  string `json:"-"`
	File string `json:"-"`
	Line int    `json:"-"`
}

// LabelledSet is a named list of labelled questions.
type LabelledSet struct {
	Name      string
	Questions []Labelled
}

// ReadLabelled reads a labelled set: one JSON object per line with a string "query" and
// "intent" (other keys are allowed and ignored, blank lines skipped). Every bad line is
// reported, as `file:line: set_invalid: ...` in an ErrorList.
func ReadLabelled(path string) (LabelledSet, error) {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	set := LabelledSet{Name: name}
	data, err := os.ReadFile(path)
	if err != nil {
		return set, ErrorList{{File: path, Code: "set_unreadable", Message: err.Error()}}
	}
	var e errs
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l Labelled
		if err := json.Unmarshal(line, &l); err != nil {
			e.add(path, n, "set_invalid", "want a JSON object with \"query\" and \"intent\": %v", err)
			continue
		}
		if strings.TrimSpace(l.Query) == "" || l.Intent == "" {
			e.add(path, n, "set_invalid", "want a JSON object with a non-empty \"query\" and \"intent\"")
			continue
		}
		l.Set, l.File, l.Line = name, path, n
		set.Questions = append(set.Questions, l)
	}
	if err := sc.Err(); err != nil {
		e.add(path, 0, "set_unreadable", "%v", err)
	}
	return set, e.err()
}

// inlineSet returns the pack's inline tests as a labelled set named "inline".
func (p *Pack) inlineSet() LabelledSet {
	set := LabelledSet{Name: "inline"}
	for _, tc := range p.tests {
		set.Questions = append(set.Questions, Labelled{Query: tc.Query, Intent: tc.Intent, Set: "inline", File: tc.File, Line: tc.Line})
	}
	return set
}

// CalibrationSets reads the labelled sets the pack declares under pack.calibration.sets
// (paths relative to the file that declares them). A missing or malformed file is an
// ErrorList entry that points at the declaration or at the bad line.
func (p *Pack) CalibrationSets() ([]LabelledSet, error) {
	var out []LabelledSet
	var e errs
	for _, ref := range p.calib.sets {
		set, err := ReadLabelled(ref.path)
		if err != nil {
			if list, ok := err.(ErrorList); ok && len(list) == 1 && list[0].Code == "set_unreadable" {
				e.add(ref.file, ref.line, "set_unreadable", "calibration set %s: %s", ref.path, list[0].Message)
				continue
			}
			e.list = append(e.list, err.(ErrorList)...)
			continue
		}
		out = append(out, set)
	}
	return out, e.err()
}
