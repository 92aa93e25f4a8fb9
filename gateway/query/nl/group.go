package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// rankGens are the words that make a grouping a ranking.
var rankGens = []gen{gMost, gLeast, gMax, gMin, gFrequent, gTop, gRank}

func (r *reader) anyOf(gs ...gen) bool {
	for _, g := range gs {
		if r.has(g) {
			return true
		}
	}
	return false
}

// readGroup finds the dimension a question groups or ranks by: "by/per X", "which X",
// "who" (the actor), "top N X", "most frequent X", "rank the X", "X with the most".
func (r *reader) readGroup() {
	if r.rankEntity() {
		return
	}
	for k, it := range r.items {
		var d *semantic.Dimension
		switch {
		case it.is(gGrainBy):
			d = r.grainDim(grains[it.word])
		case it.is(gGroupOf) && r.fieldBefore(k):
			j := r.prev(k, 1) // "status breakdown", "race distribution": the field before it
			d, r.items[j].used = r.dimAt(j), true
		case it.is(gBy) && r.rowsBy(r.next(k, 1)):
			// "the 3 biggest orders by quantity": what the rows are ordered by, no grouping
		case it.is(gBy) || it.is(gEvery) || it.is(gGroupOf):
			d = r.dimAfter(k, afterBy)
		case r.entityOnAverage(k):
			r.perRow, r.perEntity, it.used = true, it, true // "how many AEs does a patient have on average"
		case (it.is(gAmong) || it.is(gBetween)) && r.amongField(k) >= 0:
			j := r.amongField(k)
			d, r.items[j].used = r.dimAt(j), true
		case it.is(gWhich) || it.is(gTop) || it.is(gFrequent) || it.is(gRank):
			d = r.dimAfter(k, afterWhich)
		case it.is(gMost) || it.is(gLeast) || it.kind(mMax) != nil || it.kind(mMin) != nil:
			d = r.dimAfter(k, afterMost) // "best selling dish", "the most expensive dishes"
		case (it.is(gMax) || it.is(gMin)) && r.measureThenField(k):
			d = r.dimAfter(k, afterMost) // "our biggest-spending customer", "the highest-grossing waiter"
		case it.is(gWho):
			if d = r.dimAfter(k, afterWhich); d == nil && r.fact.Decl.Actor != "" && r.anyOf(rankGens...) {
				d = &semantic.Dimension{Source: r.fact.Name, Field: r.fact.Decl.Actor}
			}
		case it.kind(mField) != nil && !it.used && r.mostAfter(k):
			d = r.dimAt(k)
		case it.is(gGrain) && r.mostAfter(k): // "il giorno con meno ordini"
			d = r.grainDim(grains[it.word])
		}
		if d != nil {
			r.secondDimension(k)
			if it.kind(mMax) == nil && it.kind(mMin) == nil {
				it.used = true // a field superlative is also the measure ("most expensive": max price)
			}
			r.dim = d
			break
		}
	}
	if r.dim == nil {
		r.dim = r.whatMostOften()
	}
	if r.dim == nil {
		return
	}
	r.ranked = r.ranked || r.anyOf(rankGens...) || r.hasUnused(mMax) || r.hasUnused(mMin)
	r.rankDesc = !(r.has(gLeast) || r.has(gMin) || r.hasUnused(mMin))
	for _, it := range r.items {
		for _, g := range rankGens {
			if it.is(g) {
				it.used = true // the words of the ranking are its order
			}
		}
	}
	if r.ranked && r.q.Limit == 0 && !r.has(gRank) {
		r.q.Limit = 1
	}
}

// measureThenField reports a superlative followed by a measure and a field: "biggest
// spending customer" ranks the customers by what they spend.
func (r *reader) measureThenField(k int) bool {
	m := r.next(k, 1)
	f := r.next(k, 2)
	return m >= 0 && f >= 0 && r.items[m].kind(mMeasure) != nil && r.items[f].kind(mField) != nil
}

// whatMostOften reads "what did Acme import most often", "cosa ordinano più spesso": a
// question that starts with what and ranks by frequency asks for the kind of row (the
// goods, the dish) that comes up most.
func (r *reader) whatMostOften() *semantic.Dimension {
	name := r.fact.Decl.Rows.Name
	if name == "" || !r.has(gFrequent) || len(r.ts) == 0 || !whatWords[r.ts[0].w] {
		return nil
	}
	return &semantic.Dimension{Source: r.fact.Name, Field: name}
}

var whatWords = set("what", "cosa", "che", "whats")

// rankEntity reads "which patient had the most events": the entity the fact's rows are
// (a subject), ranked by its rows in another source that carries its key.
func (r *reader) rankEntity() bool {
	ent := r.fact.RowEntity()
	if ent == "" {
		return false
	}
	for k, it := range r.items {
		if !(it.is(gMost) || it.is(gLeast)) {
			continue
		}
		n := r.next(k, 1)
		if n < 0 || r.items[n].kind(mRows) == nil {
			return false
		}
		other := r.items[n].kind(mRows).src
		key := other.Entity(ent)
		if other == r.fact || key == "" {
			return false
		}
		r.fact, r.counted = other, r.items[n]
		r.dim = &semantic.Dimension{Source: other.Name, Field: key}
		r.ranked, r.rankDesc = true, it.is(gMost)
		if r.q.Limit == 0 {
			r.q.Limit = 1
		}
		it.used, r.items[n].used = true, true
		for _, x := range r.items {
			if m := x.kind(mRows); m != nil && m.src.RowEntity() == ent {
				x.used = true // "patient": what is ranked
			}
		}
		return true
	}
	return false
}

// secondDimension lists "by severity and status": a breakdown by two dimensions, which a
// query groups by one only.
func (r *reader) secondDimension(k int) {
	for j := k + 1; j < len(r.items)-1; j++ {
		it := r.items[j]
		if it.is(gAnd) {
			n := r.next(j, 1)
			if n >= 0 && (r.items[n].is(gBy) || r.items[n].is(gEvery)) {
				n = r.next(n, 1)
			}
			if n >= 0 && (r.items[n].is(gGrain) || r.items[n].is(gGrainBy) || r.items[n].kind(mField) != nil && !numeric(r.items[n].kind(mField))) {
				r.uncover("a breakdown by a second dimension (%q)", r.items[n].word)
			}
			return
		}
		if !(it.is(gFiller) || it.kind(mField) != nil || it.is(gGrain) || it.used) {
			return
		}
	}
}

// amongField is the field right after "among"/"tra" in a question that asks which one
// ranks first or last ("among the project types we have findings for, which one has the
// fewest", "tra i reparti, quale ha più rilievi"), or -1.
func (r *reader) amongField(k int) int {
	j := r.next(k, 1)
	if j < 0 || r.items[j].used || r.items[j].kind(mField) == nil || r.dimAt(j) == nil {
		return -1
	}
	if !(r.has(gWhich) || r.has(gWho)) || !r.anyOf(gMost, gLeast) {
		return -1
	}
	return j
}

// hasUnused reports an item of kind k that no reading has used ("older" of "65 years or
// older" is a threshold's, no ranking).
func (r *reader) hasUnused(k mkind) bool {
	for _, it := range r.items {
		if it.kind(k) != nil && !it.used {
			return true
		}
	}
	return false
}

// mostAfter reports "X with the most", "X has the most": a ranking word right after a field.
func (r *reader) mostAfter(k int) bool {
	for j := k + 1; j < len(r.items) && j <= k+4; j++ {
		it := r.items[j]
		switch {
		case it.is(gMost) || it.is(gLeast):
			return true
		case it.is(gFrequent) && mostWord(it.word): // "metodo di pagamento più usato"
			return true
		case it.is(gMax) || it.is(gMin): // "the category with the highest food cost %": a measure of the groups
			n := r.next(j, 1)
			return n >= 0 && r.items[n].kind(mMeasure) != nil
		case it.is(gFiller) || it.is(gWith), it.kind(mMeasure) != nil:
		default:
			return false
		}
	}
	return false
}

// What precedes a dimension: "by/per X", "which X", "the most ... X".
const (
	afterBy = iota
	afterWhich
	afterMost
)

// dimAfter reads the dimension named after item k: a field, a time grain, or a row noun
// (its name field). For "by/per", a measure or numeric field after it is the ranking
// criterion, not a dimension; "per order" is per row, no grouping. After "the most", only a
// field is a dimension ("best selling dish"), words of the measure between.
// fieldBefore reports an unused dimension word right before item k.
func (r *reader) fieldBefore(k int) bool {
	j := r.prev(k, 1)
	return j >= 0 && !r.items[j].used && r.items[j].kind(mField) != nil && r.dimAt(j) != nil
}

func (r *reader) dimAfter(k int, after int) *semantic.Dimension {
	by := after == afterBy
	words := 0 // within four words, fillers aside ("who is our top spending customer")
	for j := k + 1; j < len(r.items) && words < 4; j++ {
		it := r.items[j]
		if !it.is(gFiller) {
			words++
		}
		switch {
		case after == afterWhich && r.rankedKindOf(it) != nil:
			return r.rankedKindOf(it)
		case it.used:
			continue
		case after == afterMost && r.criterionField(it):
			continue // "sold the most units": what the ranking is by, not a grouping
		case it.word == "all" || it.word == "tutti" || it.word == "tutte" || it.word == "every":
			return nil // "imported by all companies": not a breakdown
		case it.is(gFiller), it.num != nil, it.is(gMost), it.is(gLeast), it.is(gFrequent), it.is(gEvery), it.is(gWith):
			continue
		case it.is(gGrain): // "by month", "the best day"
			it.used = true
			return r.grainDim(grains[it.word])
		case after == afterMost && it.kind(mMeasure) != nil:
			continue
		case after == afterWhich && it.kind(mMeasure) != nil && r.next(j, 1) >= 0 && r.items[r.next(j, 1)].kind(mField) != nil:
			continue // "top spending customer": what the ranking is by
		case after == afterWhich && (it.is(gMax) || it.is(gMin) || it.is(gTop)) && r.measureThenField(j):
			continue // "who is our biggest-spending customer": the superlative reads the field
		case after == afterMost && it.kind(mField) == nil:
			return nil
		case it.kind(mField) != nil:
			if nx := r.next(j, 1); nx >= 0 && r.items[nx].kind(mRows) != nil {
				return nil // "per randomized subject": the field qualifies a row noun, it is no grouping
			}
			if d := r.dateGrain(j); d != nil {
				return d // "by onset month": that date, by month
			}
			if d := r.dimAt(j); d != nil {
				it.used = true
				return d
			}
			return nil
		case it.kind(mRows) != nil:
			if by {
				r.perRow = true // per order, per declaration: per row
				it.used = true
				if src := it.kind(mRows).src; src != r.fact && r.fact.Entity(src.RowEntity()) != "" {
					r.perEntity = it // per subject, of AEs: per row of the subjects' source
				}
				return nil
			}
			m := it.kind(mRows)
			// "the most common finding", "top 2 AEs": kinds of rows, by the rows' name;
			// "which declaration ..." asks for rows themselves.
			kinds := r.has(gFrequent) || r.has(gTop) || r.has(gRank) || !(r.has(gWhich) || r.has(gWho))
			if by := r.afterValues(j); m.src.Decl.Rows.Key != "" && by >= 0 && r.items[by].is(gBy) && r.rowsBy(r.next(by, 1)) {
				return nil // "top 5 declarations by value": the rows themselves, ranked (readRowOrder)
			}
			if name := m.src.Decl.Rows.Name; name != "" && kinds {
				it.used = true
				return &semantic.Dimension{Source: m.src.Name, Field: name}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// rankedKindOf reads "which dessert sold the most", "qual è il dolce che fattura meno": a
// value of a grouping of the rows (a category), after "which" in a ranking, asks which of
// the rows' kinds (the dishes) in it ranks first or last; the value stays the condition.
func (r *reader) rankedKindOf(it *item) *semantic.Dimension {
	m := it.kind(mValue)
	name := r.fact.Decl.Rows.Name
	if m == nil || m.src != r.fact || name == "" || m.field == name || !r.anyOf(gMost, gLeast, gMax, gMin, gFrequent, gTop) {
		return nil
	}
	return &semantic.Dimension{Source: r.fact.Name, Field: name}
}

// criterionField reports a numeric field no query groups by ("units", "pezzi"): after
// "the most" it is the quantity ranked, not a dimension.
func (r *reader) criterionField(it *item) bool {
	m := it.kind(mField)
	return m != nil && m.src == r.fact && numeric(m) && !contains(m.src.Schema().GroupBy, m.field)
}

// dimAt is the field of item k as a dimension: a groupable field of a source that can be
// related to the fact; a date field groups by day.
func (r *reader) dimAt(k int) *semantic.Dimension {
	var best *meaning
	for i := range r.items[k].ms {
		m := &r.items[k].ms[i]
		if m.kind != mField || !r.joinable(m.src) {
			continue
		}
		if best == nil || (m.src == r.fact && best.src != r.fact) {
			best = m
		}
	}
	if best == nil {
		return nil
	}
	f := best.src.Field(best.field)
	if f.Type == data.TypeNumber {
		return nil // a measure, not a dimension
	}
	if f.Type == data.TypeDate {
		return &semantic.Dimension{Source: best.src.Name, Field: best.field, Grain: data.GroupDay}
	}
	if !contains(best.src.Schema().GroupBy, best.field) {
		r.uncover("a breakdown by %s, which %s cannot group by", best.field, best.src.Name)
		return nil
	}
	return &semantic.Dimension{Source: best.src.Name, Field: best.field}
}

// grainDim groups by a grain of the time field (the fact's, else a joined source's).
func (r *reader) grainDim(g string) *semantic.Dimension {
	src, field := r.timeTarget()
	if src == nil {
		r.uncover("a breakdown by %s: the data of %s has no dates", g, r.fact.Name)
		return nil
	}
	groups := src.Schema().GroupBy
	if contains(groups, g) {
		return &semantic.Dimension{Source: src.Name, Field: field, Grain: g}
	}
	r.uncover("a breakdown by %s, which %s cannot group by", g, src.Name)
	return nil
}
