package policies

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"gopkg.in/yaml.v3"

	"github.com/weirgw/weir/policies/grounding"
)

// DefaultMaxArgumentBytes is the size limit of a tool call's arguments when the bundle
// sets no limits.max_argument_bytes.
const DefaultMaxArgumentBytes = 64 << 10

// IntentPolicy is an intent's entry in data.weir.intents, as written in the bundle data
// (before the library applies its defaults).
type IntentPolicy struct {
	AllowedTools           []string `json:"allowed_tools"`
	BlockedTools           []string `json:"blocked_tools"`
	RequireToolCall        *bool    `json:"require_tool_call"`
	BlockNumericGeneration *bool    `json:"block_numeric_generation"`
	AllowDerivations       *bool    `json:"allow_derivations"`
	IgnoreSmallIntegers    *bool    `json:"ignore_small_integers"` // trivial numbers ("3 leve") are not checked
	NumberSources          []string `json:"number_sources"`
}

// bundleData is the decoded data file plus the settings Weir itself reads from it.
type bundleData struct {
	doc              map[string]any // the whole document, mounted at data.weir
	library          bool
	maxArgumentBytes int
	intents          map[string]IntentPolicy
	knownTools       []string
	names            *grounding.Names // grounding.names, compiled; nil when absent
}

// toolNameTerms returns an AST term for every tool name an intent allows or blocks, or
// known_tools lists.
func (d *bundleData) toolNameTerms() map[string]*ast.Term {
	terms := map[string]*ast.Term{}
	add := func(names []string) {
		for _, n := range names {
			terms[n] = ast.StringTerm(n)
		}
	}
	for _, ip := range d.intents {
		add(ip.AllowedTools)
		add(ip.BlockedTools)
	}
	add(d.knownTools)
	return terms
}

// reservedKeys are the packages of the library: data under these keys would collide with
// the rules of data.weir.<key>.
var reservedKeys = []string{"lib", "request", "tools", "response"}

var intentKeys = map[string]string{
	"allowed_tools": "list", "blocked_tools": "list", "number_sources": "sources",
	"require_tool_call": "bool", "block_numeric_generation": "bool", "allow_derivations": "bool",
	"ignore_small_integers": "bool",
	"description":           "string",
}

// parseData decodes a data.yaml or data.json (JSON is read as YAML, which keeps line
// numbers) and checks the keys Weir reads. All problems are returned together.
func parseData(file string, src []byte) (*bundleData, ErrorList) {
	d := &bundleData{doc: map[string]any{}, library: true, maxArgumentBytes: DefaultMaxArgumentBytes}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, ErrorList{{Code: CodeDataInvalid, File: file, Message: err.Error()}}
	}
	if len(root.Content) == 0 {
		return d, nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, ErrorList{nodeErr(file, top, "the top level must be a mapping")}
	}
	var errs ErrorList
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		errs = append(errs, d.checkTop(file, k, v)...)
	}
	var raw any
	if err := top.Decode(&raw); err != nil {
		errs = append(errs, nodeErr(file, top, err.Error()))
	} else if doc, err := jsonCompatible(raw); err != nil {
		errs = append(errs, nodeErr(file, top, err.Error()))
	} else {
		d.doc = doc.(map[string]any)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return d, nil
}

func (d *bundleData) checkTop(file string, k, v *yaml.Node) ErrorList {
	switch {
	case slices.Contains(reservedKeys, k.Value):
		return ErrorList{nodeErr(file, k, fmt.Sprintf("key %q is reserved: data.weir.%s holds the library's rules", k.Value, k.Value))}
	case k.Value == "library":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return ErrorList{nodeErr(file, v, "library must be true or false")}
		}
		d.library = v.Value == "true"
	case k.Value == "limits":
		return d.checkLimits(file, v)
	case k.Value == "known_tools":
		names, err := stringList(file, v, "known_tools")
		if err != nil {
			return ErrorList{err}
		}
		d.knownTools = names
	case k.Value == "intents":
		return d.checkIntents(file, v)
	case k.Value == "grounding":
		return d.checkGrounding(file, v)
	}
	return nil
}

// checkGrounding reads the grounding settings: names, the words an answer may use for the
// quantities of the tool results (see policies/grounding's Options.Names).
func (d *bundleData) checkGrounding(file string, v *yaml.Node) ErrorList {
	if v.Kind != yaml.MappingNode {
		return ErrorList{nodeErr(file, v, "grounding must be a mapping")}
	}
	var errs ErrorList
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Value != "names" {
			errs = append(errs, nodeErr(file, k, fmt.Sprintf("unknown key grounding.%s (known: names)", k.Value)))
			continue
		}
		names, err := nameLists(file, val)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d.names = grounding.NewNames(names)
	}
	return errs
}

// nameLists reads grounding.names: a mapping from a quantity to the phrases that name it.
func nameLists(file string, v *yaml.Node) (map[string][]string, *Error) {
	if v.Kind != yaml.MappingNode {
		return nil, nodeErr(file, v, "grounding.names must be a mapping from a quantity to a list of phrases")
	}
	out := map[string][]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		q := v.Content[i].Value
		phrases, err := stringList(file, v.Content[i+1], "grounding.names."+q)
		if err != nil {
			return nil, err
		}
		out[q] = phrases
	}
	return out, nil
}

func (d *bundleData) checkLimits(file string, v *yaml.Node) ErrorList {
	if v.Kind != yaml.MappingNode {
		return ErrorList{nodeErr(file, v, "limits must be a mapping")}
	}
	var errs ErrorList
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Value != "max_argument_bytes" {
			errs = append(errs, nodeErr(file, k, fmt.Sprintf("unknown key limits.%s (known: max_argument_bytes)", k.Value)))
			continue
		}
		var n int
		if val.Tag != "!!int" || val.Decode(&n) != nil || n <= 0 {
			errs = append(errs, nodeErr(file, val, "limits.max_argument_bytes must be a positive integer"))
			continue
		}
		d.maxArgumentBytes = n
	}
	return errs
}

func (d *bundleData) checkIntents(file string, v *yaml.Node) ErrorList {
	if v.Kind != yaml.MappingNode {
		return ErrorList{nodeErr(file, v, "intents must be a mapping from intent name to its policy")}
	}
	d.intents = map[string]IntentPolicy{}
	var errs ErrorList
	for i := 0; i+1 < len(v.Content); i += 2 {
		name, entry := v.Content[i], v.Content[i+1]
		if entry.Kind != yaml.MappingNode {
			errs = append(errs, nodeErr(file, entry, fmt.Sprintf("intents.%s must be a mapping", name.Value)))
			continue
		}
		var ip IntentPolicy
		for j := 0; j+1 < len(entry.Content); j += 2 {
			if err := checkIntentKey(file, name.Value, entry.Content[j], entry.Content[j+1], &ip); err != nil {
				errs = append(errs, err)
			}
		}
		d.intents[name.Value] = ip
	}
	return errs
}

func checkIntentKey(file, intent string, k, v *yaml.Node, ip *IntentPolicy) *Error {
	kind, ok := intentKeys[k.Value]
	path := "intents." + intent + "." + k.Value
	switch {
	case !ok:
		return nodeErr(file, k, fmt.Sprintf("unknown key %s (known: allowed_tools, blocked_tools, require_tool_call, block_numeric_generation, allow_derivations, ignore_small_integers, number_sources, description)", path))
	case kind == "bool":
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
			return nodeErr(file, v, path+" must be true or false")
		}
		b := v.Value == "true"
		switch k.Value {
		case "require_tool_call":
			ip.RequireToolCall = &b
		case "block_numeric_generation":
			ip.BlockNumericGeneration = &b
		case "ignore_small_integers":
			ip.IgnoreSmallIntegers = &b
		default:
			ip.AllowDerivations = &b
		}
	case kind == "string":
		if v.Kind != yaml.ScalarNode {
			return nodeErr(file, v, path+" must be a string")
		}
	default:
		names, err := stringList(file, v, path)
		if err != nil {
			return err
		}
		switch k.Value {
		case "allowed_tools":
			ip.AllowedTools = names
		case "blocked_tools":
			ip.BlockedTools = names
		default:
			for _, s := range names {
				if s != "tool" && s != "user" && s != "system" {
					return nodeErr(file, v, fmt.Sprintf("%s: unknown source kind %q (known: tool, user, system)", path, s))
				}
			}
			ip.NumberSources = names
		}
	}
	return nil
}

func stringList(file string, v *yaml.Node, path string) ([]string, *Error) {
	if v.Kind != yaml.SequenceNode {
		return nil, nodeErr(file, v, path+" must be a list of strings")
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Tag != "!!str" || item.Value == "" {
			return nil, nodeErr(file, item, path+" must be a list of non-empty strings")
		}
		out = append(out, item.Value)
	}
	return out, nil
}

func nodeErr(file string, n *yaml.Node, msg string) *Error {
	return &Error{Code: CodeDataInvalid, File: file, Line: n.Line, Col: n.Column, Message: msg}
}

// jsonCompatible turns a decoded YAML value into the types encoding/json produces, so that
// OPA sees the same document whether the bundle wrote YAML or JSON.
func jsonCompatible(v any) (any, error) {
	b, err := json.Marshal(convertKeys(v))
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func convertKeys(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = convertKeys(x)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = convertKeys(x)
		}
		return m
	case []any:
		for i, x := range t {
			t[i] = convertKeys(x)
		}
		return t
	}
	return v
}
