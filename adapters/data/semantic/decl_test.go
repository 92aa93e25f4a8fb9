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
			checkDecl(t, ds, "semantic:\n  measures:\n    revenue:\n      unit: EUR\n      words: [fatturato]\n    net_revenue:\n      unit: EUR\n      refines: "+c.refines+"\n", c.err)
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
			checkDecl(t, ds, "semantic:\n  fields:\n    "+c.field+": {present: [discounted]}\n", c.err)
		})
	}
}

// TestOrderNamesValues: a ranked field's order names its declared values only; the error
// says where.
func TestOrderNamesValues(t *testing.T) {
	sch := &data.Schema{Name: "findings", Table: "findings",
		Fields: []data.Field{{Name: "severity", Type: data.TypeString, Values: []string{"Critical", "High", "Medium", "Low"}}}}
	ds, err := data.Compile(sch)
	if err != nil {
		t.Fatal(err)
	}
	checkDecl(t, ds, "semantic:\n  fields:\n    severity: {order: [Low, Medium, High, Critical]}\n", "")
	checkDecl(t, ds, "semantic:\n  fields:\n    severity:\n      order: [Low, Medium, Hgh, Critical]\n", `schema.yaml:3: semantic_order: field severity: order names "Hgh"`)
}

// checkDecl compiles a semantic section for ds: no error when want is "", else an error
// that contains want.
func checkDecl(t *testing.T, ds *data.Dataset, yaml, want string) {
	t.Helper()
	d, err := ParseDecl("schema.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewSource(ds.Schema().Name, ds, d)
	switch {
	case want == "" && err != nil:
		t.Fatal(err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("got %v, want %s", err, want)
	}
}
