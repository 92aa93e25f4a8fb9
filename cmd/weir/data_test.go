package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataLoad(t *testing.T) {
	dir := t.TempDir()
	dsn := "sqlite://" + filepath.Join(dir, "f.db")
	code, out, errOut := runCLI(t, "", "data", "load", "--dsn", dsn, "--csv", "../../examples/findings/data/findings.csv",
		"--schema", "../../examples/findings/data/schema.yaml")
	if code != 0 || !strings.Contains(out, "loaded 60 rows into findings") {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	// Loading again without --replace fails; with it succeeds.
	if code, _, errOut := runCLI(t, "", "data", "load", "--dsn", dsn, "--table", "findings", "--csv", "../../examples/findings/data/findings.csv"); code != 1 || !strings.Contains(errOut, "table exists") {
		t.Errorf("second load: %d %s", code, errOut)
	}
	if code, out, errOut := runCLI(t, "", "data", "load", "--replace", "--dsn", dsn, "--table", "findings", "--csv", "../../examples/findings/data/findings.csv"); code != 0 || !strings.Contains(out, "year int") {
		t.Errorf("replace with inferred types: %d %s %s", code, out, errOut)
	}
}

func TestDataLoadBadRows(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "bad.csv")
	os.WriteFile(csvPath, []byte("name,qty\na,1\nb,x\nc,3\nd\n"), 0o644)
	schema := filepath.Join(dir, "s.yaml")
	os.WriteFile(schema, []byte("table: t\nfields: {name: string, qty: int}\n"), 0o644)
	dsn := "sqlite://" + filepath.Join(dir, "b.db")
	code, _, errOut := runCLI(t, "", "data", "load", "--dsn", dsn, "--csv", csvPath, "--schema", schema)
	for _, want := range []string{"bad.csv:3: qty: \"x\" is not a valid int", "bad.csv:5: 1 values, the header has 2", "2 bad rows; nothing loaded"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("missing %q in %s", want, errOut)
		}
	}
	if code != 1 {
		t.Errorf("code = %d", code)
	}
	code, out, errOut := runCLI(t, "", "data", "load", "--skip-bad", "--dsn", dsn, "--csv", csvPath, "--schema", schema)
	if code != 0 || !strings.Contains(out, "loaded 2 rows into t (2 bad rows skipped)") {
		t.Errorf("skip-bad: %d %s %s", code, out, errOut)
	}
}

func TestDataGen(t *testing.T) {
	dsn := "sqlite://" + filepath.Join(t.TempDir(), "a.db")
	if code, out, errOut := runCLI(t, "", "data", "gen", "--example", "analytics", "--dsn", dsn); code != 0 || !strings.Contains(out, "wrote 941 rows into orders") {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	code, out, _ := runCLI(t, "", "data", "gen", "--example", "analytics", "--csv", "-", "--rows", "3")
	if code != 0 || !strings.HasPrefix(out, "order_id,order_date,customer_id,item_name,category,unit_price,unit_cost,quantity,discount_percent,payment_method,table_id,waiter,tax_rate\n") || strings.Count(out, "\n") != 4 {
		t.Errorf("csv: %d %q", code, out)
	}
	if code, _, _ := runCLI(t, "", "data", "gen", "--example", "trade", "--dsn", dsn); code != 2 {
		t.Errorf("unknown example: %d", code)
	}
}

// TestShippedOrdersCSV checks that examples/analytics/data/orders.csv is exactly what
// `weir data gen --example analytics --csv` writes, and that it loads with its schema.
func TestShippedOrdersCSV(t *testing.T) {
	want, err := os.ReadFile("../../examples/analytics/data/orders.csv")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "", "data", "gen", "--example", "analytics", "--csv", "-")
	if code != 0 || out != string(want) {
		t.Fatalf("generated CSV differs from the shipped orders.csv; regenerate it with: weir data gen --example analytics --csv examples/analytics/data/orders.csv")
	}
	dsn := "sqlite://" + filepath.Join(t.TempDir(), "o.db")
	code, out, errOut := runCLI(t, "", "data", "load", "--dsn", dsn, "--csv", "../../examples/analytics/data/orders.csv", "--schema", "../../examples/analytics/data/schema.yaml")
	if code != 0 || !strings.Contains(out, "loaded 941 rows into orders (0 bad rows skipped)") {
		t.Errorf("%d %s %s", code, out, errOut)
	}
}
