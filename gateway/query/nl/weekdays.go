package nl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// weekdaySets are the days of the week a word names, numbered as the data numbers them
// (0 Sunday to 6 Saturday). The weekend is Saturday and Sunday; the weekdays (giorni
// feriali) Monday to Friday. "Working days" and "business days" are not read: they would
// also leave out holidays, which the data does not know.
var weekdaySets = map[string][]int{}

func weekday(days []int, words string) {
	for _, w := range strings.Split(words, "|") {
		if w = strings.TrimSpace(w); w != "" {
			weekdaySets[w] = days
			lexicon[w] = gWeekday
		}
	}
}

func init() {
	weekday([]int{1}, `monday|mondays|lunedi`)
	weekday([]int{2}, `tuesday|tuesdays|martedi`)
	weekday([]int{3}, `wednesday|wednesdays|mercoledi`)
	weekday([]int{4}, `thursday|thursdays|giovedi`)
	weekday([]int{5}, `friday|fridays|venerdi`)
	weekday([]int{6}, `saturday|saturdays|sabato|sabati`)
	weekday([]int{0}, `sunday|sundays|domenica|domeniche`)
	weekday([]int{0, 6}, `weekend|weekends|week end|week ends|fine settimana`)
	weekday([]int{1, 2, 3, 4, 5}, `weekdays|week days|giorni feriali|feriali|giorni infrasettimanali|infrasettimanali`)
	grain(data.GroupWeekday, `day of the week|days of the week|day of week|weekday|giorno della settimana|giorni della settimana|giorno settimanale`)
}

// dayRun is one set of days a question names: a word ("weekend"), a day, or a range of
// days; k is its first item.
type dayRun struct {
	k    int
	word string
	days []int
}

// readWeekdays turns the days of the week a question names ("il venerdì", "nei weekend
// (sabato e domenica)") into a condition on the weekday of the time field, or, compared
// ("weekdays vs weekend", "confronta sabato e domenica"), into the sides of a comparison.
func (r *reader) readWeekdays() {
	runs := r.dayRuns()
	if len(runs) == 0 {
		return
	}
	src, field := r.timeTarget()
	if src == nil {
		r.uncover("%q: the data of %s has no dates", runs[0].word, r.fact.Name)
		return
	}
	for _, d := range runs {
		if len(d.days) > 1 {
			r.note(fmt.Sprintf("%q is read as %s", d.word, weekdayLabel(d.days)))
		}
	}
	sides := r.weekdaySides(runs)
	if len(sides) >= 2 && r.q.Compare == nil && (r.has(gVs) || r.has(gCompare)) {
		cmp := &semantic.Compare{}
		for _, days := range sides {
			cmp.Sides = append(cmp.Sides, semantic.Side{Label: sideLabel(days, runs), Filters: []semantic.Filter{weekdayFilter(src.Name, field, days, false)}})
		}
		r.q.Compare = cmp
		return
	}
	if len(sides) >= 2 && !r.gluedRuns(runs) {
		r.uncover("several separate sets of days of the week in one question")
		return
	}
	var all []int
	for _, days := range sides {
		all = unionDays(all, days)
	}
	if len(sides) >= 2 && len(all) == 7 {
		r.uncover("%s and %s together are every day: ask for a comparison (vs) or a breakdown by day of the week", weekdayLabel(sides[0]), weekdayLabel(sides[1]))
		return
	}
	r.q.Filters = append(r.q.Filters, weekdayFilter(src.Name, field, all, r.negated(runs[0].k)))
}

// dayRuns finds the weekday items and marks them used. A range of days ("dal lunedì al
// venerdì", "from Tuesday to Thursday", "tra lunedì e giovedì") is one run.
func (r *reader) dayRuns() []dayRun {
	var runs []dayRun
	last := -1
	weekend := false
	for _, it := range r.items {
		weekend = weekend || it.is(gWeekday) && len(weekdaySets[it.word]) == 2
	}
	for k, it := range r.items {
		if it.is(gGrain) && (it.word == "weekday" || it.word == "week day") && weekend {
			it.gen = gWeekday // "weekend vs weekday": the working days, against the weekend
		}
		if !it.is(gWeekday) {
			continue
		}
		it.used = true
		days := weekdaySets[it.word]
		if days == nil {
			days = weekdaySets["weekdays"]
		}
		if n := len(runs); n > 0 && len(days) == 1 && len(runs[n-1].days) == 1 && r.weekdayRange(last, k) {
			runs[n-1].word += " - " + it.word
			runs[n-1].days = dayRange(runs[n-1].days[0], days[0])
			last = k
			continue
		}
		runs = append(runs, dayRun{k: k, word: it.word, days: days})
		last = k
	}
	return runs
}

// weekdayRange reports two days that make a range: "X to Y", "X al Y", "X fino a Y", "X -
// Y", or "between X and Y" ("tra il lunedì e il giovedì"); articles aside.
func (r *reader) weekdayRange(a, b int) bool {
	var mid []string
	for _, it := range r.items[a+1 : b] {
		if !articles[it.word] {
			mid = append(mid, it.word)
		}
	}
	p := r.prev(a, 1)
	between := p >= 0 && betweenWords[r.items[p].word]
	switch {
	case len(mid) == 1 && between:
		return andWords[mid[0]]
	case len(mid) == 1:
		return toWords[mid[0]] && mid[0] != "before" && mid[0] != "prima"
	}
	return len(mid) == 2 && mid[0] == "fino" && toWords[mid[1]]
}

// dayRange is the days from a to b, forward through the week (Friday to Monday crosses the
// weekend).
func dayRange(a, b int) []int {
	out := []int{a}
	for d := a; d != b; {
		d = (d + 1) % 7
		out = append(out, d)
	}
	return out
}

// weekdaySides groups the runs into the sets they name: a "vs" between two runs starts a
// new set; a run whose days are all in the set before it restates that set ("il weekend
// (sabato e domenica)"); runs joined by "and"/"or" without a "vs" are each a set, which a
// comparison compares and a condition joins.
func (r *reader) weekdaySides(runs []dayRun) [][]int {
	var sides [][]int
	hasVs := r.vsBetween(runs[0].k, runs[len(runs)-1].k)
	for n, d := range runs {
		switch {
		case n == 0:
			sides = append(sides, d.days)
		case hasVs && !r.vsBetween(runs[n-1].k, d.k), subsetDays(d.days, sides[len(sides)-1]):
			sides[len(sides)-1] = unionDays(sides[len(sides)-1], d.days)
		default:
			sides = append(sides, d.days)
		}
	}
	return sides
}

// gluedRuns reports that every two runs next to each other are joined by "and" or "or",
// or the later restates days of the earlier: the sets of one condition.
func (r *reader) gluedRuns(runs []dayRun) bool {
	for n := 1; n < len(runs); n++ {
		if !r.glued(runs[n-1].k, runs[n].k) && !subsetDays(runs[n].days, runs[n-1].days) {
			return false
		}
	}
	return true
}

func weekdayFilter(src, field string, days []int, not bool) semantic.Filter {
	f := semantic.Filter{Source: src, Field: field, Part: data.GroupWeekday, Op: data.OpIn}
	if not {
		f.Op = data.OpNotIn
	}
	for _, d := range days {
		f.Values = append(f.Values, d)
	}
	return f
}

// sideLabel names a side of a comparison of days as the question named it ("weekend",
// "weekday"), else by its days; the note says which days a word is read as.
func sideLabel(days []int, runs []dayRun) string {
	for _, d := range runs {
		if len(d.days) > 1 && len(d.days) == len(days) && subsetDays(d.days, days) {
			return d.word
		}
	}
	return weekdayLabel(days)
}

// weekdayLabel names days Monday first: "Saturday, Sunday".
func weekdayLabel(days []int) string {
	sorted := append([]int(nil), days...)
	sort.Slice(sorted, func(i, j int) bool { return (sorted[i]+6)%7 < (sorted[j]+6)%7 })
	names := make([]string, len(sorted))
	for i, d := range sorted {
		names[i] = time.Weekday(d).String()
	}
	return strings.Join(names, ", ")
}

func subsetDays(a, b []int) bool {
	for _, d := range a {
		if !containsDay(b, d) {
			return false
		}
	}
	return true
}

func unionDays(a, b []int) []int {
	out := append([]int(nil), a...)
	for _, d := range b {
		if !containsDay(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func containsDay(days []int, d int) bool {
	for _, x := range days {
		if x == d {
			return true
		}
	}
	return false
}
