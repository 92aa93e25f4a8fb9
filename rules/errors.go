package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found while loading or testing a rule pack. Code is stable and
// snake_case so tools can match on it; File and Line point at the offending YAML.
type Error struct {
	File    string
	Line    int
	Code    string
	Message string
}

// Error formats the problem as `file:line: code: message`.
func (e Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Code, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Code, e.Message)
}

// ErrorList collects every problem of a pack, so an author fixes them in one pass.
type ErrorList []Error

// Error prints one problem per line, sorted by file and line.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sorted returns the list ordered by file, then line, then code, for stable output.
func (l ErrorList) sorted() ErrorList {
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].File != l[j].File {
			return l[i].File < l[j].File
		}
		if l[i].Line != l[j].Line {
			return l[i].Line < l[j].Line
		}
		return l[i].Code < l[j].Code
	})
	return l
}

// errs accumulates errors during loading and compiling.
type errs struct{ list ErrorList }

func (e *errs) add(file string, line int, code, format string, args ...any) {
	e.list = append(e.list, Error{File: file, Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return e.list.sorted()
}
