package config

import (
	"fmt"
	"sort"
	"strings"
)

// Stable error codes of config loading.
const (
	CodeRead       = "config_read_error"
	CodeYAML       = "config_yaml_invalid"
	CodeUnknownKey = "config_unknown_key"
	CodeType       = "config_type_error"
	CodeEnv        = "config_env_invalid"
	CodeInvalid    = "config_invalid"
)

// Error is one problem of a config file, with its place.
type Error struct {
	File    string
	Line    int
	Code    string
	Message string
}

// Error formats the problem as "file:line: code: message".
func (e Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Code, e.Message)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Code, e.Message)
}

// ErrorList is every problem of a config file, sorted by line.
type ErrorList []Error

// Error prints one problem per line.
func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

type collector struct {
	file string
	list ErrorList
}

func (c *collector) add(line int, code, format string, args ...any) {
	c.list = append(c.list, Error{File: c.file, Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (c *collector) err() error {
	if len(c.list) == 0 {
		return nil
	}
	sort.SliceStable(c.list, func(i, j int) bool { return c.list[i].Line < c.list[j].Line })
	return c.list
}
