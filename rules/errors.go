package rules

import (
	"fmt"

	"github.com/weirgw/weir/rules/located"
)

// Error is one problem found while loading or testing a rule pack: the one located error
// type of Weir's loaders (rules/located), `file:line: code: message`.
type Error = located.Error

// ErrorList collects every problem of a pack, so an author fixes them in one pass.
type ErrorList = located.List

// errs accumulates errors during loading and compiling.
type errs struct{ list ErrorList }

func (e *errs) add(file string, line int, code, format string, args ...any) {
	e.list = append(e.list, &Error{File: file, Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (e *errs) err() error { return e.list.Err() }
