package loadtest

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Stages are the stage benchmarks read from `go test -bench -benchmem` output.
type Stages struct {
	Source string  `json:"source"`
	Rows   []Stage `json:"rows"`
	// Failures are the failed benchmarks and packages with their messages.
	Failures []string `json:"failures,omitempty"`
}

// Stage is one benchmark; with -count > 1 the median of its runs.
type Stage struct {
	Package     string  `json:"package"` // module-relative: rules, policies/grounding
	Name        string  `json:"name"`    // without Benchmark and the -GOMAXPROCS suffix
	NsPerOp     float64 `json:"ns_per_op"`
	BytesPerOp  float64 `json:"bytes_per_op"`  // -1 without -benchmem
	AllocsPerOp float64 `json:"allocs_per_op"` // -1 without -benchmem
	// Other holds the benchmark's own metrics (median-µs, MB/s…).
	Other  map[string]float64 `json:"other,omitempty"`
	Budget string             `json:"budget,omitempty"`
	Met    *bool              `json:"met,omitempty"`
}

// stageBudget is a budget of DESIGN.md and the benchmarks that measure it.
type stageBudget struct {
	pkg, prefix, skip string
	limit             time.Duration
}

// stageBudgets maps DESIGN.md's stage budgets to their benchmarks. The budgets are stated
// per operation; ns/op is the mean, which on a quiet machine is close to the median.
var stageBudgets = []stageBudget{
	// classify a 200-byte message with a 100-rule pack (and each example pack, same size)
	{pkg: "rules", prefix: "Classify/pack=", skip: "prefilter=off", limit: 10 * time.Microsecond},
	// policy decision for 3 proposed tool calls
	{pkg: "policies", prefix: "ToolsDecision", limit: 50 * time.Microsecond},
	// numeric grounding of a 1 KB answer against 10 KB of tool results (GroundingLarge measures
	// 10 KB to 1 MB answers for linearity; DESIGN.md gives them no budget)
	{pkg: "policies/grounding", prefix: "Grounding", skip: "GroundingLarge", limit: 100 * time.Microsecond},
}

var procsSuffix = regexp.MustCompile(`-\d+$`)

// module is the prefix stripped from package paths in the table.
const module = "github.com/weirgw/weir"

// ParseStages reads `go test -bench` output. Benchmarks are listed in the order they ran.
func ParseStages(r io.Reader, source string) (*Stages, error) {
	st := &Stages{Source: source}
	runs := map[string][]Stage{}
	var order []string
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	failing := 0 // lines still to keep after a failure
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimPrefix(line, "pkg: ")
		case strings.HasPrefix(line, "--- FAIL"), strings.HasPrefix(line, "FAIL"), strings.HasPrefix(line, "panic:"):
			st.Failures = append(st.Failures, line)
			failing = 4
		case failing > 0 && strings.HasPrefix(line, "    "):
			st.Failures = append(st.Failures, line)
			failing--
		case strings.HasPrefix(line, "Benchmark"):
			s, ok := parseBenchLine(line)
			if !ok {
				continue
			}
			s.Package = strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
			key := s.Package + " " + s.Name
			if runs[key] == nil {
				order = append(order, key)
			}
			runs[key] = append(runs[key], s)
		default:
			failing = 0
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	for _, key := range order {
		s := median(runs[key])
		s.judge()
		st.Rows = append(st.Rows, s)
	}
	return st, nil
}

// parseBenchLine reads "BenchmarkX-2  1000  1234 ns/op  56 B/op  7 allocs/op  8 other".
func parseBenchLine(line string) (Stage, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 {
		return Stage{}, false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return Stage{}, false
	}
	s := Stage{Name: procsSuffix.ReplaceAllString(strings.TrimPrefix(f[0], "Benchmark"), ""), NsPerOp: -1, BytesPerOp: -1, AllocsPerOp: -1}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Stage{}, false
		}
		switch unit := f[i+1]; unit {
		case "ns/op":
			s.NsPerOp = v
		case "B/op":
			s.BytesPerOp = v
		case "allocs/op":
			s.AllocsPerOp = v
		default:
			if s.Other == nil {
				s.Other = map[string]float64{}
			}
			s.Other[unit] = v
		}
	}
	return s, s.NsPerOp >= 0
}

// median returns the run with the median ns/op.
func median(runs []Stage) Stage {
	sort.Slice(runs, func(i, j int) bool { return runs[i].NsPerOp < runs[j].NsPerOp })
	return runs[len(runs)/2]
}

// judge attaches the stage's budget, if DESIGN.md gives one.
func (s *Stage) judge() {
	for _, b := range stageBudgets {
		if s.Package == b.pkg && strings.HasPrefix(s.Name, b.prefix) && (b.skip == "" || !strings.Contains(s.Name, b.skip)) {
			met := s.NsPerOp <= float64(b.limit.Nanoseconds())
			s.Budget, s.Met = "≤ "+durationText(b.limit), &met
			return
		}
	}
}
