package config

import (
	"fmt"
	"sort"

	"github.com/weirgw/weir/rules/located"
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

// Error is one problem of a config file, with its place ("file:line: code: message"): the
// one located error type of Weir's loaders (rules/located).
type Error = located.Error

// ErrorList is every problem of a config file, sorted by line.
type ErrorList = located.List

type collector struct {
	file string
	list ErrorList
}

func (c *collector) add(line int, code, format string, args ...any) {
	c.list = append(c.list, &Error{File: c.file, Line: line, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (c *collector) err() error {
	if len(c.list) == 0 {
		return nil
	}
	sort.SliceStable(c.list, func(i, j int) bool { return c.list[i].Line < c.list[j].Line })
	return c.list
}
