// Package located is the one error type of every loader of Weir's files — rule packs,
// policy bundles, the gateway's config, dataset schemas: a problem with a stable snake_case
// code at a place in a file, written "file:line:col: code: message" (unknown parts left
// out). Loaders collect every problem of a file and report them together, sorted, so an
// author fixes them in one pass.
//
// It lives under rules, the lowest of Weir's packages that loads files, and imports nothing
// of Weir's, so that every loader can use it.
package located

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found while loading a file.
type Error struct {
	File    string // the file's path; "" when the problem is not tied to one
	Line    int    // 1-based line; 0 when unknown
	Col     int    // 1-based column; 0 when unknown
	Code    string // stable snake_case code tools can match on
	Message string
}

// Error formats the problem as "file:line:col: code: message", leaving out unknown parts.
func (e Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Code)
	b.WriteString(": ")
	b.WriteString(e.Message)
	return b.String()
}

// Errorf returns an Error of code without a place.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// List is every problem of a load.
type List []*Error

// Error prints one problem per line.
func (l List) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sorted orders the list by file, line, column and code, for stable output, and returns it.
func (l List) Sorted() List {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Col != b.Col:
			return a.Col < b.Col
		}
		return a.Code < b.Code
	})
	return l
}

// Err returns the sorted list as an error, nil when it is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l.Sorted()
}

// Add appends a problem at file:line.
func (l *List) Add(file string, line int, code, format string, args ...any) {
	*l = append(*l, &Error{File: file, Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}
