package semantic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/data"
)

// memModel is an example's model over its CSVs, run in memory by data.Eval; reads counts
// the steps each execution makes.
type memModel struct {
	m     *Model
	rows  map[string][][]any
	steps []Step
	deny  string // a source whose reads are denied
}

func openExample(t *testing.T, example string, sources ...[3]string) *memModel {
	t.Helper()
	mm := &memModel{rows: map[string][][]any{}}
	var srcs []*Source
	for _, s := range sources {
		dir := filepath.Join("../../../examples", example, "data")
		sch, err := data.LoadSchema(filepath.Join(dir, s[1]))
		if err != nil {
			t.Fatal(err)
		}
		ds, err := data.Compile(sch)
		if err != nil {
			t.Fatal(err)
		}
		rows, _, err := data.ReadCSVFile(filepath.Join(dir, s[2]), ds.Schema().Fields)
		if err != nil {
			t.Fatal(err)
		}
		decl, err := LoadDecl(filepath.Join(dir, s[1]))
		if err != nil {
			t.Fatal(err)
		}
		src, err := NewSource(s[0], ds, decl)
		if err != nil {
			t.Fatal(err)
		}
		mm.rows[s[0]] = rows
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
		srcs = append(srcs, src)
	}
	mm.m = NewModel(srcs)
	return mm
}

func (mm *memModel) read(_ context.Context, st Step) (*data.Result, error) {
	mm.steps = append(mm.steps, st)
	if st.Source == mm.deny {
		return nil, fmt.Errorf("%s: %w", st.Source, ErrDenied)
	}
	p, err := mm.m.Source(st.Source).Dataset.Plan(st.Query)
	if err != nil {
		return nil, err
	}
	return data.Eval(p, mm.rows[st.Source]), nil
}

func clinical(t *testing.T) *memModel {
	return openExample(t, "clinical", [3]string{"adsl", "adsl.schema.yaml", "adsl.csv"}, [3]string{"adae", "adae.schema.yaml", "adae.csv"})
}

func groupsOf(r *Result) string {
	var parts []string
	for _, g := range r.Groups {
		parts = append(parts, fmt.Sprintf("%v=%v", g.Label, g.Values[0]))
	}
	return strings.Join(parts, " ")
}

// TestExecute runs semantic queries on the demo data; the expected values were computed
// separately by SQL over the CSVs.
func TestExecute(t *testing.T) {
	cl := clinical(t)
	count := []Measure{{Op: data.AggCount}}
	cases := []struct {
		name string
		mm   *memModel
		q    Query
		want string
	}{
		{"events per arm: a dimension of the joined source", cl,
			Query{Source: "adae", Measures: count, GroupBy: &Dimension{Source: "adsl", Field: "ARM"}},
			"High Dose=16 Low Dose=21 Placebo=20"},
		{"patients with at least two events", cl,
			Query{Source: "adsl", Measures: count, Exists: []Exists{{Source: "adae", Min: 2}}}, "17"},
		{"patients without events", cl,
			Query{Source: "adsl", Measures: count, Exists: []Exists{{Source: "adae", Not: true}}}, "5"},
		{"share of mild events", cl,
			Query{Source: "adae", Measures: count, Share: &Share{Filters: []Filter{{Source: "adae", Field: "AESEV", Op: data.OpIn, Values: []any{"MILD"}}}}}, "57.89"},
		{"share of the events in a period: the period is the condition", cl,
			Query{Source: "adae", Measures: count, Share: &Share{Time: []TimeFilter{{Source: "adae", Field: "ASTDT", Ranges: []Range{{From: "2024-08-01", To: "2024-08-31"}}}}}}, "22.81"},
		{"share of the events in a period per arm", cl,
			Query{Source: "adae", Measures: count, GroupBy: &Dimension{Source: "adsl", Field: "ARM"}, Share: &Share{Time: []TimeFilter{{Source: "adae", Field: "ASTDT", Ranges: []Range{{From: "2024-08-01", To: "2024-08-31"}}}}}},
			"High Dose=12.5 Low Dose=19.05 Placebo=35"},
		{"headache patients by sex: count distinct keys, regrouped", cl,
			Query{Source: "adae", Measures: []Measure{{Op: data.AggCountDistinct, Field: "USUBJID"}}, GroupBy: &Dimension{Source: "adsl", Field: "SEX"},
				Filters: []Filter{{Source: "adae", Field: "AEDECOD", Op: data.OpIn, Values: []any{"Headache"}}}}, "F=3 M=5"},
		{"average events per patient with events", cl,
			Query{Source: "adae", Measures: count, AveragePer: &Dimension{Source: "adae", Field: "USUBJID"}}, "1.84"},
		{"the arms without severe events: none", cl,
			Query{Source: "adae", Measures: count, Without: &Dimension{Source: "adsl", Field: "ARM"}, Filters: []Filter{{Source: "adae", Field: "AESEV", Op: data.OpIn, Values: []any{"SEVERE"}}}},
			""},
		{"the terms without events in the high dose arm", cl,
			Query{Source: "adae", Measures: count, Without: &Dimension{Source: "adae", Field: "AEDECOD"}, Filters: []Filter{{Source: "adsl", Field: "ARM", Op: data.OpIn, Values: []any{"High Dose"}}}},
			"Diarrhoea=0"},
		{"median age: the mean of the two middle values of an even count", cl,
			Query{Source: "adsl", Measures: []Measure{{Op: OpMedian, Field: "AGE"}}}, "50.5"},
		{"median treatment duration", cl,
			Query{Source: "adsl", Measures: []Measure{{Op: OpMedian, Field: "TRTDURD"}}}, "95"},
		{"median age by arm: one median per group", cl,
			Query{Source: "adsl", Measures: []Measure{{Op: OpMedian, Field: "AGE"}}, GroupBy: &Dimension{Source: "adsl", Field: "ARM"}},
			"High Dose=51.5 Low Dose=49 Placebo=49.5"},
		{"median age of the patients with a severe event: the join applies", cl,
			Query{Source: "adsl", Measures: []Measure{{Op: OpMedian, Field: "AGE"}},
				Filters: []Filter{{Source: "adae", Field: "AESEV", Op: data.OpIn, Values: []any{"SEVERE"}}}}, "41.5"},
		{"average events per patient: every patient, those without events too", cl,
			Query{Source: "adae", Measures: count, AveragePer: &Dimension{Source: "adsl"}}, "1.58"},
		{"average severe events per female patient: the patients' condition narrows both", cl,
			Query{Source: "adae", Measures: count, AveragePer: &Dimension{Source: "adsl"}, Filters: []Filter{
				{Source: "adae", Field: "AESEV", Op: data.OpIn, Values: []any{"SEVERE"}}, {Source: "adsl", Field: "SEX", Op: data.OpIn, Values: []any{"F"}}}}, "0.16"},
		{"the most events of one patient", cl,
			Query{Source: "adae", Measures: count, AveragePer: &Dimension{Source: "adae", Field: "USUBJID"}, PerOp: data.AggMax}, "3"},
		{"a ranking keeps the ties at its cut", cl,
			Query{Source: "adsl", Measures: count, GroupBy: &Dimension{Source: "adsl", Field: "SITEID"}, Order: &Order{Desc: true}, Limit: 1},
			"101=9 102=9 103=9 104=9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Execute(context.Background(), c.mm.m, &c.q, c.mm.read)
			if err != nil {
				t.Fatal(err)
			}
			got := groupsOf(res)
			if res.Shape == ShapeScalar {
				got = fmt.Sprint(res.Values[0])
			}
			if got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}

// TestWeekdays: a filter on the weekday of the time field and a grouping by weekday, named.
// The values were computed separately over the CSV (strftime('%w')).
func TestWeekdays(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	weekend := Filter{Source: "orders", Field: "order_date", Part: data.GroupWeekday, Op: data.OpIn, Values: []any{6, 0}}
	res, err := Execute(context.Background(), mm.m, &Query{Source: "orders", Measures: []Measure{{Metric: "revenue"}}, Filters: []Filter{weekend}}, mm.read)
	if err != nil || res.Values[0] != 6202.0 {
		t.Fatalf("weekend revenue = %v, %v; want 6202", res, err)
	}
	res, err = Execute(context.Background(), mm.m, &Query{Source: "orders", Measures: []Measure{{Op: data.AggCount}},
		GroupBy: &Dimension{Source: "orders", Field: "order_date", Grain: data.GroupWeekday}}, mm.read)
	want := "Sunday=117 Monday=132 Tuesday=127 Wednesday=137 Thursday=150 Friday=132 Saturday=146"
	if err != nil || groupsOf(res) != want {
		t.Fatalf("orders by weekday = %s, %v; want %s", groupsOf(res), err, want)
	}
}

// TestAveragePerDay: an average per day divides by the days that have rows, and says so.
// 189 orders over the 31 days of January 2025 with orders (computed over the CSV).
func TestAveragePerDay(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	q := &Query{Source: "orders", Measures: []Measure{{Op: data.AggCount}}, AveragePer: &Dimension{Source: "orders", Field: "order_date", Grain: data.GroupDay},
		Time: []TimeFilter{{Source: "orders", Field: "order_date", Ranges: []Range{{"2025-01-01", "2025-01-31"}}}}}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || res.Values[0] != 6.1 {
		t.Fatalf("orders per day = %v, %v; want 6.1", res, err)
	}
	if !strings.Contains(strings.Join(res.Notes, " "), "over the 31 days that have orders (days without any are not counted)") {
		t.Errorf("notes = %v", res.Notes)
	}
}

// TestCountGroups: the number of groups that pass a condition on each group's value is
// one value, counted in the dimension's unit; without a condition it is refused.
func TestCountGroups(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	q := &Query{Source: "orders", Measures: []Measure{{Op: data.AggCount, Unit: "orders"}}, GroupBy: &Dimension{Source: "orders", Field: "customer_id"},
		Having: &Having{Measure: 0, Op: data.OpAtLeast, Value: 5}, CountGroups: true}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || res.Shape != ShapeScalar || len(res.Values) != 1 || res.Values[0] != int64(84) || res.Units[0] != "customers" {
		t.Fatalf("%+v %v", res, err)
	}
	q.Having = nil
	var un *Unanswerable
	if _, err := Execute(context.Background(), mm.m, q, mm.read); !errors.As(err, &un) {
		t.Fatalf("a number of groups without a condition: %v", err)
	}
}

// TestHaving: a threshold on each group's total keeps the groups that pass it; without a
// breakdown it is refused.
func TestHaving(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	q := &Query{Source: "orders", Measures: []Measure{{Metric: "revenue"}}, GroupBy: &Dimension{Source: "orders", Field: "category"},
		Having: &Having{Measure: 0, Op: data.OpGreaterThan, Value: 3000}}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || groupsOf(res) != "Primi=4882 Secondi=7629.62" {
		t.Fatalf("%s %v", groupsOf(res), err)
	}
	q = &Query{Source: "orders", Measures: []Measure{{Metric: "revenue"}}, Having: &Having{Measure: 0, Op: data.OpGreaterThan, Value: 3000}}
	var un *Unanswerable
	if _, err := Execute(context.Background(), mm.m, q, mm.read); !errors.As(err, &un) {
		t.Fatalf("a having without a breakdown: %v", err)
	}
}

// TestAskedDifference: a comparison that asks the difference answers the first side minus
// the second, one value, with both values in a note.
func TestAskedDifference(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	q := &Query{Source: "orders", Measures: []Measure{{Metric: "revenue"}}, Compare: &Compare{Difference: true, Sides: []Side{
		{Label: "2025-03", Time: []TimeFilter{{Source: "orders", Field: "order_date", Ranges: []Range{{"2025-03-01", "2025-03-31"}}}}},
		{Label: "2025-01", Time: []TimeFilter{{Source: "orders", Field: "order_date", Ranges: []Range{{"2025-01-01", "2025-01-31"}}}}},
	}}}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || res.Shape != ShapeScalar || len(res.Values) != 1 || res.Values[0] != 642.0 || len(res.Notes) == 0 || !strings.Contains(res.Notes[len(res.Notes)-1], "2025-03: 5050; 2025-01: 4408") {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestAskedPercentChange: a comparison that asks the change in percent answers the last
// side minus the first in percent of the first, one value in %, with both values in a note;
// from a first side of 0 it is refused.
func TestAskedPercentChange(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	month := func(label, from, to string) Side {
		return Side{Label: label, Time: []TimeFilter{{Source: "orders", Field: "order_date", Ranges: []Range{{from, to}}}}}
	}
	q := &Query{Source: "orders", Measures: []Measure{{Metric: "revenue"}}, Compare: &Compare{PercentChange: true, Sides: []Side{
		month("2025-04", "2025-04-01", "2025-04-30"), month("2025-05", "2025-05-01", "2025-05-31"),
	}}}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || res.Shape != ShapeScalar || len(res.Values) != 1 || res.Values[0] != 29.67 || res.Units[0] != "%" || !strings.Contains(res.Notes[len(res.Notes)-1], "2025-04: 3527.5; 2025-05: 4574.12") {
		t.Fatalf("%+v %v", res, err)
	}
	q.Compare.Difference = true // asked in percent and as a difference: the percent, never a panic
	res, err = Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || res.Shape != ShapeScalar || res.Values[0] != 29.67 {
		t.Fatalf("with a difference too: %+v %v", res, err)
	}
	q.Compare.Sides[0] = month("2025-07", "2025-07-01", "2025-07-31")
	var un *Unanswerable
	if _, err := Execute(context.Background(), mm.m, q, mm.read); !errors.As(err, &un) {
		t.Fatalf("a change from zero: %v", err)
	}
}

// TestCompareReturnsBothValuesAndTheDifference: a comparison of two periods answers each
// side and the change from the first to the second.
func TestCompareReturnsBothValuesAndTheDifference(t *testing.T) {
	mm := openExample(t, "analytics", [3]string{"orders", "schema.yaml", "orders.csv"})
	q := &Query{Source: "orders", Measures: []Measure{{Metric: "revenue"}}, Compare: &Compare{Sides: []Side{
		{Label: "2025-01", Time: []TimeFilter{{Source: "orders", Field: "order_date", Ranges: []Range{{"2025-01-01", "2025-01-31"}}}}},
		{Label: "2025-03", Time: []TimeFilter{{Source: "orders", Field: "order_date", Ranges: []Range{{"2025-03-01", "2025-03-31"}}}}},
	}}}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil {
		t.Fatal(err)
	}
	if got := groupsOf(res); got != "2025-01=4408 2025-03=5050" || res.Difference == nil || res.Difference.Value != 642 || *res.Difference.Percent != 14.56 {
		t.Fatalf("%s %+v", got, res.Difference)
	}
	for _, st := range mm.steps {
		if st.Kind != ReadCompare {
			t.Fatalf("a comparison read as %s", st.Kind)
		}
	}
}

// TestUnits: quantities add up only within one unit; a sum across units is refused, a sum
// within one names it.
func TestUnits(t *testing.T) {
	mm := openExample(t, "trade", [3]string{"transactions", "schema.yaml", "transactions.csv"})
	qty := []Measure{{Op: data.AggSum, Field: "quantity", UnitField: "unit"}}
	_, err := Execute(context.Background(), mm.m, &Query{Source: "transactions", Measures: qty}, mm.read)
	var un *Unanswerable
	if !errors.As(err, &un) || !strings.Contains(un.Reason, "different units") {
		t.Fatalf("a sum across kg and pcs: %v", err)
	}
	shrimp := []Filter{{Source: "transactions", Field: "goodsName", Op: data.OpIn, Values: []any{"Frozen shrimp"}}}
	res, err := Execute(context.Background(), mm.m, &Query{Source: "transactions", Measures: append([]Measure(nil), qty...), Filters: shrimp}, mm.read)
	if err != nil || res.Values[0] != 63000.0 || res.Units[0] != "kg" {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestTextSearch: a condition on several fields holds on any of them (title or
// description), beside the others and across time ranges; a count over a text no row
// mentions is refused, a listing of it is empty.
func TestTextSearch(t *testing.T) {
	mm := openExample(t, "findings", [3]string{"findings", "schema.yaml", "findings.csv"})
	text := func(word string) Filter {
		return Filter{Source: "findings", Field: "title", Or: []string{"description"}, Op: data.OpContains, Values: []any{word}, Match: data.MatchNormalized}
	}
	count := []Measure{{Op: data.AggCount}}
	for _, c := range []struct {
		name string
		q    Query
		want string
	}{
		{"in the description only", Query{Source: "findings", Measures: count, Filters: []Filter{text("surveillance")}}, "5"},
		{"beside a condition and two years", Query{Source: "findings", Measures: count,
			Filters: []Filter{text("permit"), {Source: "findings", Field: "status", Op: data.OpIn, Values: []any{"Open"}}},
			Time:    []TimeFilter{{Source: "findings", Field: "dateIdentified", Ranges: []Range{{"2022-01-01", "2022-12-31"}, {"2024-01-01", "2024-12-31"}}}}}, "2"},
		{"either of two texts", Query{Source: "findings", Measures: count, Filters: []Filter{{Source: "findings", Field: "title", Or: []string{"description"}, Op: data.OpContains, Values: []any{"permit", "asbestos"}, Match: data.MatchNormalized}}}, "9"},
		{"on none of the fields", Query{Source: "findings", Measures: count, Filters: []Filter{{Source: "findings", Field: "title", Or: []string{"description"}, Op: data.OpNotContains, Values: []any{"permit"}, Match: data.MatchNormalized}}}, "53"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Execute(context.Background(), mm.m, &c.q, mm.read)
			if err != nil || fmt.Sprint(res.Values[0]) != c.want {
				t.Fatalf("got %+v %v, want %s", res, err, c.want)
			}
		})
	}
	_, err := Execute(context.Background(), mm.m, &Query{Source: "findings", Measures: count, Filters: []Filter{text("fire safety")}}, mm.read)
	var un *Unanswerable
	if !errors.As(err, &un) || !strings.Contains(un.Reason, `no title or description of the findings mentions "fire safety"`) {
		t.Fatalf("a count over a text nothing mentions: %v", err)
	}
	two := Filter{Source: "findings", Field: "title", Or: []string{"description"}, Op: data.OpContains, Values: []any{"permit", "safety"}, Match: data.MatchNormalized}
	if _, err := Execute(context.Background(), mm.m, &Query{Source: "findings", Measures: count, Filters: []Filter{two}}, mm.read); !errors.As(err, &un) || !strings.Contains(un.Reason, `"safety"`) {
		t.Fatalf("either of two texts, one not mentioned: %v", err)
	}
	res, err := Execute(context.Background(), mm.m, &Query{Source: "findings", Rows: true, Filters: []Filter{text("fire safety")}}, mm.read)
	if err != nil || len(res.Rows) != 0 {
		t.Fatalf("a listing of it: %+v %v", res, err)
	}
	// One field's text, as a question gives it ("a Seol address", "whose title begins
	// with 'Safety'"): a count over a text no row has is refused the same way.
	for _, f := range []Filter{
		{Source: "findings", Field: "department", Op: data.OpContains, Values: []any{"Securty"}, Match: data.MatchNormalized},
		{Source: "findings", Field: "title", Op: data.OpStartsWith, Values: []any{"Safety"}, Match: data.MatchNormalized},
	} {
		if _, err := Execute(context.Background(), mm.m, &Query{Source: "findings", Measures: count, Filters: []Filter{f}}, mm.read); !errors.As(err, &un) || !strings.Contains(un.Reason, "no "+f.Field+" of the findings") {
			t.Fatalf("a count over a text of %s no row has: %v", f.Field, err)
		}
	}
}

// TestDeniedReadStops: a read the policy denies stops the execution; nothing after it runs.
func TestDeniedReadStops(t *testing.T) {
	cl := clinical(t)
	cl.deny = "adsl"
	q := &Query{Source: "adae", Measures: []Measure{{Op: data.AggCount}}, Filters: []Filter{{Source: "adsl", Field: "ARM", Op: data.OpIn, Values: []any{"Placebo"}}}}
	_, err := Execute(context.Background(), cl.m, q, cl.read)
	if !errors.Is(err, ErrDenied) || len(cl.steps) != 1 {
		t.Fatalf("err %v after %d steps", err, len(cl.steps))
	}
}

// TestUncoveredNeverReads: a query with uncovered parts is unanswerable before any read.
func TestUncoveredNeverReads(t *testing.T) {
	cl := clinical(t)
	_, err := Execute(context.Background(), cl.m, &Query{Source: "adsl", Measures: []Measure{{Op: data.AggCount}}, Uncovered: []string{"BMI"}}, cl.read)
	var un *Unanswerable
	if !errors.As(err, &un) || len(cl.steps) != 0 {
		t.Fatalf("%v, %d reads", err, len(cl.steps))
	}
}

// TestToolQuery: the semantic query a model sends is checked against the layer, with
// problems it can correct, and the tool's schema names the layer's sources and fields.
func TestToolQuery(t *testing.T) {
	cl := clinical(t)
	for _, c := range []struct{ args, want string }{
		{`{"source":"adae","measures":[{"op":"count"}],"groupBy":{"source":"adsl","field":"ARM"}}`, ""},
		{`{"source":"adae","measures":[{"metric":"patients"}]}`, `"patients" is not a metric of adae`},
		{`{"source":"adsl","measures":[{"op":"count"}],"filters":[{"source":"adsl","field":"AGE","op":"contains","values":[1]}]}`, `"contains" is not valid for int field AGE`},
		{`{"source":"adsl","measures":[{"op":"count"}],"filters":[{"source":"adsl","field":"USUBJID","or":["AGE"],"op":"contains","values":["1"]}]}`, `"contains" is not valid for int field AGE`},
		{`{"source":"adsl","measures":[{"op":"count"}],"unknown":1}`, "unknown field"},
		{`{"source":"lab"}`, `"lab" is not a source`},
		{`{"source":"adsl","uncovered":["x"],"rows":true}`, "no uncovered parts"},
	} {
		_, err := cl.m.ParseQuery([]byte(c.args))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !data.IsInvalidQuery(err)) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
	}
	b, _ := json.Marshal(cl.m.JSONSchema())
	for _, w := range []string{`"enum":["adsl","adae"]`, `"AEDECOD"`, `"mean_age"`, `"quarter"`} {
		if !strings.Contains(string(b), w) {
			t.Errorf("schema lacks %s", w)
		}
	}
}
