package data

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSchemaErrors(t *testing.T) {
	src := `table: orders
fields:
  price: {type: number}
  qty: integer
  name: {type: string, colour: red}
  day: date
group_by: [name, day, week]
metrics:
  revenue: "sum(price * qty)"
  bad_col: "price * 2"
  loop_a: "loop_b + 1"
  loop_b: "loop_a"
  text_sum: "sum(name)"
  nested: "sum(count(*))"
  raw_sql: "sum(price); DROP TABLE orders"
  unknown: "sum(cost)"
limits: {default: 80, max: 10}
extra: 1
`
	s, err := ParseSchema("s.yaml", []byte(src))
	if err == nil {
		_, err = Compile(s)
	}
	if err == nil {
		t.Fatal("no error")
	}
	// ParseSchema reports keys, Compile the rest; check the parse errors first.
	for _, want := range []string{`s.yaml:5: schema_unknown_key: unknown key "colour"`, `s.yaml:18: schema_unknown_key: unknown key "extra"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
	src = strings.Replace(strings.Replace(src, ", colour: red", "", 1), "extra: 1\n", "", 1)
	s, err = ParseSchema("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(s)
	for _, want := range []string{
		`s.yaml:4: schema_field_type: field qty: type "integer" is not one of string, number, int, date`,
		`schema_group_by: group_by "week" is neither a field nor day, month, quarter, year or weekday`,
		`s.yaml:10: schema_metric_expr: metric bad_col: unknown metric "price"`,
		`s.yaml:11: schema_metric_expr: metric loop_a: metric cycle loop_a -> loop_b -> loop_a`,
		`s.yaml:13: schema_metric_expr: metric text_sum: sum over string field name`,
		`s.yaml:14: schema_metric_expr: metric nested: aggregate count inside another aggregate`,
		`s.yaml:15: schema_metric_expr: metric raw_sql: unexpected ";`,
		`s.yaml:16: schema_metric_expr: metric unknown: unknown field "cost"`,
		`schema_limits: limits: need 1 <= default (80) <= max (10)`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

func TestMetricInlining(t *testing.T) {
	ds := compileExample(t, "../../examples/analytics/data/schema.yaml")
	x, _ := ds.Metric("ticket_medio")
	if got := x.String(); got != "(sum((unit_price * quantity)) / count(*))" {
		t.Errorf("ticket_medio = %s", got)
	}
	x, _ = ds.Metric("food_cost_percent")
	if got := x.String(); got != "((sum((unit_cost * quantity)) / sum((unit_price * quantity))) * 100)" {
		t.Errorf("food_cost_percent = %s", got)
	}
}

func compileExample(t testing.TB, path string) *Dataset {
	t.Helper()
	s, err := LoadSchema(path)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestExamples compiles every example dataset schema and converts its CSV without bad rows.
func TestExamples(t *testing.T) {
	schemas, _ := filepath.Glob("../../examples/*/data/*schema.yaml")
	if len(schemas) < 5 {
		t.Fatalf("found %d example schemas", len(schemas))
	}
	for _, path := range schemas {
		t.Run(path, func(t *testing.T) {
			ds := compileExample(t, path)
			csvPath := filepath.Join(filepath.Dir(path), ds.Schema().Table+".csv")
			if f, err := os.Open(csvPath); err == nil {
				defer f.Close()
				c, err := ReadCSV(f)
				if err != nil {
					t.Fatal(err)
				}
				rows, bad, err := ConvertCSV(c, ds.Schema().Fields)
				if err != nil || len(bad) > 0 || len(rows) == 0 {
					t.Errorf("%s: %d rows, bad %v, err %v", csvPath, len(rows), bad, err)
				}
			} else {
				t.Errorf("no CSV for %s: %v", path, err)
			}
			b, err := json.Marshal(ds.Tool())
			if err != nil || !strings.Contains(string(b), `"name":"query_data"`) {
				t.Errorf("tool: %s %v", b, err)
			}
		})
	}
}

func TestJSONSchema(t *testing.T) {
	ds := compileExample(t, "../../examples/analytics/data/schema.yaml")
	b, _ := json.Marshal(ds.JSONSchema())
	for _, want := range []string{`"additionalProperties":false`, `"enum":["revenue","food_cost"`, `"maximum":500`, `"required":["type","filters"]`, `"groupBy":{"description":"one grouping per query","enum":["category"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("schema lacks %s:\n%s", want, b)
		}
	}
	d := ds.ToolDescription()
	for _, want := range []string{"- revenue = sum(unit_price * quantity)", "- category (string); values: Antipasti", "(day, month, quarter, year, weekday of order_date)", "at most 500"} {
		if !strings.Contains(d, want) {
			t.Errorf("description lacks %q:\n%s", want, d)
		}
	}
}
