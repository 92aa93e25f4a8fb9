package nl

import (
	"fmt"
	"regexp"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// readShape decides what the question asks for — rows, a value, values per group, a
// ranking, a share, an average per group — and with which measures.
func (r *reader) readShape() {
	r.readGroup()
	r.countEntityElsewhere()
	r.readListing()
	r.readExists()
	switch {
	case r.listing:
		r.q.Rows = true
		r.shownFields()
	default:
		r.readMeasures()
	}
	if len(r.q.Uncovered) > 0 {
		return
	}
	r.readShare()
	r.finish()
	r.pricedPerUnit()
	r.applyHaving()
	r.applyGroupCount()
}

// pricedPerUnit reads "shipments priced per kg": a numeric field named before "per" and a
// unit (a value of a unit field), which the unit condition already says, where rows are
// counted or listed: the field qualifies the rows' unit, it is not asked for. Where a value
// is computed ("unit price per kg by country") the field stays what it asks.
func (r *reader) pricedPerUnit() {
	if !r.q.Rows && !r.countsRows() {
		return
	}
	for k, it := range r.items {
		f := it.kind(mField)
		by := r.next(k, 1)
		if f == nil || it.used || f.src != r.fact || !numeric(f) || by < 0 || !r.items[by].is(gBy) {
			continue
		}
		if u := r.next(by, 1); u >= 0 && r.isUnit(r.items[u]) && r.filtersField(r.items[u].kind(mValue).field) {
			it.used = true
		}
	}
}

// isUnit reports an item that names a value of a unit field (kg, pcs).
func (r *reader) isUnit(it *item) bool {
	v := it.kind(mValue)
	if v == nil || v.src != r.fact {
		return false
	}
	for _, fd := range r.fact.Decl.Fields {
		if fd.UnitField == v.field {
			return true
		}
	}
	return false
}

// filtersField reports a condition of the query on a field of the fact.
func (r *reader) filtersField(field string) bool {
	all := append([]semantic.Filter(nil), r.q.Filters...)
	if r.q.Share != nil {
		all = append(all, r.q.Share.Filters...)
	}
	for _, f := range all {
		if f.Source == r.fact.Name && f.Field == field {
			return true
		}
	}
	return false
}

// finish writes the decisions into the query.
func (r *reader) finish() {
	r.q.Source = r.fact.Name
	r.q.Exists = append(r.q.Exists, r.exists...)
	if r.dim != nil && r.perEntity != nil && r.perAggregateAt() >= 0 {
		r.uncover("an average per %s for each %s", r.perEntity.word, r.dim.Field+r.dim.Grain) // not the average of the groups
		return
	}
	if r.dim == nil && r.perEntity != nil && r.q.Compare == nil && r.q.Share == nil && !r.q.Rows && r.perEntityMeasure() {
		return // "average number of AEs per subject", "the most AEs of a single subject"
	}
	if r.dim == nil && r.perRow && r.averagePer() && r.q.Compare == nil && r.q.Share == nil && !r.q.Rows && r.q.Measures[0].Op == "" {
		r.q.AveragePer, r.q.Limit = &semantic.Dimension{Source: r.fact.Name}, 0 // "average revenue per order"
		r.items[r.find(gAvg)].used = true
		return
	}
	if r.dim != nil && r.noneAfterDim() { // "which project types have no critical findings"
		r.q.Without, r.q.Limit, r.q.Order, r.q.Rows = r.dim, 0, nil, false
		return
	}
	if r.dim != nil && r.q.Compare == nil && r.q.Share == nil && !r.q.Rows && r.averagePer() && !r.averageOverGroups() {
		// "average value (per declaration) by country": the average of the field the
		// measure sums, per group — not the average of the groups' totals.
		k := r.find(gAvg)
		if f := summedField(&meaning{src: r.fact, metric: r.q.Measures[0].Metric}); f != "" {
			r.q.Measures[0] = semantic.Measure{Op: data.AggAverage, Field: f, Unit: r.q.Measures[0].Unit}
			r.items[k].used = true
		}
	}
	if r.dim != nil && r.q.Share != nil && r.q.Compare == nil && !r.q.Rows {
		r.q.GroupBy = r.dim // a share per group (readShare)
	}
	if r.dim != nil && r.q.Compare == nil && r.q.Share == nil && !r.q.Rows {
		if r.averagePer() {
			r.q.AveragePer, r.q.Limit = r.dim, 0
			r.items[r.find(gAvg)].used = true
			return
		}
		r.q.GroupBy = r.dim
		if r.ranked {
			r.q.Order = &semantic.Order{Measure: 0, Desc: r.rankDesc}
		}
	}
	if r.dim != nil && r.q.Compare != nil && r.sidesAreGrain(r.dim) {
		r.dim, r.q.GroupBy = nil, nil // "2022 vs 2023: how many findings each year?": the sides are the years
	}
	if r.dim != nil && r.q.Compare != nil && !r.q.Rows && (len(r.q.Compare.Sides[0].Time) > 0 || r.comparesOther(r.dim)) {
		// "which country's value grew the most from 2023 to 2024": periods compared per
		// group, which the query does not make (it would compare the totals); "Sara o Luca,
		// chi ha fatturato di più" compares the groups themselves
		r.uncover("a comparison per %s", dimLabel(r.dim))
	}
	if r.topCount > 0 && r.dim == nil && !r.q.Rows && r.q.Compare == nil {
		r.uncover("the %d of something this query does not rank", r.topCount)
	}
	if r.q.Compare != nil || r.q.Share != nil || (r.dim == nil && !r.q.Rows) {
		r.q.Limit = 0
	}
}

// noneAfterDim reports "which X have no Y": a "no" not yet used, after the grouping's words.
func (r *reader) noneAfterDim() bool {
	for _, it := range r.items {
		if (it.is(gNone) || it.is(gNot)) && !it.used && (r.has(gWhich) || r.has(gWho)) {
			it.used = true
			return true
		}
	}
	return false
}

// averageOverGroups reports an average that is over the groups: of a count ("average number
// of findings per department") or per period ("average revenue per day").
func (r *reader) averageOverGroups() bool {
	m := r.q.Measures[0]
	count := m.Op == data.AggCount || m.Op == data.AggCountDistinct
	if m.Metric != "" {
		e, _ := r.fact.Dataset.Metric(m.Metric)
		count = e != nil && e.Kind == data.ExprAgg && (e.Func == "count" || e.Func == "count_distinct")
	}
	return count || r.dim.Grain != "" && !r.perRow
}

// averagePer reports "average number of findings per year": an average word that applies to
// no field, over a count or a sum, per a dimension.
func (r *reader) averagePer() bool {
	k := r.find(gAvg)
	if k < 0 || r.items[k].used || len(r.q.Measures) != 1 {
		return false
	}
	m := r.q.Measures[0]
	if m.Metric != "" {
		e, _ := r.fact.Dataset.Metric(m.Metric)
		return e != nil && e.Kind == data.ExprAgg && (e.Func == "sum" || e.Func == "count" || e.Func == "count_distinct")
	}
	return m.Op == data.AggCount || m.Op == data.AggSum || m.Op == data.AggCountDistinct
}

// readListing decides whether the question asks for rows: show/list/any, "which <row>",
// "the most recent <row>", or a bare row noun with nothing to compute.
func (r *reader) readListing() {
	counting := r.anyOf(gCount, gHowMuch, gPercent, gSize, gSum) || r.measureAsked() // "total findings" counts them
	counting = counting || r.perEntity != nil && r.anyOf(gAvg, gMax, gMin)           // "average AEs per subject"
	sup := r.rowsSuperlative()
	counting = counting || r.superlativeValue() && sup < 0                   // "how old is the oldest patient"
	counting = counting || r.anyOf(gAvg, gMedian) && r.operandField() != nil // "what is the average study day of AE onset"
	rowsAt := -1
	for k, it := range r.items {
		if it.kind(mRows) != nil && it.kind(mRows).src == r.fact {
			rowsAt = k
			break
		}
	}
	if rowsAt < 0 && !counting && r.has(gShow) && r.dim == nil && r.q.Compare == nil && len(r.q.Filters) > 0 {
		r.listing = true // "list the deferred ones", "show me everything HR has that is open"
		r.readRowOrder(false)
		return
	}
	if rowsAt < 0 && !counting && r.whoSuperlative() {
		r.listing = true // "who is the oldest", "chi è stato in trattamento più a lungo": the subject
		r.readRowOrder(true)
		return
	}
	if rowsAt < 0 || counting || (r.dim != nil && r.ranked) || r.q.Compare != nil {
		return
	}
	which := r.whichRows(rowsAt)
	switch {
	case which, r.has(gShow), r.has(gAny):
	case r.has(gRecent), r.has(gOldest), r.superlativeRows():
	case sup >= 0: // "i 3 pazienti più giovani", "the patient with the highest age"
	case r.operandField() == nil && r.dim == nil:
	default:
		return
	}
	if r.has(gShow) && r.dim != nil && !which {
		return // "show revenue by category": a breakdown
	}
	r.listing = true
	r.items[rowsAt].used = true
	if sup >= 0 {
		r.useSuperlativeField(sup)
		which = true
	}
	r.readRowOrder(which)
}

// superlativeValue reports a question that names the field of its superlative as what it
// asks: "how old is the oldest patient", "the age of the youngest subject" ask for the age
// (the max or min), not for the patient's row.
func (r *reader) superlativeValue() bool {
	for _, it := range r.items {
		sup := it.kind(mMax)
		if sup == nil {
			sup = it.kind(mMin)
		}
		if sup == nil || sup.src != r.fact {
			continue
		}
		for j, other := range r.items {
			if p := r.prev(j, 1); p >= 0 && r.items[p].is(gBy) {
				continue // "the 5 cheapest declarations by unit price": what the rows are ranked by
			}
			if f := other.kind(mField); f != nil && other != it && !other.used && f.src == sup.src && f.field == sup.field {
				return true
			}
		}
	}
	return false
}

// sidesAreGrain reports a comparison of periods of a grain grouped by that same grain
// ("2022 vs 2023 … each year", "marzo vs aprile, mese per mese"): the grouping restates the
// sides.
func (r *reader) sidesAreGrain(d *semantic.Dimension) bool {
	if d.Grain == "" || r.q.Compare == nil {
		return false
	}
	for _, side := range r.q.Compare.Sides {
		if len(side.Time) != 1 || len(side.Filters) > 0 || !grainLabel[d.Grain].MatchString(side.Time[0].Label) {
			return false
		}
	}
	return true
}

var grainLabel = map[string]*regexp.Regexp{
	"year":    regexp.MustCompile(`^\d{4}$`),
	"quarter": regexp.MustCompile(`^\d{4}-Q[1-4]$`),
	"month":   regexp.MustCompile(`^\d{4}-\d{2}$`),
	"day":     regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`),
}

// shownFields reads "just the ids", "only the titles", "solo gli id" in a listing: the
// fields to look at, which the rows listed carry among their columns.
func (r *reader) shownFields() {
	for k, it := range r.items {
		if !it.is(gOnly) || it.used {
			continue
		}
		for _, j := range []int{r.next(k, 1), r.prev(k, 1)} { // "only the ids", "ids only"
			if j < 0 || r.items[j].used || len(r.items[j].ms) != 1 {
				continue
			}
			if m := r.items[j].kind(mField); m != nil && m.src == r.fact {
				it.used, r.items[j].used = true, true
				r.note(fmt.Sprintf("the rows are listed whole; %s is one of their columns", m.field))
				break
			}
		}
	}
}

// measureAsked reports a measure the question asks for as such — not a measure word that
// names a field under a superlative ("the highest value": the largest declaration value).
func (r *reader) measureAsked() bool {
	for k, it := range r.items {
		m := it.kind(mMeasure)
		if m == nil || m.src != r.fact {
			continue
		}
		sup := false
		for _, j := range []int{r.prev(k, 1), r.next(k, 1)} {
			if j >= 0 && (r.items[j].is(gMax) || r.items[j].is(gMin)) && summedField(m) != "" {
				sup = true
			}
		}
		if !sup && !r.rowsBy(k) {
			return true
		}
	}
	return false
}

// rowsBy reports a measure or field at k that orders rows named before it under a
// superlative ("the 3 biggest transactions by value"): the criterion of the rows' order,
// the field the measure sums, not the measure itself.
func (r *reader) rowsBy(k int) bool {
	if k < 0 {
		return false
	}
	by := r.prev(k, 1)
	if by < 0 || !r.items[by].is(gBy) {
		return false
	}
	rows := r.prev(by, 1)
	for rows >= 0 && r.items[rows].kind(mValue) != nil && !r.factRows(rows) {
		rows = r.prev(rows, 1) // "the 3 biggest shipments of shrimp by quantity"
	}
	if rows < 0 || !r.factRows(rows) {
		return false
	}
	sup := r.prev(rows, 1)
	if sup >= 0 && r.items[sup].num != nil {
		sup = r.prev(sup, 1) // "top 5 declarations by value"
	}
	return r.superlativeAt(sup)
}

// superlativeAt reports a superlative at k: largest, smallest, cheapest.
func (r *reader) superlativeAt(k int) bool {
	if k < 0 {
		return false
	}
	it := r.items[k]
	return it.is(gMax) || it.is(gMin) || it.is(gTop) || it.kind(mMax) != nil && it.kind(mMax).src == r.fact || it.kind(mMin) != nil && it.kind(mMin).src == r.fact
}

// afterValues is the item after k, past the values that qualify it ("shipments of shrimp
// by ..."), or -1.
func (r *reader) afterValues(k int) int {
	n := r.next(k, 1)
	for n >= 0 && r.items[n].kind(mValue) != nil && r.items[n].gen == 0 {
		n = r.next(n, 1)
	}
	return n
}

// rowsAfter is the row noun of the fact right after item k, a number between them ("top 5
// declarations"), or -1.
func (r *reader) rowsAfter(k int) int {
	n := r.next(k, 1)
	if n >= 0 && r.items[n].num != nil {
		n = r.next(n, 1)
	}
	if n < 0 || !r.factRows(n) {
		return -1
	}
	return n
}

// superlativeRows reports a superlative right before a row noun of the fact that no value
// word follows ("the single biggest declaration", "the 5 cheapest declarations by unit
// price"): the rows with the largest or smallest value; "the largest declaration value" is
// the value itself, and so is "the age of the youngest patient".
func (r *reader) superlativeRows() bool {
	for k, it := range r.items {
		if it.kind(mField) != nil || it.kind(mMeasure) != nil {
			return false
		}
		if !r.superlativeAt(k) {
			continue
		}
		n := r.rowsAfter(k)
		if n < 0 {
			continue
		}
		after := r.next(n, 1)
		if it.is(gTop) {
			after = r.afterValues(n) // "top 5 declarations by value"; "top 5 declarations" are kinds of rows
			return after >= 0 && r.items[after].is(gBy) && r.next(after, 1) >= 0 && r.rowsBy(r.next(after, 1))
		}
		return after < 0 || r.items[after].kind(mMeasure) == nil && r.items[after].kind(mField) == nil
	}
	return false
}

// whichRows reports "which/who ... <row noun>" with the row noun close after.
func (r *reader) whichRows(rowsAt int) bool {
	for k := rowsAt - 1; k >= 0 && k >= rowsAt-4; k-- {
		if r.items[k].is(gWhich) || r.items[k].is(gWho) {
			return true
		}
	}
	return false
}

// namedDate is a date field named within three words after item k ("the earliest AE
// onset", "the most recent randomisation date"), or nil.
func (r *reader) namedDate(k int) *meaning {
	for d := 1; d <= 3; d++ {
		j := r.next(k, d)
		if j < 0 {
			return nil
		}
		if m := r.items[j].kind(mField); m != nil && typeOf(m.src, m.field) == data.TypeDate {
			r.items[j].used = true
			return m
		}
	}
	return nil
}

// readRowOrder orders a listing by a superlative: the most recent or oldest row by time,
// the row with the largest or smallest value of a field.
func (r *reader) readRowOrder(which bool) {
	tf := r.fact.Schema().TimeField
	for k, it := range r.items {
		var field string
		var desc bool
		var by *meaning
		switch {
		case it.is(gTop) && r.rowsAfter(k) >= 0: // "top 5 declarations by value" (topN used "top")
			if by = r.orderedBy(k, ""); by != nil {
				field, desc = by.field, true
			}
		case it.used:
		case (it.is(gRecent) || it.is(gOldest)) && r.namedDate(k) != nil:
			// "the earliest AE onset": the date named, on the rows listed or refused
			d := r.namedDate(k)
			if d.src != r.fact {
				r.uncover("%s ordered by %s, a date of %s", r.fact.Decl.Rows.Unit, d.field, d.src.Name)
				continue
			}
			field, desc = d.field, it.is(gRecent)
		case it.is(gRecent) && tf != "":
			field, desc = tf, true
		case it.is(gOldest) && tf != "":
			field = tf
		case it.kind(mMax) != nil && it.kind(mMax).src == r.fact:
			field, desc = it.kind(mMax).field, true
			by = r.orderedBy(k, field)
		case it.kind(mMin) != nil && it.kind(mMin).src == r.fact:
			field = it.kind(mMin).field
			by = r.orderedBy(k, field)
		case (it.is(gMax) || it.is(gMin)) && (which || r.rowsNext(k)):
			m := r.orderedBy(k, "")
			by = m
			if m == nil {
				m = r.operandOf(k)
			}
			if m == nil && r.rowsNext(k) { // "the largest shipment": by the amount it declares
				m = r.defaultAmountField()
			}
			if m != nil && m.src == r.fact {
				field, desc = m.field, it.is(gMax)
			}
		}
		if field == "" {
			continue
		}
		it.used = true
		if p := r.prev(k, 1); p >= 0 && (r.items[p].is(gMost) || r.items[p].is(gLeast)) {
			r.items[p].used = true // "the most recent"
		}
		// Ranked rows answer with each row's value: "by X", or N rows by a numeric field ("the
		// three patients on treatment the longest"); the latest or the one largest row is listed.
		ranked := by != nil || r.topCount > 1 && field != tf && typeOf(r.fact, field).Numeric()
		r.q.Order = &semantic.Order{Field: field, Desc: desc, Ranked: ranked}
		if r.q.Limit == 0 {
			r.q.Limit = 1
		}
		return
	}
}

// orderedBy reads "by X" right after the row noun that follows the superlative at k ("the
// 5 cheapest declarations by unit price", "the 3 biggest transactions by value"): the field
// X names, or that the measure X sums. It is marked used when want is "" or that field.
func (r *reader) orderedBy(k int, want string) *meaning {
	rows := r.rowsAfter(k)
	if rows < 0 {
		return nil
	}
	by := r.afterValues(rows)
	x := r.next(by, 1)
	if by < 0 || x < 0 || !r.items[by].is(gBy) {
		return nil
	}
	m := r.items[x].kind(mField)
	if mm := r.items[x].kind(mMeasure); m == nil && mm != nil && summedField(mm) != "" {
		m = &meaning{kind: mField, src: mm.src, field: summedField(mm)}
	}
	if m == nil || m.src != r.fact || !numeric(m) {
		return nil
	}
	if want != "" && m.field != want {
		r.uncover("rows ordered by %s and by %q at once", want, r.items[x].word) // "the cheapest declarations by value"
		return nil
	}
	r.items[by].used, r.items[x].used = true, true
	return m
}

// rowsNext reports a row noun of the fact right after item k ("largest shipment").
func (r *reader) rowsNext(k int) bool {
	n := r.next(k, 1)
	return n >= 0 && r.items[n].kind(mRows) != nil && r.items[n].kind(mRows).src == r.fact
}

// operandOf is the numeric field an aggregation word at k applies to: a field next to it,
// or the field a measure like total_value sums ("the highest value" is the largest
// declaration value, not the largest total).
func (r *reader) operandOf(k int) *meaning {
	if m := r.nearField(k, 3); m != nil {
		return m
	}
	m := r.summedNear(k)
	return m
}

// summedNear is the field summed by a measure within three items of k.
func (r *reader) summedNear(k int) *meaning {
	for d := 1; d <= 3; d++ {
		for _, j := range []int{k + d, k - d} {
			if j < 0 || j >= len(r.items) {
				continue
			}
			if m := r.items[j].kind(mMeasure); m != nil {
				if f := summedField(m); f != "" {
					r.items[j].used = true
					return &meaning{kind: mField, src: m.src, field: f}
				}
			}
		}
	}
	return nil
}

// summedField is the field a metric sums, when the metric is exactly sum(field).
func summedField(m *meaning) string {
	e, ok := m.src.Dataset.Metric(m.metric)
	if !ok || e.Kind != data.ExprAgg || e.Func != "sum" || e.Left == nil || e.Left.Kind != data.ExprColumn {
		return ""
	}
	return e.Left.Field.Name
}

// readExists relates the fact rows to the row nouns of other sources: "patients with at
// least one AE", "patients with no adverse events". A row noun whose source the question
// already filters needs nothing more: the filter joins.
func (r *reader) readExists() {
	for k, it := range r.items {
		m := it.kind(mRows)
		if m == nil || it.used || m.src == r.fact {
			if m != nil && m.src == r.fact {
				it.used = true
			}
			continue
		}
		it.used = true
		if !r.joinable(m.src) {
			r.uncover("how %s relates to %s", m.src.Name, r.fact.Name)
			continue
		}
		if r.noneBefore(k) {
			r.exists = append(r.exists, semantic.Exists{Source: m.src.Name, Not: true})
			continue
		}
		if r.filtersOn(m.src.Name) || r.existsOn(m.src.Name) || r.dimOn(m.src.Name) {
			continue
		}
		r.exists = append(r.exists, semantic.Exists{Source: m.src.Name})
	}
}

func (r *reader) noneBefore(k int) bool {
	for j := k - 1; j >= 0 && j >= k-3; j-- {
		it := r.items[j]
		switch {
		case it.is(gNone):
			it.used = true
			return true
		case it.is(gAny): // "didn't report any adverse event", "never reported any", "non hanno avuto alcun evento"
			if n := r.prev(j, 1); n >= 0 && (r.items[n].is(gNot) || r.items[n].is(gNone)) {
				it.used, r.items[n].used = true, true
				return true
			}
			return false
		case it.is(gFiller), it.is(gWith), it.kind(mValue) != nil:
		default:
			return false
		}
	}
	return false
}

func (r *reader) filtersOn(src string) bool {
	for _, f := range r.q.Filters {
		if f.Source == src {
			return true
		}
	}
	for _, t := range r.q.Time {
		if t.Source == src {
			return true
		}
	}
	if r.q.Compare != nil {
		for _, s := range r.q.Compare.Sides {
			for _, f := range s.Filters {
				if f.Source == src {
					return true
				}
			}
		}
	}
	return false
}

func (r *reader) existsOn(src string) bool {
	for _, e := range r.exists {
		if e.Source == src {
			return true
		}
	}
	return false
}

func (r *reader) dimOn(src string) bool { return r.dim != nil && r.dim.Source == src }

// readShare reads "what percentage of findings are closed": the share of the rows that
// match the last condition (or relate to another source) among the rows of the others.
func (r *reader) readShare() {
	k := r.find(gPercent)
	if k < 0 || r.items[k].used || r.q.Rows {
		return
	}
	r.items[k].used = true
	if len(r.q.Measures) > 0 && !additiveOp(r.q.Measures[0].Op) {
		// "the average discount percentage": a share of an average is no share of the rows
		r.uncover("a share (%q) of %s %s, which does not add up over rows", r.items[k].word, r.q.Measures[0].Op, r.q.Measures[0].Field)
		return
	}
	sh := &semantic.Share{}
	switch {
	case len(r.exists) > 0:
		e := r.exists[len(r.exists)-1]
		sh.Exists, r.exists = &e, r.exists[:len(r.exists)-1]
	case r.predicateValue(k) != nil && len(r.q.Filters) > 0:
		// "what percentage of declarations from Japan are from China": the condition is what
		// follows the verb, whatever the rows' own words name before it; every value that
		// follows it ("what percentage of all findings are both critical and closed")
		after := r.predicateValues(k)
		sh.Filters, r.q.Filters = predicateCondition(r.q.Filters, after)
		for _, f := range sh.Filters {
			if !allNamed(f.Values, after) {
				// "declarations from Japan are from China": the rows and the condition are
				// values of one field, read as one list
				r.uncover("a share whose rows and condition are values of one field (%s)", f.Field)
				return
			}
		}
	case len(r.q.Time) > 0 && r.dim == nil && (r.periodAfterRows() || r.predicatePeriod(k)):
		sh.Time, r.q.Time = r.q.Time, nil // "what percentage of declarations from Japan are from 2023"
	case len(r.q.Filters) > 0:
		sh.Filters, r.q.Filters = shareCondition(r.q.Filters, r.shareValue(k))
	case len(r.q.Time) > 0 && r.dim == nil:
		// "what share of all declarations are from 2023": the period is the condition, the
		// share of all the rows; by a grouping the period stays the rows' scope ("percentage
		// of findings by severity in 2024")
		sh.Time, r.q.Time = r.q.Time, nil
	case r.dim != nil && !r.ranked && r.countsRows():
		// "percentage of findings by severity": each group's share of all the rows
	default:
		r.uncover("a share of what: the question names no condition")
		return
	}
	if r.dim != nil && (r.ranked || !r.countsRows()) {
		r.uncover("a share per group that is ranked, or of something other than a count of rows")
		return
	}
	r.q.Share = sh
}

// predicate is the first token of what a share's question says of its rows — after "are",
// "is", "were", "sono" following the share's word at k ("what percentage of declarations
// from Japan are from 2023") — or -1.
func (r *reader) predicate(k int) int {
	for i := r.items[k].j; i < len(r.ts); i++ {
		if copulas[r.ts[i].w] {
			return i + 1
		}
		if r.ts[i].w == "e" && i+1 < len(r.ts) && participles[r.ts[i+1].w] { // "è stata fatta a marzo" ("e" alone is "and")
			return i + 2
		}
	}
	return -1
}

// participles follow "è" where it is a verb: "è stata", "è stato".
var participles = set("stata", "stato", "stati", "state")

var copulas = set("are", "is", "were", "was", "sono", "erano", "era", "siano", "sia")

// predicateValue is a value named after the share's predicate, or nil.
func (r *reader) predicateValue(k int) *meaning {
	c := r.predicate(k)
	if c < 0 {
		return nil
	}
	for _, it := range r.items {
		if m := it.kind(mValue); m != nil && it.i >= c {
			return m
		}
	}
	return nil
}

// additiveOp reports a measure a share can be taken of: a metric, a count or a sum.
func additiveOp(op string) bool {
	return op == "" || op == data.AggSum || op == data.AggCount || op == data.AggCountDistinct
}

// predicateValues are the values named after the share's predicate.
func (r *reader) predicateValues(k int) []*meaning {
	c := r.predicate(k)
	var out []*meaning
	for _, it := range r.items {
		if m := it.kind(mValue); m != nil && c >= 0 && it.i >= c {
			out = append(out, m)
		}
	}
	return out
}

// predicateCondition splits the filters into the share's condition — every filter on a
// field a value after the predicate names — and the rows it is a share of.
func predicateCondition(fs []semantic.Filter, after []*meaning) (cond, base []semantic.Filter) {
	for _, f := range fs {
		named := false
		for _, m := range after { // the filter of that value: "from Japan are from China" keeps Japan as the rows
			named = named || f.Source == m.src.Name && f.Field == m.field && anyValue(f.Values, m.values)
		}
		if named {
			cond = append(cond, f)
		} else {
			base = append(base, f)
		}
	}
	return cond, base
}

// allNamed reports values that the meanings after the predicate all name.
func allNamed(have []any, after []*meaning) bool {
	for _, v := range have {
		found := false
		for _, m := range after {
			found = found || contains(m.values, fmt.Sprint(v))
		}
		if !found {
			return false
		}
	}
	return true
}

func anyValue(have []any, named []string) bool {
	for _, v := range have {
		for _, n := range named {
			if fmt.Sprint(v) == n {
				return true
			}
		}
	}
	return false
}

// predicatePeriod reports a period named after the share's predicate and no value there.
func (r *reader) predicatePeriod(k int) bool {
	c := r.predicate(k)
	if c < 0 || r.predicateValue(k) != nil {
		return false
	}
	for _, it := range r.items {
		if it.date != nil && it.i >= c {
			return true
		}
	}
	return false
}

// shareCondition splits the filters into the share's condition and the rows it is a share
// of: the condition is the last one named ("what percentage of open findings are high"),
// with every other condition on its field, which only narrows it ("AEs assessed as
// related, not counting possibly related": one condition on AEREL, not a share of it).
//
// A value right next to the share's word names the condition wherever it stands: "closure
// rate for high findings", "% closed by year" ask for the closed share of those rows.
func shareCondition(fs []semantic.Filter, next *meaning) (cond, base []semantic.Filter) {
	last := fs[len(fs)-1]
	for _, f := range fs {
		if next != nil && f.Source == next.src.Name && f.Field == next.field {
			last = f
		}
	}
	for _, f := range fs {
		if f.Source == last.Source && f.Field == last.Field {
			cond = append(cond, f)
		} else {
			base = append(base, f)
		}
	}
	return cond, base
}

// shareValue is the value right before or after the share's word at k ("closure rate",
// "% closed", "rate of closure"), or nil.
func (r *reader) shareValue(k int) *meaning {
	for _, j := range []int{k - 1, k + 1} {
		if j >= 0 && j < len(r.items) {
			if m := r.items[j].kind(mValue); m != nil {
				return m
			}
		}
	}
	return nil
}

// countsRows reports that the query's one measure counts rows or distinct entities.
func (r *reader) countsRows() bool {
	return len(r.q.Measures) == 1 && (r.q.Measures[0].Op == data.AggCount || r.q.Measures[0].Op == data.AggCountDistinct)
}

func dimLabel(d *semantic.Dimension) string {
	if d.Grain != "" {
		return d.Grain
	}
	return d.Field
}

// comparesOther reports sides that are values of a field other than the dimension named:
// "which waiter sold more pizza or pasta" ranks waiters, the totals of pizza and pasta do
// not answer it. A "which" that names no field ("which is more, A or B") asks which side.
func (r *reader) comparesOther(d *semantic.Dimension) bool {
	named := r.has(gWho) && d.Field == r.fact.Decl.Actor // "chi vende più pizza o pasta"
	for _, it := range r.items {
		if m := it.kind(mField); m != nil && m.src.Name == d.Source && m.field == d.Field {
			named = true
		}
	}
	if !named {
		return false
	}
	for _, s := range r.q.Compare.Sides {
		for _, f := range s.Filters {
			if f.Source != d.Source || f.Field != d.Field {
				return true
			}
		}
	}
	return false
}
