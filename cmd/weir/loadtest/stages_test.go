package loadtest

import (
	"bytes"
	"strings"
	"testing"
)

const benchOutput = `goos: linux
goarch: amd64
pkg: github.com/weirgw/weir/policies
cpu: AMD EPYC
BenchmarkToolsDecision-2   	   20000	     41000 ns/op	   12000 B/op	     230 allocs/op
BenchmarkToolsDecision-2   	   20000	     45000 ns/op	   12000 B/op	     230 allocs/op
BenchmarkToolsDecision-2   	   20000	     90000 ns/op	   12000 B/op	     230 allocs/op
BenchmarkToolsDecisionTrade-2   	   10000	     61000 ns/op	   22000 B/op	     400 allocs/op
PASS
ok  	github.com/weirgw/weir/policies	3.1s
pkg: github.com/weirgw/weir/policies/grounding
BenchmarkGrounding-2   	   50000	     20500 ns/op	    1024 B/op	      12 allocs/op
--- BENCH: BenchmarkGrounding-2
    bench_test.go:66: answer 1100 B, 20 numbers
BenchmarkGroundingLarge/1024KB-2   	       3	 380000000 ns/op	 9000000 B/op	     900 allocs/op
pkg: github.com/weirgw/weir/rules
BenchmarkClassify/pack=synthetic100/bytes=200-2         	  300000	      4100 ns/op	  48.78 MB/s	     960 B/op	       9 allocs/op
BenchmarkClassify/pack=synthetic100/prefilter=off-2     	   30000	     42000 ns/op	   4.76 MB/s	     960 B/op	       9 allocs/op
BenchmarkLoad-2   	     100	  10500000 ns/op
--- FAIL: BenchmarkBroken
    broken_test.go:12: boom
FAIL
exit status 1
FAIL	github.com/weirgw/weir/rules	4.0s
pkg: github.com/weirgw/weir/adapters/data/sqlstore
BenchmarkQueryData/metric-2   	    1000	   1200000 ns/op	       812.0 median-µs	    4000 B/op	      80 allocs/op
`

func TestParseStages(t *testing.T) {
	st, err := ParseStages(strings.NewReader(benchOutput), "bench.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Stage{}
	var order []string
	for _, s := range st.Rows {
		got[s.Package+" "+s.Name] = s
		order = append(order, s.Package+" "+s.Name)
	}
	want := []string{"policies ToolsDecision", "policies ToolsDecisionTrade", "policies/grounding Grounding",
		"policies/grounding GroundingLarge/1024KB", "rules Classify/pack=synthetic100/bytes=200", "rules Classify/pack=synthetic100/prefilter=off", "rules Load",
		"adapters/data/sqlstore QueryData/metric"}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Fatalf("rows = %q, want %q", order, want)
	}
	for _, tc := range []struct {
		key    string
		ns     float64
		allocs float64
		budget string
		met    string // "", "yes", "NO"
	}{
		{"policies ToolsDecision", 45000, 230, "≤ 50 µs", "yes"}, // the median of three runs
		{"policies ToolsDecisionTrade", 61000, 400, "≤ 50 µs", "NO"},
		{"policies/grounding Grounding", 20500, 12, "≤ 100 µs", "yes"},
		{"policies/grounding GroundingLarge/1024KB", 380000000, 900, "", ""}, // the 1 KB budget is not a 1 MB one
		{"rules Classify/pack=synthetic100/bytes=200", 4100, 9, "≤ 10 µs", "yes"},
		{"rules Classify/pack=synthetic100/prefilter=off", 42000, 9, "", ""}, // the comparison run has no budget
		{"rules Load", 10500000, -1, "", ""},
	} {
		s := got[tc.key]
		met := ""
		if s.Met != nil {
			met = yesNo(*s.Met)
		}
		if s.NsPerOp != tc.ns || s.AllocsPerOp != tc.allocs || s.Budget != tc.budget || met != tc.met {
			t.Errorf("%s = %+v (met %q), want %v ns/op, %v allocs/op, budget %q met %q", tc.key, s, met, tc.ns, tc.allocs, tc.budget, tc.met)
		}
	}
	if v := got["adapters/data/sqlstore QueryData/metric"].Other["median-µs"]; v != 812 {
		t.Errorf("median-µs = %v, want 812", v)
	}
	failures := strings.Join(st.Failures, "\n")
	for _, want := range []string{"--- FAIL: BenchmarkBroken", "broken_test.go:12: boom", "FAIL\tgithub.com/weirgw/weir/rules"} {
		if !strings.Contains(failures, want) {
			t.Errorf("failures lack %q:\n%s", want, failures)
		}
	}
	if strings.Contains(failures, "answer 1100 B") {
		t.Errorf("a benchmark's log line was taken for a failure:\n%s", failures)
	}
	var table bytes.Buffer
	if err := WriteTable(&table, &Report{Stages: st}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "61,000") || !strings.Contains(table.String(), "NO") {
		t.Errorf("table:\n%s", table.String())
	}
}
