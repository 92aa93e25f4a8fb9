package rules

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// File is one YAML file of a pack: its name (used in error messages) and content.
type File struct {
	Name string
	Data []byte
}

// LoadDir reads every *.yaml and *.yml file of dir (not recursively), merges them and
// compiles the pack. The error, if any, is an ErrorList with every problem of every file.
func LoadDir(dir string) (*Pack, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, ErrorList{{File: dir, Code: "pack_unreadable", Message: err.Error()}}
	}
	var files []File
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || (ext != ".yaml" && ext != ".yml") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, ErrorList{{File: path, Code: "pack_unreadable", Message: err.Error()}}
		}
		files = append(files, File{Name: path, Data: data})
	}
	if len(files) == 0 {
		return nil, ErrorList{{File: dir, Code: "pack_empty", Message: "no .yaml or .yml files"}}
	}
	return Load(files)
}

// Load merges and compiles the given files into a pack. Files are processed in name order.
func Load(files []File) (*Pack, error) {
	sort.SliceStable(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	var e errs
	var srcs []*source
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f.Name))
		h.Write([]byte{0})
		h.Write(f.Data)
		h.Write([]byte{0})
		if s := parseFile(f, &e); s != nil {
			srcs = append(srcs, s)
		}
	}
	p := compile(srcs, &e)
	if err := e.err(); err != nil {
		return nil, err
	}
	p.revision = hex.EncodeToString(h.Sum(nil))[:16]
	return p, nil
}

// source is a parsed file: the typed document plus the node tree that gives positions.
type source struct {
	name string
	root *yaml.Node // the document's top-level mapping, nil for an empty file
	doc  fileDoc
}

// parseFile decodes one file twice: into nodes (for positions) and strictly into fileDoc.
// It returns nil when the file cannot be used at all.
func parseFile(f File, e *errs) *source {
	s := &source{name: f.Name}
	var doc yaml.Node
	if err := yaml.Unmarshal(f.Data, &doc); err != nil {
		// yaml.v3 reports the line where the enclosing block starts, so say so.
		e.add(f.Name, yamlErrLine(err.Error()), "yaml_syntax", "%s (in the block that starts here)", trimYAMLErr(err.Error()))
		return nil
	}
	if len(doc.Content) == 0 {
		return s // an empty file is allowed (e.g. everything commented out)
	}
	s.root = doc.Content[0]
	if s.root.Kind != yaml.MappingNode {
		e.add(f.Name, s.root.Line, "type_mismatch", "a rule-pack file must be a mapping of top-level keys (pack, intents, aliases, extract, rules, decide, tests)")
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(f.Data))
	dec.KnownFields(true)
	if err := dec.Decode(&s.doc); err != nil {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			e.add(f.Name, yamlErrLine(err.Error()), "yaml_syntax", "%s", trimYAMLErr(err.Error()))
			return nil
		}
		for _, msg := range te.Errors {
			line := yamlErrLine(msg)
			msg = lineRE.ReplaceAllString(msg, "")
			if m := unknownRE.FindStringSubmatch(msg); m != nil {
				e.add(f.Name, line, "unknown_key", "unknown key %q in %s", m[1], typeLabel(m[2]))
				continue
			}
			e.add(f.Name, line, "type_mismatch", "%s", humanizeType(msg))
		}
		// A file with type errors still contributes what decoded, so every file's
		// errors are reported in one pass.
	}
	return s
}

var (
	lineRE     = regexp.MustCompile(`^(?:yaml: )?line \d+: `)
	lineNumRE  = regexp.MustCompile(`line (\d+)`)
	unknownRE  = regexp.MustCompile(`^field (\S+) not found in type rules\.(\w+)`)
	typeLabels = map[string]string{
		"fileDoc": "the top level (allowed: pack, intents, aliases, extract, rules, decide, tests)",
		"packDoc": "pack", "defaultDoc": "pack.default", "fallbackDoc": "pack.fallback",
		"normalizeDoc": "pack.normalize", "calibrationDoc": "pack.calibration", "intentDoc": "an intent", "routeDoc": "a route",
		"extractDoc": "an extractor", "ruleDoc": "a rule", "decideDoc": "a decide override",
		"testDoc": "a test",
	}
)

func typeLabel(t string) string {
	if l, ok := typeLabels[t]; ok {
		return l
	}
	return t
}

func humanizeType(msg string) string {
	msg = strings.ReplaceAll(msg, "rules.", "")
	for k, v := range typeLabels {
		msg = strings.ReplaceAll(msg, k, v)
	}
	return msg
}

func yamlErrLine(msg string) int {
	if m := lineNumRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func trimYAMLErr(msg string) string {
	return strings.TrimPrefix(lineRE.ReplaceAllString(msg, ""), "yaml: ")
}

// line returns the line of the node at path (string keys for mappings, ints for sequences).
// For a mapping key it is the key's line, which is where an author looks. Unknown paths give
// the line of the deepest node found, so an error still points near its cause.
func (s *source) line(path ...any) int {
	n := s.root
	if n == nil {
		return 0
	}
	line := n.Line
	for _, step := range path {
		switch k := step.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return line
			}
			found := false
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == k {
					line, n, found = n.Content[i].Line, n.Content[i+1], true
					break
				}
			}
			if !found {
				return line
			}
		case int:
			if n.Kind != yaml.SequenceNode || k >= len(n.Content) {
				return line
			}
			n = n.Content[k]
			line = n.Line
		}
	}
	return line
}

// keys returns the keys of the mapping at path in file order.
func (s *source) keys(path ...any) []string {
	n := s.root
	for _, step := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == step.(string) {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}
