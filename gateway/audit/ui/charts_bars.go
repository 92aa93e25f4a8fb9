package ui

import (
	"fmt"
	"slices"
	"strconv"
)

// topBars is a horizontal bar chart of the n most frequent keys.
func topBars(title string, recs []summaryRecord, keys func(summaryRecord) []string, n int) chart {
	counts := map[string]int{}
	for _, r := range recs {
		for _, k := range keys(r) {
			counts[k]++
		}
	}
	names := sortedNames(counts)
	slices.SortStableFunc(names, func(a, b string) int { return counts[b] - counts[a] })
	names = names[:min(n, len(names))]
	rows := make([]map[string]int, len(names))
	for i, name := range names {
		rows[i] = map[string]int{"blocked": counts[name]}
	}
	c := chart{Title: title, Width: chartW, Legend: []series{{"blocked", "#c62828"}}}
	c.layoutRows(names, rows)
	return c
}

// intentsBySource is a horizontal stacked bar per intent, one segment per source.
func intentsBySource(recs []summaryRecord) chart {
	byIntent, sources := map[string]map[string]int{}, map[string]bool{}
	for _, r := range recs {
		if r.Intent == "" {
			continue
		}
		if byIntent[r.Intent] == nil {
			byIntent[r.Intent] = map[string]int{}
		}
		byIntent[r.Intent][r.Source]++
		sources[r.Source] = true
	}
	intents := sortedNames(byIntent)
	rows := make([]map[string]int, len(intents))
	for i, in := range intents {
		rows[i] = byIntent[in]
	}
	c := chart{Title: "Intents by source", Width: chartW, Legend: fills(sortedNames(sources))}
	c.layoutRows(intents, rows)
	return c
}

func (c *chart) layoutRows(names []string, rows []map[string]int) {
	const rowH, labelW = 24.0, 180.0
	c.Height = int(rowH*float64(len(names))) + 12
	c.Empty = len(names) == 0
	peak := 1
	for _, m := range rows {
		sum := 0
		for _, v := range m {
			sum += v
		}
		peak = max(peak, sum)
	}
	plotW := float64(c.Width) - labelW - 50
	for i, name := range names {
		y, x := 6+float64(i)*rowH, labelW
		c.Labels = append(c.Labels, label{labelW - 6, y + 15, name, "end"})
		total := 0
		for _, s := range c.Legend {
			if v := rows[i][s.Name]; v > 0 {
				w := plotW * float64(v) / float64(peak)
				c.Bars = append(c.Bars, bar{x, y, w, rowH - 6, s.Fill, fmt.Sprintf("%s %s: %d", name, s.Name, v)})
				x += w
				total += v
			}
		}
		c.Labels = append(c.Labels, label{x + 6, y + 15, strconv.Itoa(total), "start"})
	}
}
