package ui

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/weirgw/weir/gateway/audit"
)

// summaryRecord is what the charts need of a record.
type summaryRecord struct {
	Time                    time.Time
	Outcome, Intent, Source string
	Violations, Blocked     []string
}

func newSummaryRecord(rec *audit.Record) summaryRecord {
	s := summaryRecord{Time: rec.Time, Outcome: rec.Outcome, Intent: rec.Intent, Source: rec.Source}
	for _, v := range rec.Violations {
		s.Violations = append(s.Violations, v.Code)
	}
	for _, c := range rec.ToolCalls {
		if !c.Allowed {
			s.Blocked = append(s.Blocked, c.Name)
		}
	}
	return s
}

// chart is an SVG chart laid out on the server: rectangles, labels and a legend.
type chart struct {
	Title         string
	Width, Height int
	Bars          []bar
	Labels        []label
	Legend        []series
	Empty         bool
}

type bar struct {
	X, Y, W, H  float64
	Fill, Title string
}

type label struct {
	X, Y         float64
	Text, Anchor string
}

type series struct{ Name, Fill string }

var outcomeFill = map[string]string{audit.OutcomeAllowed: "#2e7d32", audit.OutcomeBlocked: "#c62828",
	audit.OutcomeModified: "#ef6c00", audit.OutcomeMonitored: "#1565c0", audit.OutcomeError: "#6d4c41"}

var palette = []string{"#1565c0", "#c62828", "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#5d4037", "#ad1457", "#9e9d24", "#455a64"}

// charts builds the summary's charts.
func charts(recs []summaryRecord) []chart {
	return []chart{
		overTime("Outcomes over time", recs, func(r summaryRecord) []string { return []string{r.Outcome} }),
		overTime("Violations over time", recs, func(r summaryRecord) []string { return r.Violations }),
		topBars("Top blocked tools", recs, func(r summaryRecord) []string { return r.Blocked }, 10),
		intentsBySource(recs),
	}
}

// fills gives each series a colour: the outcome's own, or the palette's in name order.
func fills(names []string) []series {
	out := make([]series, len(names))
	for i, n := range names {
		f, ok := outcomeFill[n]
		if !ok {
			f = palette[i%len(palette)]
		}
		out[i] = series{n, f}
	}
	return out
}

// bucketSize picks a bucket width that gives at most about 48 columns.
func bucketSize(from, to time.Time) time.Duration {
	for _, d := range []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 6 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour} {
		if to.Sub(from)/d < 48 {
			return d
		}
	}
	return 30 * 24 * time.Hour
}

const (
	chartW, chartH          = 760, 240
	left, bottom, topMargin = 44.0, 28.0, 10.0
)

// overTime is a stacked column chart of keys(r) counted per time bucket.
func overTime(title string, recs []summaryRecord, keys func(summaryRecord) []string) chart {
	c := chart{Title: title, Width: chartW, Height: chartH}
	if len(recs) == 0 {
		c.Empty = true
		return c
	}
	from, to := recs[0].Time, recs[0].Time
	for _, r := range recs {
		from, to = minTime(from, r.Time), maxTime(to, r.Time)
	}
	size := bucketSize(from, to)
	from = from.Truncate(size)
	n := int(to.Sub(from)/size) + 1
	counts := make([]map[string]int, n)
	names := map[string]bool{}
	for _, r := range recs {
		i := int(r.Time.Sub(from) / size)
		if counts[i] == nil {
			counts[i] = map[string]int{}
		}
		for _, k := range keys(r) {
			counts[i][k]++
			names[k] = true
		}
	}
	c.Legend = fills(sortedNames(names))
	c.Empty = len(names) == 0
	c.layoutColumns(counts, from, size)
	return c
}

func (c *chart) layoutColumns(counts []map[string]int, from time.Time, size time.Duration) {
	peak := 1
	for _, m := range counts {
		sum := 0
		for _, v := range m {
			sum += v
		}
		peak = max(peak, sum)
	}
	plotW, plotH := float64(c.Width)-left-8, float64(c.Height)-bottom-topMargin
	colW := plotW / float64(len(counts))
	for i, m := range counts {
		y := topMargin + plotH
		for _, s := range c.Legend {
			if v := m[s.Name]; v > 0 {
				h := plotH * float64(v) / float64(peak)
				y -= h
				at := from.Add(time.Duration(i) * size).UTC().Format("2006-01-02 15:04")
				c.Bars = append(c.Bars, bar{left + float64(i)*colW + 1, y, max(colW-2, 1), h, s.Fill, fmt.Sprintf("%s %s: %d", at, s.Name, v)})
			}
		}
	}
	c.Labels = append(c.Labels, label{left - 4, topMargin + 10, strconv.Itoa(peak), "end"}, label{left - 4, topMargin + plotH, "0", "end"})
	for _, i := range []int{0, len(counts) / 2, len(counts) - 1} {
		at := from.Add(time.Duration(i) * size).UTC()
		c.Labels = append(c.Labels, label{left + (float64(i)+0.5)*colW, float64(c.Height) - 8, at.Format("01-02 15:04"), "middle"})
	}
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
