package data

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

var (
	schemaKeys = []string{"name", "table", "description", "fields", "group_by", "time_field", "metrics", "limits", "order_by", "semantic"}
	fieldKeys  = []string{"type", "column", "description", "values"}
	metricKeys = []string{"expr", "description", "round"}
	limitKeys  = []string{"default", "max"}
)

// ParseSchema parses a schema from YAML. Unknown keys are errors; all problems are reported
// at once as SchemaErrors with file and line. The schema's semantics (types, group-by fields,
// metric expressions) are checked by Compile.
func ParseSchema(file string, b []byte) (*Schema, error) {
	e := &schemaErrs{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		e.add(0, "schema_yaml", "%v", err)
		return nil, e.err()
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		e.add(0, "schema_yaml", "the schema must be a YAML mapping")
		return nil, e.err()
	}
	s := &Schema{File: file}
	for _, kv := range pairs(doc.Content[0], e, schemaKeys) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "name":
			s.Name = scalar(v, e)
		case "table":
			s.Table = scalar(v, e)
		case "description":
			s.Description = scalar(v, e)
		case "time_field":
			s.TimeField = scalar(v, e)
		case "order_by":
			s.OrderBy = scalar(v, e)
		case "group_by":
			s.GroupBy = stringList(v, e)
		case "fields":
			s.Fields = parseFields(v, e)
		case "metrics":
			s.Metrics = parseMetrics(v, e)
		case "semantic":
			// The semantic layer's declarations (adapters/data/semantic) read this key
			// themselves; the structured query does not use them.
		case "limits":
			for _, lv := range pairs(v, e, limitKeys) {
				n := intScalar(lv[1], e)
				if lv[0].Value == "default" {
					s.DefaultLimit = n
				} else {
					s.MaxLimit = n
				}
			}
		}
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	return s, nil
}

func parseFields(v *yaml.Node, e *schemaErrs) []Field {
	var out []Field
	for _, kv := range pairs(v, e, nil) {
		f := Field{Name: kv[0].Value, line: kv[0].Line}
		if kv[1].Kind == yaml.ScalarNode { // shorthand: `quantity: int`
			f.Type = FieldType(kv[1].Value)
			out = append(out, f)
			continue
		}
		for _, fv := range pairs(kv[1], e, fieldKeys) {
			switch fv[0].Value {
			case "type":
				f.Type = FieldType(scalar(fv[1], e))
			case "column":
				f.Column = scalar(fv[1], e)
			case "description":
				f.Description = scalar(fv[1], e)
			case "values":
				f.Values = stringList(fv[1], e)
			}
		}
		out = append(out, f)
	}
	return out
}

func parseMetrics(v *yaml.Node, e *schemaErrs) []Metric {
	var out []Metric
	for _, kv := range pairs(v, e, nil) {
		m := Metric{Name: kv[0].Value, line: kv[0].Line}
		if kv[1].Kind == yaml.ScalarNode { // shorthand: `revenue: sum(unit_price * quantity)`
			m.Expr = kv[1].Value
			out = append(out, m)
			continue
		}
		for _, mv := range pairs(kv[1], e, metricKeys) {
			switch mv[0].Value {
			case "expr":
				m.Expr = scalar(mv[1], e)
			case "description":
				m.Description = scalar(mv[1], e)
			case "round":
				n := intScalar(mv[1], e)
				m.Round = &n
			}
		}
		out = append(out, m)
	}
	return out
}

// pairs returns the key/value nodes of a mapping, reporting unknown keys (when allowed is
// not nil), duplicate keys and non-mappings.
func pairs(n *yaml.Node, e *schemaErrs, allowed []string) [][2]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		e.add(n.Line, "schema_type", "expected a mapping")
		return nil
	}
	seen := map[string]bool{}
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case allowed != nil && !contains(allowed, k.Value):
			e.add(k.Line, "schema_unknown_key", "unknown key %q; allowed keys are %s", k.Value, oneOf(allowed))
		case seen[k.Value]:
			e.add(k.Line, "schema_duplicate_key", "key %q appears twice", k.Value)
		default:
			seen[k.Value] = true
			out = append(out, [2]*yaml.Node{k, v})
		}
	}
	return out
}

func scalar(n *yaml.Node, e *schemaErrs) string {
	if n.Kind != yaml.ScalarNode {
		e.add(n.Line, "schema_type", "expected a single value")
		return ""
	}
	return n.Value
}

func intScalar(n *yaml.Node, e *schemaErrs) int {
	v, err := strconv.Atoi(scalar(n, e))
	if err != nil && n.Kind == yaml.ScalarNode {
		e.add(n.Line, "schema_type", "expected an integer, got %q", n.Value)
	}
	return v
}

func stringList(n *yaml.Node, e *schemaErrs) []string {
	if n.Kind != yaml.SequenceNode {
		e.add(n.Line, "schema_type", "expected a list")
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		out = append(out, scalar(c, e))
	}
	return out
}
