package semantic

import (
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/data"
)

// TestRefinesIsAnotherMeasure: a measure refines another declared measure, never itself or
// a name the layer does not declare; the error says where.
func TestRefinesIsAnotherMeasure(t *testing.T) {
	sch := &data.Schema{Name: "orders", Table: "orders",
		Fields:  []data.Field{{Name: "price", Type: data.TypeNumber}, {Name: "discount", Type: data.TypeNumber}},
		Metrics: []data.Metric{{Name: "revenue", Expr: "sum(price)"}, {Name: "net_revenue", Expr: "sum(price * (1 - discount / 100))"}}}
	ds, err := data.Compile(sch)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ refines, err string }{
		{"revenue", ""},
		{"gross", `schema.yaml:6: semantic_measure: measure net_revenue: refines "gross", which is not another measure`},
		{"net_revenue", `refines "net_revenue", which is not another measure`},
	} {
		t.Run(c.refines, func(t *testing.T) {
			d, err := ParseDecl("schema.yaml", []byte("semantic:\n  measures:\n    revenue:\n      unit: EUR\n      words: [fatturato]\n    net_revenue:\n      unit: EUR\n      refines: "+c.refines+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewSource("orders", ds, d)
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want %s", err, c.err)
			}
		})
	}
}

// TestPresentIsNumeric: words that say a row has a field above zero ("discounted") are read
// on a numeric field only.
func TestPresentIsNumeric(t *testing.T) {
	sch := &data.Schema{Name: "orders", Table: "orders",
		Fields: []data.Field{{Name: "discount", Type: data.TypeNumber}, {Name: "method", Type: data.TypeString}}}
	ds, err := data.Compile(sch)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ field, err string }{
		{"discount", ""},
		{"method", "semantic_present: field method: only a numeric field can be present"},
	} {
		t.Run(c.field, func(t *testing.T) {
			d, err := ParseDecl("schema.yaml", []byte("semantic:\n  fields:\n    "+c.field+": {present: [discounted]}\n"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewSource("orders", ds, d)
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want %s", err, c.err)
			}
		})
	}
}
