package loadtest

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// WriteTable prints the report as one table: the stage benchmarks with their budgets (when
// given), the load results per request kind, the half-load phase and the load budgets.
func WriteTable(w io.Writer, r *Report) error {
	h := r.Host
	fmt.Fprintf(w, "Weir performance · %s/%s · %d CPUs · %s\n", h.OS, h.Arch, h.CPUs, h.Go)
	if r.Stages != nil {
		fmt.Fprintln(w)
		stageGrid(r.Stages).write(w)
	}
	fmt.Fprintln(w)
	loadGrid(r).write(w)
	if len(r.Budgets) > 0 {
		fmt.Fprintln(w)
		budgetGrid(r.Budgets).write(w)
	}
	fmt.Fprintf(w, "\nCPU/req: the proxy process's user+system CPU time over the load divided by its requests;\n"+
		"the load generator and the canned upstream run in processes of their own. Latency is\n"+
		"measured by the client over loopback; at half load it counts from the moment a request was due.\n"+
		"The gateway's own time is read from its audit records: total latency minus the upstream stage;\n"+
		"on a machine the load generator and the upstream share, the rest of its p99 is waiting for a core.\n")
	return nil
}

// grid is a section of the table: rows of cells, numbers right-aligned.
type grid struct {
	right []bool // per column
	rows  [][]string
}

func (g *grid) add(cells ...string) { g.rows = append(g.rows, cells) }

// note adds a row whose text spans the whole width.
func (g *grid) note(text string) { g.rows = append(g.rows, []string{"\x00" + text}) }

func (g *grid) write(w io.Writer) {
	width := make([]int, len(g.right))
	for _, row := range g.rows {
		if len(row) > 1 {
			for i, c := range row {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
	}
	for _, row := range g.rows {
		if len(row) == 1 && strings.HasPrefix(row[0], "\x00") {
			fmt.Fprintln(w, row[0][1:])
			continue
		}
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if g.right[i] {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func stageGrid(st *Stages) *grid {
	g := &grid{right: []bool{false, true, true, true, true, false, false}}
	g.add("STAGE BENCHMARKS ("+st.Source+")", "ns/op", "B/op", "allocs/op", "budget", "met", "")
	for _, s := range st.Rows {
		met := ""
		if s.Met != nil {
			met = yesNo(*s.Met)
		}
		g.add(s.Package+" "+s.Name, thousands(s.NsPerOp), optional(s.BytesPerOp), optional(s.AllocsPerOp), s.Budget, met, other(s.Other))
	}
	for _, f := range st.Failures {
		g.note(f)
	}
	return g
}

func loadGrid(r *Report) *grid {
	g := &grid{right: []bool{false, false, true, true, true, true, true, false}}
	g.add(fmt.Sprintf("LOAD (%d conns, %s per target and request, %d rounds)", r.Conns, durationText(time.Duration(r.DurationMS)*time.Millisecond), r.Rounds),
		"target", "req/s", "p50", "p99", "CPU/req", "errors", "gateway vs passthrough")
	for _, res := range r.Results {
		addResult(g, res.Label, res)
	}
	for _, hl := range r.HalfLoad {
		addResult(g, fmt.Sprintf("%s at half the %s's peak (%s/s)", hl.Label, hl.Basis, thousands(hl.RateRPS)), hl.Result)
	}
	return g
}

func addResult(g *grid, label string, res Result) {
	if !res.Available {
		g.add(label, RoleGateway, "-", "-", "-", "-", "-", res.Note)
		return
	}
	for _, row := range []struct {
		name string
		m    *Measure
	}{{RolePassthrough, res.Passthrough}, {RoleGateway, res.Gateway}} {
		if row.m == nil {
			continue
		}
		g.add(label, row.name, thousands(row.m.RPS), ms(row.m.P50US), ms(row.m.P99US), usText(row.m.CPUPerRequestUS),
			strconv.Itoa(row.m.Errors), comparison(row.name, res))
		if row.m.FirstError != "" {
			g.note("    first error (" + row.name + "): " + row.m.FirstError)
		}
		if row.m.OwnP99US > 0 {
			g.note(fmt.Sprintf("    %s's own time (its audit records, the upstream wait left out): p50 %s, p99 %s", row.name, ms(row.m.OwnP50US), ms(row.m.OwnP99US)))
		}
		if row.m.Missed > 0 {
			g.note(fmt.Sprintf("    %s could not sustain the rate: %s requests not sent (more than %s of requests queued)", row.name, thousands(float64(row.m.Missed)), maxQueue))
		}
		label = ""
	}
}

// comparison is the gateway row's summary against the passthrough.
func comparison(role string, res Result) string {
	if role != RoleGateway || res.Passthrough == nil || res.Gateway == nil {
		return ""
	}
	s := fmt.Sprintf("%s req/s, %s p50, %s p99", pct(res.ThroughputRatio), signedMS(res.AddedP50US), signedMS(res.AddedP99US))
	if pc := res.Passthrough.CPUPerRequestUS; pc > 0 {
		s += fmt.Sprintf(", %.1f× CPU", res.Gateway.CPUPerRequestUS/pc)
	}
	return s
}

func budgetGrid(bs []Budget) *grid {
	g := &grid{right: []bool{false, true, true, false}}
	g.add("LOAD BUDGETS (DESIGN.md)", "value", "budget", "met")
	for _, b := range bs {
		g.add(b.What, b.Value, b.Limit, yesNo(b.Met))
	}
	return g
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

// thousands formats v rounded, with separators: 12,345.
func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func optional(v float64) string {
	if v < 0 {
		return "-"
	}
	return thousands(v)
}

// other lists a benchmark's own metrics, sorted by unit.
func other(m map[string]float64) string {
	var parts []string
	for unit, v := range m {
		parts = append(parts, strconv.FormatFloat(v, 'g', 4, 64)+" "+unit)
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func pct(v float64) string        { return fmt.Sprintf("%.0f%%", v*100) }
func ms(usv float64) string       { return fmt.Sprintf("%.2f ms", usv/1000) }
func signedMS(usv float64) string { return fmt.Sprintf("%+.2f ms", usv/1000) }

func usText(v float64) string {
	if v <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f µs", v)
}

// durationText prints budgets and slice lengths as DESIGN.md writes them: 10 µs, 2s.
func durationText(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%d µs", d.Microseconds())
	}
	return d.String()
}
