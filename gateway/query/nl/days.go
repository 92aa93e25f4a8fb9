package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// studyDay reads a day number of the study: "day 60", "after day 60", "before day 8",
// "within the first 14 days", "entro i primi 14 giorni" — a condition on the field that
// holds the day number of an event (FieldDecl.DayOf), when the fact or a joined source has
// exactly one. A number of days without such a field is left to the other readings.
func (r *reader) studyDay(k int) bool {
	n := r.items[k].num
	if n.percent || n.num != float64(int(n.num)) || n.num < 0 {
		return false
	}
	f := r.dayField()
	if f == nil {
		return false
	}
	op, used := r.dayOp(k)
	if op == "" {
		return false
	}
	for _, j := range append(used, k) {
		r.items[j].used = true
	}
	r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: op, Values: []any{n.num}})
	return true
}

// dayOp is the condition the words around the number at k put on a day number, with the
// items they are: "day N" after a comparison word, or "the first N days".
func (r *reader) dayOp(k int) (string, []int) {
	p, nx := r.prev(k, 1), r.next(k, 1)
	if nx >= 0 && r.isDay(nx) && r.ofPeriod(nx) {
		return "", nil // "the first 10 days of March": days of a calendar period
	}
	switch {
	case p >= 0 && r.isDay(p): // "day 60"
		q := r.prev(p, 1)
		if q < 0 {
			return data.OpEquals, []int{p}
		}
		it := r.items[q]
		switch {
		case it.is(gAfter):
			return data.OpGreaterThan, []int{p, q}
		case it.is(gBefore):
			return data.OpLessThan, []int{p, q}
		case it.is(gWithin):
			return data.OpAtMost, []int{p, q}
		case len(it.ms) == 0 && comparisons[it.gen] != "":
			return comparisons[it.gen], []int{p, q}
		case it.kind(mRows) != nil || it.kind(mField) != nil || it.is(gWith):
			return data.OpEquals, []int{p} // "AEs on day 1", "onset day 3"
		}
	case nx >= 0 && r.isDay(nx) && p >= 0 && r.items[p].is(gTop): // "the first 14 days"
		q := r.prev(p, 1)
		if q >= 0 && r.items[q].is(gAfter) {
			return data.OpGreaterThan, []int{nx, p, q} // "after the first 60 days"
		}
		if q >= 0 && r.items[q].is(gWithin) {
			return data.OpAtMost, []int{nx, p, q}
		}
		return data.OpAtMost, []int{nx, p}
	case nx >= 0 && r.isDay(nx) && p >= 0 && r.items[p].is(gWithin): // "within 14 days"
		return data.OpAtMost, []int{nx, p}
	}
	return "", nil
}

// ofPeriod reports a date or a calendar grain right after item k ("of March", "of the month").
func (r *reader) ofPeriod(k int) bool {
	n := r.next(k, 1)
	return n >= 0 && (r.items[n].date != nil || r.items[n].is(gGrain) || r.items[n].is(gGrainBy))
}

// isDay reports the word day or days (giorno, giorni) at k.
func (r *reader) isDay(k int) bool {
	it := r.items[k]
	return it.is(gGrain) && grains[it.word] == "day" && !it.used
}

// dayField is the one field holding an event's day number, in the fact or a source it joins.
func (r *reader) dayField() *meaning {
	var found *meaning
	for _, s := range r.p.v.model.Sources {
		if !r.joinable(s) {
			continue
		}
		for name, fd := range s.Decl.Fields {
			if fd.DayOf == "" {
				continue
			}
			if found != nil {
				return nil
			}
			found = &meaning{kind: mField, src: s, field: name}
		}
	}
	return found
}
