package config

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// lookupFunc reads an environment variable; os.LookupEnv in production.
type lookupFunc func(string) (string, bool)

// expandNode expands ${VAR} and ${VAR:-default} in every scalar value below n (keys are
// left alone). It records the lines that had an expansion so later error messages can
// withhold the values. A plain scalar is re-resolved after expansion, so
// `max_conns: ${CONNS:-64}` decodes as an int.
func expandNode(n *yaml.Node, env lookupFunc, c *collector, expanded map[int]bool) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, ch := range n.Content {
			expandNode(ch, env, c, expanded)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			expandNode(n.Content[i], env, c, expanded)
		}
	case yaml.ScalarNode:
		if !strings.Contains(n.Value, "$") {
			return
		}
		v, changed, msg := expand(n.Value, env)
		if msg != "" {
			c.add(n.Line, CodeEnv, "%s", msg)
			return
		}
		if changed {
			expanded[n.Line] = true
			n.Value = v
			if n.Style == 0 {
				n.Tag = "" // re-resolve: the expanded text may be a number or a bool
			}
		}
	}
}

// expand substitutes the variables of s. "$$" is a literal "$". The message names the
// variable, never its value.
func expand(s string, env lookupFunc) (out string, changed bool, msg string) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
			changed = true
			continue
		case '{':
		default:
			b.WriteByte('$')
			continue
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", false, "unterminated ${ in value"
		}
		expr := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(expr, ":-")
		if !validName(name) {
			return "", false, "invalid variable name in ${" + expr + "}"
		}
		v, ok := env(name)
		switch {
		case ok && (v != "" || !hasDef):
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", false, "environment variable " + name + " is not set (write ${" + name + ":-} to allow empty)"
		}
		changed = true
		i += end
	}
	return b.String(), changed, ""
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
