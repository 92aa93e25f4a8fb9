package judge

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

func judgeScalar(q Question, p presented) Verdict {
	var want float64
	if err := json.Unmarshal(q.Expected, &want); err != nil {
		return Verdict{Other, "expected is not a number"}
	}
	got := p.scalar
	if got == nil && len(p.groups) == 1 {
		if f, ok := num(p.groups[0][1]); ok {
			got = &f
		}
	}
	if got == nil && p.count != nil && countUnits[q.Unit] {
		f := float64(*p.count)
		got = &f
	}
	switch {
	case got == nil && p.empty:
		return Verdict{Refused, "empty result"}
	case got == nil:
		return Verdict{Other, "no value presented: " + p.String()}
	case q.same(*got, want):
		return Verdict{Exact, fmtNum(*got)}
	}
	return Verdict{Wrong, fmt.Sprintf("presented %s, expected %s", fmtNum(*got), fmtNum(want))}
}

// judgeGroups compares a breakdown (or a comparison of two) as a set of labelled values.
func judgeGroups(q Question, p presented) Verdict {
	var want map[string]float64
	if err := json.Unmarshal(q.Expected, &want); err != nil {
		return Verdict{Other, "expected is not an object of numbers"}
	}
	if p.groups == nil {
		if p.empty {
			return Verdict{Refused, "empty result"}
		}
		if p.scalar != nil && len(want) == 1 {
			for _, v := range want {
				if q.same(*p.scalar, v) {
					return Verdict{Exact, fmtNum(v)}
				}
			}
			return Verdict{Wrong, "presented " + fmtNum(*p.scalar)}
		}
		return Verdict{Other, "no groups presented: " + p.String()}
	}
	got := map[string]float64{}
	for _, g := range p.groups {
		if f, ok := num(g[1]); ok {
			got[label(g[0])] = f
		}
	}
	var missing, wrong []string
	matched := 0
	for l, v := range want {
		g, ok := got[presentedLabel(got, label(l))]
		if ok {
			matched++
		}
		switch {
		case !ok && v == 0:
			// a breakdown lists the groups that have rows: a year with none is not presented
		case !ok:
			missing = append(missing, l)
		case !q.same(g, v):
			wrong = append(wrong, fmt.Sprintf("%s: %s, expected %s", l, fmtNum(g), fmtNum(v)))
		}
	}
	sort.Strings(wrong)
	switch {
	case len(wrong) > 0:
		return Verdict{Wrong, strings.Join(wrong, "; ")}
	case len(missing) > 0 && len(missing) == len(want):
		return Verdict{Wrong, fmt.Sprintf("none of the expected groups %v among %v", missing, p.groups)}
	case len(missing) > 0:
		return Verdict{Other, fmt.Sprintf("missing groups %v", missing)}
	case len(got) > matched:
		return Verdict{Other, fmt.Sprintf("%d groups, expected %d", len(got), len(want))}
	}
	return Verdict{Exact, fmt.Sprintf("%d groups", len(want))}
}

// presentedLabel is the presented label that stands for an expected one: itself; the period
// with its year when every presented period has the same year ("Q1" of "2024 by quarter" is
// 2024-q1); or the one-letter code the data writes for it (F for Female, Y for Yes).
func presentedLabel(got map[string]float64, want string) string {
	if _, ok := got[want]; ok {
		return want
	}
	years := map[string]bool{}
	code := ""
	for l := range got {
		if y, _, ok := strings.Cut(l, "-"); ok && len(y) == 4 {
			years[y] = true
		}
		if len(l) == 1 && len(want) > 1 && l == want[:1] {
			code = l
		}
	}
	if len(years) == 1 {
		for y := range years {
			if _, ok := got[y+"-"+want]; ok {
				return y + "-" + want
			}
			if m, ok := monthNumbers[want]; ok { // "January" of "gennaio vs febbraio" is 2025-01
				if _, ok := got[y+"-"+m]; ok {
					return y + "-" + m
				}
			}
		}
	}
	return code
}

// monthNumbers are the months an expected label may name, English and Italian, folded.
var monthNumbers = map[string]string{"january": "01", "february": "02", "march": "03", "april": "04",
	"may": "05", "june": "06", "july": "07", "august": "08", "september": "09", "october": "10",
	"november": "11", "december": "12", "gennaio": "01", "febbraio": "02", "marzo": "03", "aprile": "04",
	"maggio": "05", "giugno": "06", "luglio": "07", "agosto": "08", "settembre": "09", "ottobre": "10",
	"novembre": "11", "dicembre": "12"}

// judgeRanking compares an ordered list of labelled values: the same labels, in the same
// order, with the same values, and no more of them.
func judgeRanking(q Question, p presented) Verdict {
	var want [][2]any
	if err := json.Unmarshal(q.Expected, &want); err != nil {
		return Verdict{Other, "expected is not a list of pairs"}
	}
	if p.groups == nil {
		if p.empty {
			return Verdict{Refused, "empty result"}
		}
		if p.scalar != nil && len(want) == 1 {
			if f, _ := num(want[0][1]); q.same(*p.scalar, f) {
				return Verdict{Other, "the value without its label"}
			}
			return Verdict{Wrong, "presented " + fmtNum(*p.scalar)}
		}
		if len(want) == 1 && len(p.rows) == 1 { // "which single declaration had the highest value": the top row
			return judgeTopRow(q, want[0], p.rows[0])
		}
		return Verdict{Other, "no ranking presented: " + p.String()}
	}
	for i, w := range want {
		if i >= len(p.groups) {
			return Verdict{Other, fmt.Sprintf("%d ranked, expected %d", len(p.groups), len(want))}
		}
		g := p.groups[i]
		wv, _ := num(w[1])
		gv, ok := num(g[1])
		if !ok || !q.same(gv, wv) || (label(g[0]) != label(w[0]) && !yearOf(p.groups, label(g[0]), label(w[0])) && !tiedWith(q, p.groups, w[0], wv)) {
			return Verdict{Wrong, fmt.Sprintf("rank %d: %v %v, expected %v %v", i+1, g[0], g[1], w[0], w[1])}
		}
	}
	if len(p.groups) != len(want) {
		last, _ := num(want[len(want)-1][1])
		for _, g := range p.groups[len(want):] {
			if v, _ := num(g[1]); !q.same(v, last) {
				return Verdict{Other, fmt.Sprintf("the top %d are right, but %d were presented", len(want), len(p.groups))}
			}
		}
		return Verdict{Exact, fmt.Sprintf("%d ranked, with the groups tied at the cut", len(want))}
	}
	return Verdict{Exact, fmt.Sprintf("%d ranked", len(want))}
}

// yearOf reports a presented period label that is the expected one with the year every
// presented period has ("2022-q3" for "Q3" of "in 2022, which quarter …").
func yearOf(groups [][2]any, got, want string) bool {
	labels := map[string]float64{}
	for _, g := range groups {
		labels[label(g[0])] = 0
	}
	return presentedLabel(labels, want) == got && got != want
}

// judgeTopRow judges a ranking of one answered by the one row that ranks first: the row
// has the expected label in one column and the expected value in another.
func judgeTopRow(q Question, want [2]any, row map[string]any) Verdict {
	wv, _ := num(want[1])
	hasLabel, hasValue := false, false
	for _, v := range row {
		if label(v) == label(want[0]) {
			hasLabel = true
		} else if f, ok := num(v); ok && q.same(f, wv) {
			hasValue = true
		}
	}
	if hasLabel && hasValue {
		return Verdict{Exact, "the top row"}
	}
	return Verdict{Wrong, fmt.Sprintf("the row %v, expected %v %v", row, want[0], want[1])}
}

// tiedWith reports that a presented ranking has the expected label with the same value (a
// tie the expected answer broke one way, the presented the other).
func tiedWith(q Question, groups [][2]any, lbl any, v float64) bool {
	for _, g := range groups {
		if gv, ok := num(g[1]); ok && q.same(gv, v) && label(g[0]) == label(lbl) {
			return true
		}
	}
	return false
}

// judgeRows compares a listing: some column holds exactly the expected identifiers, and
// the listing has no other rows.
func judgeRows(q Question, p presented) Verdict {
	var want []string
	if err := json.Unmarshal(q.Expected, &want); err != nil {
		return Verdict{Other, "expected is not a list of strings"}
	}
	if p.rows == nil && len(p.groups) > 0 { // rows ranked by a value: each row's key with its value
		got := map[string]bool{}
		for _, g := range p.groups {
			got[label(g[0])] = true
		}
		wantSet := map[string]bool{}
		for _, w := range want {
			wantSet[label(w)] = true
		}
		if len(got) == len(wantSet) && subset(got, wantSet) {
			return Verdict{Exact, fmt.Sprintf("%d rows, ranked", len(want))}
		}
		return Verdict{Wrong, fmt.Sprintf("%d ranked rows, not the expected %v", len(p.groups), want)}
	}
	if p.rows == nil {
		if p.empty && len(want) == 0 {
			return Verdict{Exact, "no rows"}
		}
		if p.empty {
			return Verdict{Refused, "empty result"}
		}
		return Verdict{Other, "no rows presented: " + p.String()}
	}
	if p.count != nil && *p.count != int64(len(want)) {
		return Verdict{Wrong, fmt.Sprintf("%d rows, expected %d", *p.count, len(want))}
	}
	wantSet := map[string]bool{}
	for _, w := range want {
		wantSet[label(w)] = true
	}
	for _, key := range keys(p.rows[0]) {
		got := map[string]bool{}
		for _, row := range p.rows {
			got[label(key.of(row))] = true
		}
		if len(got) == len(wantSet) && subset(got, wantSet) {
			return Verdict{Exact, fmt.Sprintf("%d rows", len(want))}
		}
	}
	return Verdict{Wrong, fmt.Sprintf("%d rows, not the expected %v", len(p.rows), want)}
}

// rowKey identifies rows by one column, or by two joined with "/" (USUBJID/AESEQ).
type rowKey struct{ a, b string }

func (k rowKey) of(row map[string]any) any {
	if k.b == "" {
		return row[k.a]
	}
	return fmt.Sprintf("%v/%v", label(row[k.a]), label(row[k.b]))
}

func keys(row map[string]any) []rowKey {
	var out []rowKey
	for a := range row {
		out = append(out, rowKey{a: a})
	}
	for a := range row {
		for b := range row {
			if a != b {
				out = append(out, rowKey{a: a, b: b})
			}
		}
	}
	return out
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
