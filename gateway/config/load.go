package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Load reads, expands, decodes and validates the config file at path.
func Load(path string) (*Config, error) {
	return load(path, os.LookupEnv)
}

func load(path string, env lookupFunc) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, ErrorList{{File: path, Code: CodeRead, Message: err.Error()}}
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, ErrorList{{File: path, Code: CodeRead, Message: err.Error()}}
	}
	return parse(path, abs, src, env)
}

func parse(name, abs string, src []byte, env lookupFunc) (*Config, error) {
	c := &collector{file: name}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		c.add(yamlLine(err.Error()), CodeYAML, "%s", stripLine(err.Error()))
		return nil, c.err()
	}
	cfg := &Config{File: abs}
	if len(doc.Content) == 0 {
		c.add(0, CodeInvalid, "empty config")
		return nil, c.err()
	}
	expanded := map[int]bool{}
	var envValues []string // what the expansion read: withheld from every message
	expandNode(&doc, func(k string) (string, bool) {
		v, ok := env(k)
		if ok {
			envValues = append(envValues, v)
		}
		return v, ok
	}, c, expanded)
	lines := map[string]int{}
	checkKeys(doc.Content[0], reflect.TypeOf(*cfg), "", lines, c)
	if len(c.list) > 0 {
		return nil, c.err()
	}
	if err := doc.Content[0].Decode(cfg); err != nil {
		decodeErrors(err, expanded, c)
		return nil, withhold(c.err(), envValues)
	}
	cfg.defaults()
	cfg.resolve(filepath.Dir(abs))
	cfg.validate(c, lines)
	badAt := func(path, format string, args ...any) { c.add(lineOf(lines, path), CodeInvalid, format, args...) }
	cfg.validateFallback(badAt, env)
	cfg.validateData(badAt, env)
	cfg.validateDocuments(badAt)
	if err := c.err(); err != nil {
		return nil, withhold(err, envValues)
	}
	return cfg, nil
}

// withhold blanks the values read from the environment in the messages of err: a
// validation message quotes the value it rejects, wherever that came from, and an expanded
// value may be a secret. Values shorter than 4 bytes stay: they are no secrets worth
// hiding, and blanking them would garble the messages.
func withhold(err error, values []string) error {
	list, ok := err.(ErrorList)
	if !ok {
		return err
	}
	for i := range list {
		for _, v := range values {
			if len(v) >= 4 {
				list[i].Message = strings.ReplaceAll(list[i].Message, v, "[expanded value withheld]")
			}
		}
	}
	return list
}

var lineRE = regexp.MustCompile(`line (\d+): `)

func yamlLine(msg string) int {
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func stripLine(msg string) string {
	msg = strings.TrimPrefix(msg, "yaml: ")
	return lineRE.ReplaceAllString(msg, "")
}

// decodeErrors converts yaml's type errors; on a line that had an expansion the value is
// withheld, because it may be a secret.
func decodeErrors(err error, expanded map[int]bool, c *collector) {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		line := yamlLine(err.Error())
		msg := stripLine(err.Error())
		if expanded[line] {
			msg = "the expanded value is invalid (value withheld)"
		}
		c.add(line, CodeType, "%s", msg)
		return
	}
	for _, e := range te.Errors {
		line := yamlLine(e)
		msg := stripLine(e)
		if expanded[line] {
			msg = "the expanded value has the wrong type (value withheld)"
		}
		c.add(line, CodeType, "%s", msg)
	}
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// checkKeys walks n against the Go type t, reporting every unknown key with its line and
// recording the line of every value by path (routes[0].upstream) for validation messages.
func checkKeys(n *yaml.Node, t reflect.Type, path string, lines map[string]int, c *collector) {
	lines[path] = n.Line
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // the decoder reports the type error
		}
		fields := yamlFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				c.add(k.Line, CodeUnknownKey, "unknown key %q%s", k.Value, where(path))
				continue
			}
			checkKeys(v, ft, join(path, k.Value), lines, c)
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for i, ch := range n.Content {
				checkKeys(ch, t.Elem(), fmt.Sprintf("%s[%d]", path, i), lines, c)
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				checkKeys(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value), lines, c)
			}
		}
	}
}

// yamlFields maps the YAML keys of struct type t to their types; the fields of an inline
// struct (`yaml:",inline"`) are keys of t.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, flags, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case flags == "inline" && f.Type.Kind() == reflect.Struct:
			for k, ft := range yamlFields(f.Type) {
				out[k] = ft
			}
		case name != "" && name != "-":
			out[name] = f.Type
		}
	}
	return out
}

func where(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// UnmarshalYAML reads a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: %q is not a duration (write e.g. 30s or 1m30s)", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration string, so a config can be printed back.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// Dump returns the config as YAML with secrets replaced, for logs and `weir serve -v`.
func (c *Config) Dump() string {
	cp := *c
	cp.Upstreams = append([]Upstream(nil), c.Upstreams...)
	for i := range cp.Upstreams {
		if cp.Upstreams[i].APIKey != "" {
			cp.Upstreams[i].APIKey = "[redacted]"
		}
	}
	cp.Audit = c.Audit.redacted()
	cp.Documents = append([]DocumentSource(nil), c.Documents...)
	for i := range cp.Documents {
		cp.Documents[i].DSN = redactDSN(cp.Documents[i].DSN)
	}
	if cp.Limits.Redis != "" {
		cp.Limits.Redis = "[redacted]"
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(&cp)
	return b.String()
}
