package grounding

import "strings"

// tableRowNumbers returns the row numbers of markdown tables: a first cell
// that holds only the integer counting the table's data rows ("| 1 |
// Tagliata | 2.068 € |", "| 2 | ..."). Like a list marker, it numbers the
// rows and is no quantity. A first cell that does not count the rows
// ("| 941 | ...") is a value and is checked.
func tableRowNumbers(s string) []span {
	if strings.IndexByte(s, '|') < 0 {
		return nil
	}
	var out []span
	row := -1 // data rows seen in the current table; -1 outside a table
	for i := 0; i < len(s); {
		end := strings.IndexByte(s[i:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += i
		}
		line := strings.TrimSpace(s[i:end])
		switch {
		case !strings.HasPrefix(line, "|"):
			row = -1
		case isTableSeparator(line):
			row = 0
		case row >= 0:
			row++
			if sp, ok := firstCellNumber(s, i, end, row); ok {
				out = append(out, sp)
			}
		}
		i = end + 1
	}
	return out
}

// isTableSeparator reports a markdown table's separator row: "|---|:--:|".
func isTableSeparator(line string) bool {
	return strings.Contains(line, "-") && strings.Trim(line, "|-: \t") == ""
}

// firstCellNumber returns the span of the first cell of the row in
// s[i:end] when the cell holds exactly the integer n.
func firstCellNumber(s string, i, end, n int) (span, bool) {
	bar := strings.IndexByte(s[i:end], '|') + i
	a := bar + 1
	for a < end && (s[a] == ' ' || s[a] == '\t') {
		a++
	}
	b := digitsEnd(s, a)
	if b == a || b-a > 6 || atoi(s[a:b]) != n {
		return span{}, false
	}
	c := b
	for c < end && (s[c] == ' ' || s[c] == '\t') {
		c++
	}
	if c >= end || s[c] != '|' {
		return span{}, false
	}
	return span{a, b}, true
}

// mergeSpans merges two lists of spans sorted by start.
func mergeSpans(a, b []span) []span {
	out := make([]span, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].start <= b[0].start {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}
