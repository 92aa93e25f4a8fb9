package data

import (
	"errors"
	"fmt"
	"strings"
)

// Problem is one thing wrong with a query: where (Path, e.g. "filters[1].operator") and
// what, worded so that a model can correct its query.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String formats the problem as "path: message".
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// QueryError reports an invalid query. It goes back to the model for correction (seed 003:
// "invalid QueryIntent format → inform AI"); any other error from this package or a backend
// is a system error for the user.
type QueryError struct {
	Problems []Problem `json:"problems"`
}

// Error lists every problem, one per line.
func (e *QueryError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return "invalid query: " + strings.Join(lines, "; ")
}

// IsInvalidQuery reports whether err is (or wraps) a *QueryError.
func IsInvalidQuery(err error) bool {
	var qe *QueryError
	return errors.As(err, &qe)
}

// problems accumulates the problems of one query so that all of them are reported at once.
type problems []Problem

func (ps *problems) add(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (ps problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return &QueryError{Problems: ps}
}

// oneOf renders allowed values for a message: "a, b, c".
func oneOf(values []string) string {
	if len(values) == 0 {
		return "(none)"
	}
	return strings.Join(values, ", ")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
