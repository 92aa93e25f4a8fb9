package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/demo"
	"github.com/weirgw/weir/adapters/data/sqlstore"
)

func init() {
	registered["data"] = command{"load a CSV into a database, or write a demo dataset (load | gen)", runData}
}

const dataUsage = `usage: weir data load --dsn DSN --table NAME --csv FILE [--schema FILE] [--skip-bad] [--replace]
       weir data gen --example analytics (--dsn DSN | --csv FILE) [--rows N] [--seed S] [--replace]

DSNs are URLs: sqlite:///abs/path.db, sqlite:relative/path.db, postgres://user@host:5432/db`

func runData(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, dataUsage)
		return 2
	}
	switch args[0] {
	case "load":
		return runDataLoad(args[1:], stdout, stderr)
	case "gen":
		return runDataGen(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, dataUsage)
		return 0
	}
	fmt.Fprintf(stderr, "weir data: unknown subcommand %q\n%s\n", args[0], dataUsage)
	return 2
}

// maxBadRowsShown bounds the bad rows printed; the count is always printed.
const maxBadRowsShown = 50

func runDataLoad(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("data load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dsn := fs.String("dsn", "", "database URL (required)")
	table := fs.String("table", "", "table to create (default: the schema's table)")
	csvPath := fs.String("csv", "", "CSV file with a header line (required)")
	schemaPath := fs.String("schema", "", "dataset schema YAML; without it column types are inferred from the CSV")
	skipBad := fs.Bool("skip-bad", false, "load the good rows when some are bad (default: load nothing)")
	replace := fs.Bool("replace", false, "drop the table first if it exists")
	fs.Usage = func() { fmt.Fprintln(stderr, dataUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dsn == "" || *csvPath == "" || (*table == "" && *schemaPath == "") {
		fs.Usage()
		return 2
	}
	f, err := os.Open(*csvPath)
	if err != nil {
		fmt.Fprintf(stderr, "weir data load: %v\n", err)
		return 1
	}
	defer f.Close()
	c, err := data.ReadCSV(f)
	if err != nil {
		fmt.Fprintf(stderr, "weir data load: %s: %v\n", *csvPath, err)
		return 1
	}
	fields, name, err := loadFields(c, *schemaPath)
	if err != nil {
		fmt.Fprintf(stderr, "weir data load: %v\n", err)
		return 1
	}
	if *table == "" {
		*table = name
	}
	rows, bad, err := data.ConvertCSV(c, fields)
	if err != nil {
		fmt.Fprintf(stderr, "weir data load: %s: %v\n", *csvPath, err)
		return 1
	}
	printBadRows(stderr, *csvPath, bad)
	if len(bad) > 0 && !*skipBad {
		fmt.Fprintf(stderr, "weir data load: %d bad rows; nothing loaded (fix them, or pass --skip-bad to load the %d good rows)\n", len(bad), len(rows))
		return 1
	}
	err = sqlstore.Load(context.Background(), *dsn, *table, fields, rows, sqlstore.LoadOptions{Replace: *replace})
	if err != nil {
		fmt.Fprintf(stderr, "weir data load: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "loaded %d rows into %s (%d bad rows skipped)\ncolumns: %s\n", len(rows), *table, len(bad), describeFields(fields))
	return 0
}

// loadFields returns the fields of the table: from the schema, or inferred from the CSV.
func loadFields(c *data.CSV, schemaPath string) ([]data.Field, string, error) {
	if schemaPath == "" {
		return data.InferFields(c), "", nil
	}
	s, err := data.LoadSchema(schemaPath)
	if err != nil {
		return nil, "", err
	}
	ds, err := data.Compile(s)
	if err != nil {
		return nil, "", err
	}
	return ds.Schema().Fields, ds.Schema().Table, nil
}

func printBadRows(w io.Writer, file string, bad []data.BadRow) {
	for i, b := range bad {
		if i == maxBadRowsShown {
			fmt.Fprintf(w, "%s: ... and %d more bad rows\n", file, len(bad)-i)
			break
		}
		fmt.Fprintf(w, "%s:%d: %s\n", file, b.Line, b.Message)
	}
}

func describeFields(fields []data.Field) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.Column + " " + string(f.Type)
	}
	return strings.Join(parts, ", ")
}

func runDataGen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("data gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	example := fs.String("example", "", "dataset to generate: analytics (required)")
	dsn := fs.String("dsn", "", "database URL to write the orders table to")
	csvPath := fs.String("csv", "", "write a CSV file instead (- for stdout)")
	rows := fs.Int("rows", demo.GoldenRows, "rows to generate; 941 reproduces seed 002's golden values")
	seed := fs.Uint64("seed", demo.DefaultSeed, "random seed")
	replace := fs.Bool("replace", false, "drop the table first if it exists")
	fs.Usage = func() { fmt.Fprintln(stderr, dataUsage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *example != "analytics" || (*dsn == "") == (*csvPath == "") || *rows < 1 {
		fmt.Fprintln(stderr, "weir data gen: --example analytics and exactly one of --dsn or --csv are required; --rows must be positive")
		fs.Usage()
		return 2
	}
	out := demo.Analytics(*rows, *seed)
	if *csvPath != "" {
		if err := writeCSV(*csvPath, stdout, out); err != nil {
			fmt.Fprintf(stderr, "weir data gen: %v\n", err)
			return 1
		}
		return 0
	}
	err := sqlstore.Load(context.Background(), *dsn, "orders", demo.AnalyticsFields(), out, sqlstore.LoadOptions{Replace: *replace})
	if err != nil {
		fmt.Fprintf(stderr, "weir data gen: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d rows into orders (seed %d)\n", len(out), *seed)
	return 0
}

func writeCSV(path string, stdout io.Writer, rows [][]any) error {
	w := stdout
	if path != "-" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	cw := csv.NewWriter(w)
	_ = cw.Write(demo.AnalyticsColumns)
	rec := make([]string, len(demo.AnalyticsColumns))
	for _, r := range rows {
		for i, v := range r {
			switch x := v.(type) {
			case float64:
				rec[i] = strconv.FormatFloat(x, 'f', -1, 64)
			default:
				rec[i] = fmt.Sprint(x)
			}
		}
		_ = cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}
