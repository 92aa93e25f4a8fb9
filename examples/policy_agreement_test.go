package examples

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/weirgw/weir/adapters/data"
)

// TestTradePolicyAgreesWithToolSchema: the trade bundle validates query_data's arguments
// against its own copy of the dataset's schema (data.weir.query_data). That copy must say
// exactly what the tool's schema, compiled from data/schema.yaml, advertises to the model
// — fields and types, operators per type, operations, metrics, groupings, keys and the row
// cap — or the policy refuses queries the tool offers (issue 16, seed 003).
func TestTradePolicyAgreesWithToolSchema(t *testing.T) {
	s, err := data.LoadSchema("trade/data/schema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("trade/policies/data.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		QueryData struct {
			Fields     map[string]string   `yaml:"fields"`
			Operators  map[string][]string `yaml:"operators"`
			Operations map[string]string   `yaml:"operations"`
			Metrics    []string            `yaml:"metrics"`
			GroupBy    []string            `yaml:"group_by"`
			MaxLimit   int                 `yaml:"max_limit"`
			Keys       []string            `yaml:"keys"`
		} `yaml:"query_data"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	pol := doc.QueryData
	schema := ds.JSONSchema()
	for _, f := range ds.Schema().Fields {
		want := string(f.Type)
		if f.Type == data.TypeInt {
			want = "number"
		}
		if pol.Fields[f.Name] != want {
			t.Errorf("field %s: policy says %q, the schema %q", f.Name, pol.Fields[f.Name], want)
		}
	}
	if len(pol.Fields) != len(ds.Schema().Fields) {
		t.Errorf("policy fields %v, schema fields %v", pol.Fields, ds.Schema().FieldNames())
	}
	for typ, t2 := range map[string]data.FieldType{"string": data.TypeString, "number": data.TypeNumber, "date": data.TypeDate} {
		if !sameSet(pol.Operators[typ], data.OperatorsFor(t2)) {
			t.Errorf("operators for %s: policy %v, tool %v", typ, pol.Operators[typ], data.OperatorsFor(t2))
		}
	}
	var ops []string
	for op := range pol.Operations {
		ops = append(ops, op)
	}
	if !sameSet(ops, data.Operations) {
		t.Errorf("operations: policy %v, tool %v", ops, data.Operations)
	}
	if !sameSet(pol.Metrics, ds.Schema().MetricNames()) {
		t.Errorf("metrics: policy %v, tool %v", pol.Metrics, ds.Schema().MetricNames())
	}
	if !sameSet(pol.GroupBy, ds.Schema().GroupBy) {
		t.Errorf("group_by: policy %v, tool %v", pol.GroupBy, ds.Schema().GroupBy)
	}
	if pol.MaxLimit != ds.Schema().MaxLimit {
		t.Errorf("max_limit: policy %d, tool %d", pol.MaxLimit, ds.Schema().MaxLimit)
	}
	var keys []string
	props, _ := json.Marshal(schema["properties"])
	var m map[string]any
	json.Unmarshal(props, &m)
	for k := range m {
		keys = append(keys, k)
	}
	if !sameSet(pol.Keys, keys) {
		t.Errorf("keys: policy %v, tool %v", pol.Keys, keys)
	}
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
}
