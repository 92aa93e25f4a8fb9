package mdpdf

import (
	"strings"
	"unicode/utf8"
)

// table lays a pipe table out in Courier: columns padded to their width, cells wrapped
// within it, the header row first.
func (l *layout) table(rows [][]string) {
	st := styles["cell"]
	cols := columnWidths(rows, int(textWidth0/(st.size*0.6)))
	l.y -= st.before
	for _, row := range rows {
		wrapped := make([][]string, len(cols))
		height := 1
		for c := range cols {
			cell := ""
			if c < len(row) {
				cell = row[c]
			}
			wrapped[c] = wrapChars(cell, cols[c])
			height = max(height, len(wrapped[c]))
		}
		l.room(float64(height) * st.leading)
		for i := 0; i < height; i++ {
			parts := make([]string, len(cols))
			for c := range cols {
				s := ""
				if i < len(wrapped[c]) {
					s = wrapped[c][i]
				}
				parts[c] = s + strings.Repeat(" ", cols[c]-utf8.RuneCountInString(s))
			}
			l.put(st, marginLeft, strings.TrimRight(strings.Join(parts, "  "), " "))
		}
	}
	l.y -= st.after
}

// columnWidths are the widest cell of each column, the widest columns narrowed until the
// row fits in limit characters.
func columnWidths(rows [][]string, limit int) []int {
	var w []int
	for _, row := range rows {
		for c, cell := range row {
			if c == len(w) {
				w = append(w, 0)
			}
			w[c] = max(w[c], utf8.RuneCountInString(cell))
		}
	}
	for sum(w)+2*(len(w)-1) > limit {
		widest := 0
		for c := range w {
			if w[c] > w[widest] {
				widest = c
			}
		}
		if w[widest] <= 6 {
			break
		}
		w[widest]--
	}
	return w
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// wrapChars breaks s into lines of at most width characters, at spaces where possible.
func wrapChars(s string, width int) []string {
	var lines []string
	cur := []rune{}
	for _, word := range strings.Fields(s) {
		r := []rune(word)
		for len(r) > width { // a word longer than the column is cut
			if len(cur) > 0 {
				lines, cur = append(lines, string(cur)), cur[:0]
			}
			lines, r = append(lines, string(r[:width])), r[width:]
		}
		switch {
		case len(cur) == 0:
			cur = append(cur, r...)
		case len(cur)+1+len(r) <= width:
			cur = append(append(cur, ' '), r...)
		default:
			lines, cur = append(lines, string(cur)), append([]rune{}, r...)
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}
