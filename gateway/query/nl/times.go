package nl

import (
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// readTimes resolves the time expressions against the data's own range and turns them into
// time filters, or into the sides of a comparison of periods ("2023 vs 2024", "confronta
// gennaio e febbraio").
func (r *reader) readTimes() {
	var idx []int
	for k, it := range r.items {
		if it.date != nil {
			idx = append(idx, k)
		}
	}
	if len(idx) == 0 {
		return
	}
	src, field := r.timeTarget()
	if src == nil {
		r.uncover("the data of %s has no dates", r.fact.Name)
		return
	}
	min, max := dataRange(src, r.now)
	if len(idx) >= 2 { // "gennaio vs febbraio 2024"; "the first quarter of 2022 (January to March)": one period, said twice
		r.lendYear(idx)
	}
	if len(idx) == 1 && r.periodChange(idx[0], src, field, min, max) {
		return
	}
	var res []resolved
	for _, k := range idx {
		it := r.items[k]
		it.used = true
		rv := resolve(*it.date, min, max, r.now)
		if rv.outside {
			r.uncover("the data covers %s to %s and has nothing for %s", min.Format(day), max.Format(day), describe(rv))
		}
		r.note(rv.note)
		res = append(res, rv)
	}
	idx, res = samePeriodOnce(idx, res)
	difference := len(idx) == 2 && r.q.Compare == nil && (!r.has(gVs) && !r.has(gCompare) && r.differenceAsked() || r.differenceSaid())
	if len(idx) >= 2 && r.q.Compare == nil && (r.has(gVs) || r.has(gCompare) || difference) {
		cmp := &semantic.Compare{Difference: difference}
		if difference {
			r.differenceWords()
		}
		for _, rv := range res {
			tf := timeFilter(src.Name, field, rv)
			cmp.Sides = append(cmp.Sides, semantic.Side{Label: rv.label, Time: []semantic.TimeFilter{tf}})
		}
		r.q.Compare = cmp
		r.percentChange(idx[0], idx[len(idx)-1])
		return
	}
	// Periods joined by "and"/"or" ("in 2023 and 2024") are one period: their union.
	// Separate periods of one field are not a question a single filter answers.
	groups := [][]int{{0}}
	for n := 1; n < len(idx); n++ {
		if r.glued(idx[n-1], idx[n]) {
			groups[len(groups)-1] = append(groups[len(groups)-1], n)
		} else {
			groups = append(groups, []int{n})
		}
	}
	if len(groups) > 1 {
		r.uncover("several separate periods in one question")
		return
	}
	tf := timeFilter(src.Name, field, res[0])
	for _, n := range groups[0][1:] {
		more := timeFilter(src.Name, field, res[n])
		tf.Ranges = append(tf.Ranges, more.Ranges...)
		tf.Label += ", " + more.Label
	}
	r.q.Time = append(r.q.Time, tf)
}

// samePeriodOnce keeps one of periods that resolve to the same days ("in the spring
// months, March through May"): the question says it twice, it asks for it once.
func samePeriodOnce(idx []int, res []resolved) ([]int, []resolved) {
	var outIdx []int
	var outRes []resolved
	for n, rv := range res {
		dup := false
		for _, o := range outRes {
			dup = dup || sameSpans(o.spans, rv.spans)
		}
		if !dup {
			outIdx, outRes = append(outIdx, idx[n]), append(outRes, rv)
		}
	}
	return outIdx, outRes
}

func sameSpans(a, b []span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].from.Equal(b[i].from) || !a[i].to.Equal(b[i].to) {
			return false
		}
	}
	return true
}

// lendYear gives the periods of a comparison that name no year the one year the others
// name: "H1 vs H2 2024" is H1 2024 vs H2 2024, "gennaio e febbraio 2025" both of 2025.
// With several years named ("Q1 2023 vs Q2 2024") nothing is lent.
func (r *reader) lendYear(idx []int) {
	year := 0
	for _, k := range idx {
		for _, p := range []point{r.items[k].date.from, r.items[k].date.to} {
			switch {
			case p.y == 0:
			case year == 0:
				year = p.y
			case year != p.y:
				return
			}
		}
	}
	if year == 0 {
		return
	}
	for _, k := range idx {
		e := r.items[k].date
		if e.rel != "" {
			continue
		}
		if e.from.y == 0 {
			e.from.y = year
		}
		if e.to.y == 0 {
			e.to.y = year
		}
	}
}

// glued reports that "and" or "or" joins items a and b, with only fillers beside it. Two
// periods with only fillers between ("Q1 ... 2024") are not a union: one may qualify the
// other, and reading them as either would be a guess.
func (r *reader) glued(a, b int) bool {
	joined := false
	for k := a + 1; k < b; k++ {
		switch {
		case r.items[k].is(gAnd) || r.items[k].is(gOr):
			joined = true
		case !r.items[k].is(gFiller):
			return false
		}
	}
	return joined
}

func describe(rv resolved) string {
	if len(rv.spans) == 1 {
		s := rv.spans[0]
		return s.from.Format(day) + " to " + s.to.Format(day)
	}
	return rv.label
}

// timeTarget is the date field a question's period applies to: a date field the question
// names ("randomized"), else the fact source's time field, else that of a source it joins.
func (r *reader) timeTarget() (*semantic.Source, string) {
	for _, it := range r.items {
		if m := it.kind(mField); m != nil && typeOf(m.src, m.field) == data.TypeDate && r.joinable(m.src) {
			it.used = true
			return m.src, m.field
		}
	}
	if tf := r.fact.Schema().TimeField; tf != "" {
		return r.fact, tf
	}
	for _, s := range r.p.v.model.Sources {
		if tf := s.Schema().TimeField; tf != "" && r.joinable(s) {
			return s, tf
		}
	}
	return nil, ""
}

// dataRange is the first and last day of a source's time field; without data, the year
// so far.
func dataRange(s *semantic.Source, now time.Time) (time.Time, time.Time) {
	min, err1 := time.Parse(day, s.Min)
	max, err2 := time.Parse(day, s.Max)
	if err1 != nil || err2 != nil {
		return time.Time{}, time.Time{}
	}
	return min, max
}

// periodChange reads "has X changed from 2023 to 2024", "how did X go up between January
// and March": a change word with one period from one end to the other is a comparison of
// the two ends (the values on each and their difference), not the sum over the whole span.
// The ends must be periods of one kind (two years, two months).
func (r *reader) periodChange(k int, src *semantic.Source, field string, min, max time.Time) bool {
	c := r.find(gChange)
	e := r.items[k].date
	if c < 0 || r.q.Compare != nil || e.open != "" || e.rel != "" || e.from == e.to || !samePrecision(e.from, e.to) {
		return false
	}
	cmp := &semantic.Compare{}
	for _, p := range []point{e.from, e.to} {
		end := *e
		end.from, end.to = p, p
		rv := resolve(end, min, max, r.now)
		if rv.outside {
			r.uncover("the data covers %s to %s and has nothing for %s", min.Format(day), max.Format(day), describe(rv))
		}
		r.note(rv.note)
		cmp.Sides = append(cmp.Sides, semantic.Side{Label: rv.label, Time: []semantic.TimeFilter{timeFilter(src.Name, field, rv)}})
	}
	r.q.Compare = cmp
	r.items[k].used, r.items[c].used = true, true
	r.percentChange(k, k)
	return true
}

// percentChange reads a comparison of two periods that asks how much the value changed in
// percent ("di quanto è cambiato in percentuale il fatturato di maggio rispetto ad aprile",
// "how did revenue change from March to April, in percent"): the answer is the change from
// the first period to the other, in percent of the first. The first is the one the change
// is measured against: after "rispetto a", "vs", "compared to" it is the second named.
func (r *reader) percentChange(first, last int) {
	p := r.find(gPercent)
	if p < 0 || r.items[p].used || r.find(gChange) < 0 || r.q.Compare == nil || len(r.q.Compare.Sides) != 2 {
		return
	}
	r.items[p].used = true
	r.q.Compare.PercentChange, r.q.Compare.Difference = true, false
	for k := first + 1; k < last; k++ {
		if r.items[k].is(gVs) { // "maggio rispetto ad aprile": April is the base
			s := r.q.Compare.Sides
			s[0], s[1] = s[1], s[0]
			return
		}
	}
}

// samePrecision reports two points that name the same kind of period (both years, both
// months of a year, both quarters).
func samePrecision(a, b point) bool {
	has := func(p point) [5]bool { return [5]bool{p.y != 0, p.h != 0, p.q != 0, p.m != 0, p.d != 0} }
	return has(a) == has(b)
}
