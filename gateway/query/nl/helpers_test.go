package nl

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// exampleSources are the datasets of each data example: schema and CSV.
var exampleSources = map[string][][2]string{
	"analytics": {{"orders", "schema.yaml|orders.csv"}},
	"findings":  {{"findings", "schema.yaml|findings.csv"}},
	"trade":     {{"transactions", "schema.yaml|transactions.csv"}},
	"clinical":  {{"adsl", "adsl.schema.yaml|adsl.csv"}, {"adae", "adae.schema.yaml|adae.csv"}},
}

var (
	parsersMu sync.Mutex
	parsers   = map[string]*Parser{}
)

// exampleParser builds the parser of an example's semantic layer, with the values read
// from its CSVs (in memory, through data.Eval).
func exampleParser(t testing.TB, example string) *Parser {
	t.Helper()
	parsersMu.Lock()
	defer parsersMu.Unlock()
	if p := parsers[example]; p != nil {
		return p
	}
	var srcs []*semantic.Source
	for _, s := range exampleSources[example] {
		files := strings.Split(s[1], "|")
		dir := filepath.Join("../../../examples", example, "data")
		srcs = append(srcs, loadSource(t, s[0], filepath.Join(dir, files[0]), filepath.Join(dir, files[1])))
	}
	p := New(semantic.NewModel(srcs))
	parsers[example] = p
	return p
}

func loadSource(t testing.TB, name, schemaPath, csvPath string) *semantic.Source {
	t.Helper()
	sch, err := data.LoadSchema(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := data.Compile(sch)
	if err != nil {
		t.Fatal(err)
	}
	rows, bad, err := data.ReadCSVFile(csvPath, ds.Schema().Fields)
	if err != nil || len(bad) > 0 {
		t.Fatalf("%v %v", err, bad)
	}
	decl, err := semantic.LoadDecl(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	src, err := semantic.NewSource(name, ds, decl)
	if err != nil {
		t.Fatal(err)
	}
	run := func(_ context.Context, _ string, q *data.Query) (*data.Result, error) {
		p, err := ds.Plan(q)
		if err != nil {
			return nil, err
		}
		return data.Eval(p, rows), nil
	}
	if err := src.Load(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	return src
}

// parseCase is a question and JSON fragments its semantic query must (want) or must not
// (not) contain.
type parseCase struct {
	q    string
	want []string
	not  []string
}

var clock = time.Date(2026, 6, 15, 12, 0, 0, 0, time.UTC)

func runParseCases(t *testing.T, example string, cases []parseCase) {
	t.Helper()
	p := exampleParser(t, example)
	for _, c := range cases {
		t.Run(c.q, func(t *testing.T) {
			sq := p.Parse(c.q, clock)
			b, _ := json.Marshal(sq)
			got := string(b)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %s\n in %s", w, got)
				}
			}
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %s\n in %s", n, got)
				}
			}
		})
	}
}
