package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// comparisons maps threshold words to operators.
var comparisons = map[gen]string{gGT: data.OpGreaterThan, gLT: data.OpLessThan, gGE: data.OpAtLeast, gLE: data.OpAtMost}

// readNumbers reads the numbers of a question: thresholds on a field ("more than 5
// pieces", "unit price above 2000", "older than 65"), a value of a field ("site 103",
// "sconto del 20%"), counts of related rows ("3 or more AEs"), and top N.
func (r *reader) readNumbers() {
	for k, it := range r.items {
		if it.num == nil || it.used {
			continue
		}
		switch {
		case r.studyDay(k):
		case r.between(k):
		case r.existsCount(k):
		case r.threshold(k):
		case r.fieldRange(k):
		case r.fieldValue(k):
		case r.withCount(k):
		case r.topN(k):
		case r.growth(k):
		}
	}
	r.presence()
}

// between reads "quantity between 2 and 4", "tra 2 e 4 pezzi": an inclusive range on a
// numeric field named just before or after it.
func (r *reader) between(k int) bool {
	b, and, hi := r.prev(k, 1), r.next(k, 1), r.next(k, 2)
	if b < 0 || !r.items[b].is(gBetween) || and < 0 || !r.items[and].is(gAnd) || hi < 0 || r.items[hi].num == nil {
		return false
	}
	var m *meaning
	var fk int
	for _, j := range []int{r.prev(b, 1), r.next(hi, 1)} {
		if j >= 0 {
			if f := r.items[j].kind(mField); f != nil && numeric(f) {
				m, fk = f, j
				break
			}
		}
	}
	lo, top := r.items[k].num.num, r.items[hi].num.num
	if m == nil || lo > top {
		return false
	}
	for _, j := range []int{k, b, and, hi, fk} {
		r.items[j].used = true
	}
	r.q.Filters = append(r.q.Filters, semantic.Filter{Source: m.src.Name, Field: m.field, Op: data.OpBetween, Values: []any{lo, top}})
	return true
}

// threshold reads [field] op N, op N [field], "older than N", and the same with the
// operator after the number: "5 o più pezzi", "10 or fewer items", "65 or older".
func (r *reader) threshold(k int) bool {
	opAt := r.prev(k, 1)
	if opAt < 0 || !r.isThresholdOp(opAt) {
		if r.postfixThreshold(k) {
			return true
		}
	}
	if opAt < 0 {
		return false
	}
	var m *meaning
	var fk int
	if sup := r.items[opAt].kind(mMax); sup != nil { // "older than 65"
		r.items[k].used, r.items[opAt].used = true, true
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: sup.src.Name, Field: sup.field, Op: data.OpGreaterThan, Values: []any{r.items[k].num.num}})
		return true
	}
	if sup := r.items[opAt].kind(mMin); sup != nil { // "younger than 30"
		r.items[k].used, r.items[opAt].used = true, true
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: sup.src.Name, Field: sup.field, Op: data.OpLessThan, Values: []any{r.items[k].num.num}})
		return true
	}
	op, ok := comparisons[r.items[opAt].gen]
	if !ok || len(r.items[opAt].ms) > 0 {
		return false
	}
	if r.groupTotal(opAt, k, op) || r.totalAfter(opAt, k, op) || r.entityRows(opAt, k, op) {
		return true
	}
	for _, j := range []int{r.prev(opAt, 1), r.next(k, 1), r.prev(opAt, 2), r.next(k, 2)} {
		if j < 0 {
			continue
		}
		if f := r.items[j].kind(mField); f != nil && numeric(f) {
			m, fk = f, j
			break
		}
		if f := r.items[j].kind(mField); f != nil && j == r.next(k, 1) && len(r.items[j].ms) == 1 && amountField(f) != nil {
			m, fk = amountField(f), j // "more than 3 items": the items' pieces, as "3 or more items"
			break
		}
		if f := r.items[j].kind(mMax); f != nil {
			m, fk = f, j
			break
		}
		if f := r.items[j].kind(mMin); f != nil {
			m, fk = f, j
			break
		}
	}
	if f := r.measuredIn(k); m == nil && f != nil { // "over 500 pcs": the quantity, in pcs
		m, fk = f, k
	}
	if m == nil {
		m, fk = r.unitField(k)
	}
	if m == nil {
		// "declarations over 50,000": an amount without its field is the field the
		// default measure sums (the declared value), if it sums one — unless the number
		// counts the things named right after it ("more than 15 laptops").
		if n := r.next(k, 1); n >= 0 && (r.items[n].kind(mValue) != nil || r.items[n].kind(mRows) != nil) {
			return false
		}
		if m = r.defaultAmountField(); m == nil {
			return false
		}
		fk = k
		for _, p := range []int{r.prev(opAt, 1), r.next(k, 1), r.next(k, 2)} {
			if p < 0 || r.items[p].kind(mMeasure) == nil || summedField(r.items[p].kind(mMeasure)) != m.field {
				continue
			}
			// "declarations with a total value of more than 500,000", "declarations that exceed
			// one million USD in value": the value of each row, which the measure's word
			// names; "companies with a total import value above 2 million" asks for the
			// groups whose total passes, which no query here computes
			if !r.rowNounOfFact() {
				r.uncover("a condition on a total (%q %s): which groups' totals pass it", r.items[p].word, r.items[opAt].word)
			}
			r.items[p].used = true
			if r.rowValue == nil {
				r.rowValue = map[*item]bool{}
			}
			r.rowValue[r.items[p]] = true
			break
		}
	}
	r.items[k].used, r.items[opAt].used, r.items[fk].used = true, true, true
	r.q.Filters = append(r.q.Filters, semantic.Filter{Source: m.src.Name, Field: m.field, Op: op, Values: []any{r.items[k].num.num}})
	return true
}

// groupTotal reads a threshold on a measure the question names beside it, where no row is
// named ("which companies have a total import value above 2 million", "quali categorie
// hanno superato i 3000 euro di fatturato"): a condition on each group's total, which
// readShape turns into Having once the grouping is read (or refuses).
func (r *reader) groupTotal(opAt, k int, op string) bool {
	if r.rowNounOfFact() {
		return false
	}
	for _, j := range []int{r.prev(opAt, 1), r.next(k, 1), r.next(k, 2)} {
		if j < 0 {
			continue
		}
		if m := r.items[j].kind(mMeasure); m != nil && m.src == r.fact {
			r.items[k].used, r.items[opAt].used = true, true
			if r.items[k].num.percent != (r.fact.Decl.Measures[m.metric].Unit == "%") {
				// "un food cost sopra il 37%" beside the food cost in EUR: the number and the
				// measure are not in one unit
				r.uncover("%s compared with %s: not in the same unit", r.items[k].num.orig, r.items[j].word)
				return true
			}
			r.having = &pendingHaving{op: op, value: r.items[k].num.num, measure: m, word: r.items[j].word}
			return true
		}
	}
	return false
}

// pendingHaving is a threshold on a measure's total per group, until the grouping is read.
type pendingHaving struct {
	op      string
	value   float64
	measure *meaning
	word    string
}

// applyHaving makes the pending threshold on a measure's total the query's Having: only
// over a breakdown that computes that measure; else it is refused.
func (r *reader) applyHaving() {
	h := r.having
	if h == nil {
		return
	}
	if r.q.GroupBy == nil || r.q.Rows || r.q.Compare != nil || r.q.Share != nil || r.q.AveragePer != nil {
		r.uncover("a condition on a total (%q): which groups' totals pass it, without a breakdown", h.word)
		return
	}
	for i, m := range r.q.Measures {
		if m.Metric == h.measure.metric || m.Metric == "" && m.Op == data.AggSum && m.Field == summedField(h.measure) {
			r.q.Having = &semantic.Having{Measure: i, Op: h.op, Value: h.value}
			return
		}
	}
	r.uncover("a condition on a total (%q) of a measure this query does not compute", h.word)
}

// pendingGroupCount is a threshold on the number of rows of each value of a field.
type pendingGroupCount struct {
	field string
	op    string
	value float64
	word  string
}

// entityRows reads a threshold on a number of the fact's rows beside a field that counts
// something ("how many customers placed at least 5 orders", "quanti clienti hanno fatto
// più di 8 ordini"): a condition on each value's number of rows, applied by
// applyGroupCount once the measures are read.
func (r *reader) entityRows(opAt, k int, op string) bool {
	n := r.next(k, 1)
	if n < 0 || r.items[n].kind(mRows) == nil || r.items[n].kind(mRows).src != r.fact || r.items[k].num.percent {
		return false
	}
	field := ""
	for _, it := range r.items {
		if f := it.kind(mField); f != nil && f.src == r.fact && len(it.ms) == 1 && r.fact.Decl.Fields[f.field].Counts != "" {
			if field != "" && field != f.field {
				return false
			}
			field = f.field
		}
	}
	if field == "" {
		return false
	}
	r.items[k].used, r.items[opAt].used, r.items[n].used = true, true, true
	r.groupCount = &pendingGroupCount{field: field, op: op, value: r.items[k].num.num, word: r.items[n].word}
	return true
}

// entityRepeat reads "how many customers ordered more than once", "clienti tornati più di
// una volta": more than one row of each value of a field that counts something.
func (r *reader) entityRepeat() {
	k := r.find(gRepeat)
	if k < 0 || r.groupCount != nil {
		return
	}
	field := ""
	for _, it := range r.items {
		if f := it.kind(mField); f != nil && f.src == r.fact && len(it.ms) == 1 && r.fact.Decl.Fields[f.field].Counts != "" {
			if field != "" && field != f.field {
				return
			}
			field = f.field
		}
	}
	if field == "" {
		return
	}
	r.items[k].used = true
	r.groupCount = &pendingGroupCount{field: field, op: data.OpGreaterThan, value: 1, word: r.fact.Decl.Rows.Unit}
}

// applyGroupCount makes a threshold on each value's number of rows the query: the number
// of values that pass it ("how many customers …": the query counted them), or the values
// that pass it with their numbers ("customers with at least 5 orders", by customer);
// anything else is refused.
func (r *reader) applyGroupCount() {
	g := r.groupCount
	if g == nil {
		return
	}
	count := semantic.Measure{Op: data.AggCount, Unit: r.fact.Decl.Rows.Unit}
	having := &semantic.Having{Measure: 0, Op: g.op, Value: g.value}
	fi := -1 // the field's word, where the question names it
	for k, it := range r.items {
		if f := it.kind(mField); f != nil && f.src == r.fact && f.field == g.field && len(it.ms) == 1 {
			fi = k
			break
		}
	}
	counts := len(r.q.Measures) == 1 && (r.q.Measures[0].Op == data.AggCountDistinct && r.q.Measures[0].Field == g.field || r.q.Measures[0].Op == data.AggCount)
	plain := r.q.Compare == nil && r.q.Share == nil && r.q.AveragePer == nil && r.q.Having == nil && r.q.Order == nil && r.q.Limit == 0
	c := r.find(gCount)
	asked := c >= 0 && fi >= 0 && (r.next(c, 1) == fi || r.next(c, 1) >= 0 && r.items[r.next(c, 1)].is(gDistinct) && r.next(c, 2) == fi) // "how many (different) customers"
	switch {
	case plain && counts && r.q.GroupBy == nil && !r.q.Rows && asked:
		// "how many customers placed at least 5 orders": the customers that pass, counted
		r.q.Measures, r.q.Having, r.q.CountGroups = []semantic.Measure{count}, having, true
		r.q.GroupBy = &semantic.Dimension{Source: r.fact.Name, Field: g.field}
		r.items[fi].used = true
	case plain && c < 0 && fi >= 0 && (r.q.Rows || counts || r.q.GroupBy != nil && r.q.GroupBy.Field == g.field):
		// "customers with at least 5 orders": each of them with its number of orders
		r.q.Rows, r.q.Measures, r.q.Having = false, []semantic.Measure{count}, having
		r.q.GroupBy = &semantic.Dimension{Source: r.fact.Name, Field: g.field}
		r.items[fi].used = true
	default:
		r.uncover("a condition on each %s's number of %s: what it is asked of", g.field, g.word)
	}
}

// totalWords say that a threshold is on a total: "more than 3 million USD in total".
var totalWords = set("in total", "in totale", "overall", "altogether", "complessivamente", "in all", "combined", "total", "in tutto")

// totalAfter reads a threshold followed by a word of the total ("which companies imported
// more than 3 million USD in total"): a condition on each group's total of the default
// measure, never on each row; where rows are named, which rows' total passes is not said.
func (r *reader) totalAfter(opAt, k int, op string) bool {
	at := -1
	for _, j := range []int{r.next(k, 1), r.next(k, 2), r.next(k, 3), k + 1, k + 2, k + 3} {
		if j >= 0 && j < len(r.items) && totalWords[r.items[j].word] {
			at = j
			break
		}
	}
	dm := r.fact.Decl.DefaultMeasure
	if at < 0 || dm == "" {
		return false
	}
	r.items[k].used, r.items[opAt].used, r.items[at].used = true, true, true
	if r.rowNounOfFact() {
		r.uncover("a condition on a total (%q %s … %q): which rows' total passes it", r.items[opAt].word, r.items[k].num.orig, r.items[at].word)
		return true
	}
	r.having = &pendingHaving{op: op, value: r.items[k].num.num, measure: &meaning{kind: mMeasure, src: r.fact, metric: dm}, word: r.items[at].word}
	return true
}

// rowNounOfFact reports a word naming the fact's rows (declarations, orders).
func (r *reader) rowNounOfFact() bool {
	for _, it := range r.items {
		if m := it.kind(mRows); m != nil && m.src == r.fact {
			return true
		}
	}
	return false
}

// isThresholdOp reports a comparison word or an extreme of a field ("older") at k.
func (r *reader) isThresholdOp(k int) bool {
	it := r.items[k]
	if it.kind(mMax) != nil || it.kind(mMin) != nil {
		return true
	}
	_, ok := comparisons[it.gen]
	return ok && len(it.ms) == 0
}

// postfixThreshold reads N followed by "or more" / "o più" / "or less" and a numeric field
// next to either ("5 o più pezzi", "quantity of 3 or more"), or by "or" and an extreme of a
// field ("65 or older": age at least 65).
func (r *reader) postfixThreshold(k int) bool {
	n := r.next(k, 1)
	if n < 0 {
		return false
	}
	if f := r.measuredIn(k); f != nil { // "20,000 kg or more"
		if op := r.next(n, 1); op >= 0 && (r.items[op].is(gGE) || r.items[op].is(gLE)) {
			r.items[k].used, r.items[op].used = true, true
			r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: comparisons[r.items[op].gen], Values: []any{r.items[k].num.num}})
			return true
		}
	}
	it := r.items[n]
	if it.is(gOr) {
		e := r.next(n, 1)
		if e < 0 {
			return false
		}
		op, sup := data.OpAtLeast, r.items[e].kind(mMax)
		if sup == nil {
			op, sup = data.OpAtMost, r.items[e].kind(mMin)
		}
		if sup == nil {
			return false
		}
		r.items[k].used, r.items[n].used, r.items[e].used = true, true, true
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: sup.src.Name, Field: sup.field, Op: op, Values: []any{r.items[k].num.num}})
		return true
	}
	if f, u := r.unitField(k); f != nil { // "65 anni o più", "60 days or longer"
		if o := r.next(u, 1); o >= 0 && (r.items[o].is(gGE) || r.items[o].is(gLE)) {
			r.items[k].used, r.items[u].used, r.items[o].used = true, true, true
			r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: comparisons[r.items[o].gen], Values: []any{r.items[k].num.num}})
			return true
		}
		if o, e := r.next(u, 1), r.next(u, 2); o >= 0 && e >= 0 && r.items[o].is(gOr) { // "65 years or older"
			op, sup := data.OpAtLeast, r.items[e].kind(mMax)
			if sup == nil {
				op, sup = data.OpAtMost, r.items[e].kind(mMin)
			}
			if sup != nil && sup.src == f.src && sup.field == f.field {
				r.items[k].used, r.items[u].used, r.items[o].used, r.items[e].used = true, true, true, true
				r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: op, Values: []any{r.items[k].num.num}})
				return true
			}
		}
	}
	if !it.is(gGE) && !it.is(gLE) {
		return false
	}
	for _, j := range []int{r.next(n, 1), r.prev(k, 1), r.next(n, 2), r.prev(k, 2)} {
		if j < 0 {
			continue
		}
		f := r.items[j].kind(mField)
		if f != nil && !numeric(f) && j == r.next(n, 1) {
			f = amountField(f) // "5 or more of the same item": the item's pieces
		}
		if f != nil && numeric(f) {
			r.items[k].used, r.items[n].used, r.items[j].used = true, true, true
			r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: comparisons[it.gen], Values: []any{r.items[k].num.num}})
			return true
		}
	}
	return false
}

// unitField reads the unit word right after the number at k ("65 years", "65 anni", "60
// giorni") as the one numeric field of the fact measured in that unit (AGE in years,
// TRTDURD in days); it returns the field and the unit word's index, or nil when no field,
// or more than one, has that unit.
func (r *reader) unitField(k int) (*meaning, int) {
	u := r.next(k, 1)
	if u < 0 || !r.items[u].is(gGrain) || r.items[u].used {
		return nil, -1
	}
	g := grains[r.items[u].word]
	var found *meaning
	for name, fd := range r.fact.Decl.Fields {
		unit := data.Fold(fd.Unit)
		if f := r.fact.Field(name); f == nil || !f.Type.Numeric() || (unit != g && unit != g+"s") {
			continue
		}
		if found != nil {
			return nil, -1
		}
		found = &meaning{kind: mField, src: r.fact, field: name}
	}
	return found, u
}

// measuredIn is the numeric field whose unit the item after number k names: "500 pcs",
// "20,000 kg" are quantities when the quantity's unit field has the values pcs and kg (the
// unit itself is read as a condition on the unit field).
func (r *reader) measuredIn(k int) *meaning {
	n := r.next(k, 1)
	if n < 0 {
		return nil
	}
	v := r.items[n].kind(mValue)
	if v == nil || v.src != r.fact || len(r.items[n].ms) != 1 {
		return nil
	}
	var fields []string
	for name, fd := range r.fact.Decl.Fields {
		if fd.UnitField == v.field {
			fields = append(fields, name)
		}
	}
	if len(fields) != 1 {
		return nil // no field, or several measured in that unit: which one is not said
	}
	return &meaning{kind: mField, src: r.fact, field: fields[0]}
}

// amountField is the numeric field a field's amount sums ("item": its pieces, quantity), or
// nil when the field declares no amount or the amount is no plain sum of a field.
func amountField(f *meaning) *meaning {
	a := f.src.Decl.Fields[f.field].Amount
	if a == "" {
		return nil
	}
	if q := summedField(&meaning{src: f.src, metric: a}); q != "" {
		return &meaning{kind: mField, src: f.src, field: q}
	}
	return nil
}

// defaultAmountField is the field the fact's default measure sums, if it is exactly a sum.
func (r *reader) defaultAmountField() *meaning {
	d := r.fact.Decl.DefaultMeasure
	if d == "" {
		return nil
	}
	if f := summedField(&meaning{src: r.fact, metric: d}); f != "" {
		return &meaning{kind: mField, src: r.fact, field: f}
	}
	return nil
}

// prev and next return the index of the n-th item before or after k, fillers aside.
func (r *reader) prev(k, n int) int {
	for j := k - 1; j >= 0; j-- {
		if r.items[j].is(gFiller) {
			continue
		}
		if n--; n == 0 {
			return j
		}
	}
	return -1
}

func (r *reader) next(k, n int) int {
	for j := k + 1; j < len(r.items); j++ {
		if r.items[j].is(gFiller) {
			continue
		}
		if n--; n == 0 {
			return j
		}
	}
	return -1
}

// fieldValue reads a field word followed by a number: "site 103", "tavolo 12",
// "sconto del 20%"; or a percentage followed by a numeric field: "a 10% discount".
// rangeWords join the two ends of a range of numbers: "tables 1 to 5", "tavoli dal 1 al 5".
var rangeWords = map[string]bool{"to": true, "through": true, "thru": true, "a": true, "al": true, "fino a": true, "fino al": true, "-": true}

// fieldRange reads "tables 1 to 5", "tavoli dal 1 al 5": the numeric field named right
// before N, and the range from N to M inclusive (a range word between them, nothing else).
func (r *reader) fieldRange(k int) bool {
	j, hi := r.prev(k, 1), k+2
	if j < 0 || hi >= len(r.items) || !rangeWords[r.items[k+1].word] || r.items[hi].num == nil || r.items[hi].used {
		return false
	}
	m := r.items[j].kind(mField)
	lo, top := r.items[k].num.num, r.items[hi].num.num
	if m == nil || !numeric(m) || lo >= top || r.items[k].num.percent || r.items[hi].num.percent {
		return false
	}
	r.items[j].used, r.items[k].used, r.items[k+1].used, r.items[hi].used = true, true, true, true
	r.q.Filters = append(r.q.Filters, semantic.Filter{Source: m.src.Name, Field: m.field, Op: data.OpBetween, Values: []any{lo, top}})
	return true
}

func (r *reader) fieldValue(k int) bool {
	j := r.prev(k, 1)
	var m *meaning
	if j >= 0 {
		m = r.items[j].kind(mField)
	}
	if nx := r.next(k, 1); m == nil && r.items[k].num.percent && nx >= 0 {
		if f := r.items[nx].kind(mField); f != nil && numeric(f) {
			m, j = f, nx
		}
	}
	if m == nil {
		return false
	}
	n := r.items[k].num
	switch typeOf(m.src, m.field) {
	case data.TypeDate, "":
		return false
	}
	v := fieldNumber(m, n.num)
	r.items[k].used, r.items[j].used = true, true
	if o := r.prev(j, 1); o >= 0 && j < k && numeric(m) && !r.items[o].used && len(r.items[o].ms) == 0 && comparisonGen(r.items[o].gen) {
		// "on or after study day 50", "over age 65": the comparison before the field
		r.items[o].used = true
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: m.src.Name, Field: m.field, Op: comparisons[r.items[o].gen], Values: []any{v}})
		return true
	}
	more := r.numberList(k, !n.percent)
	if len(more) == 0 {
		r.q.Filters = append(r.q.Filters, semantic.Filter{Source: m.src.Name, Field: m.field, Op: data.OpEquals, Values: []any{v}})
		return true
	}
	vals := []any{v}
	for _, x := range more {
		vals = append(vals, fieldNumber(m, r.items[x].num.num))
	}
	r.q.Filters = append(r.q.Filters, semantic.Filter{Source: m.src.Name, Field: m.field, Op: data.OpIn, Values: vals})
	return true
}

// withCount reads "con 6 pezzi", "orders with 3 pieces (on the same line)": after
// "with", a number followed by the word of an integer field in a unit of its own (pieces,
// years) is the field's value on the row; "6 pieces or more" is at least 6 ("6 or more
// pieces" is a threshold). A field without a unit (a table number) counts nothing, and
// the number stays for the other readings.
func (r *reader) withCount(k int) bool {
	p, nx := r.prev(k, 1), r.next(k, 1)
	n := r.items[k].num
	if p < 0 || !r.items[p].is(gWith) || nx < 0 || n.percent || n.num != float64(int(n.num)) {
		return false
	}
	f := r.items[nx].kind(mField)
	if f == nil || typeOf(f.src, f.field) != data.TypeInt || f.src.Decl.Fields[f.field].Unit == "" {
		return false
	}
	op := data.OpEquals
	if o := r.next(nx, 1); o >= 0 && (r.items[o].is(gGE) || r.items[o].is(gLE)) {
		op = comparisons[r.items[o].gen]
		r.items[o].used = true
	}
	r.items[k].used, r.items[nx].used = true, true
	r.q.Filters = append(r.q.Filters, semantic.Filter{Source: f.src.Name, Field: f.field, Op: op, Values: []any{fieldNumber(f, n.num)}})
	return true
}

// existsCount reads "3 or more AEs", "more than 2 AEs", "at least 2 events": the fact
// entity has that many rows in another source.
func (r *reader) existsCount(k int) bool {
	n := int(r.items[k].num.num)
	a, b := r.next(k, 1), r.next(k, 2)
	op := -1
	var rowsAt int
	switch {
	case a >= 0 && (r.items[a].is(gGE)) && b >= 0 && r.items[b].kind(mRows) != nil:
		op, rowsAt = n, b
	case r.prev(k, 1) >= 0 && r.items[r.prev(k, 1)].is(gGE) && a >= 0 && r.items[a].kind(mRows) != nil:
		op, rowsAt = n, a
	case r.prev(k, 1) >= 0 && r.items[r.prev(k, 1)].is(gGT) && a >= 0 && r.items[a].kind(mRows) != nil:
		op, rowsAt = n+1, a
	}
	if op < 0 || rowsAt == 0 {
		return false
	}
	rows := r.items[rowsAt].kind(mRows)
	if rows.src == r.fact {
		return false
	}
	r.items[k].used, r.items[rowsAt].used = true, true
	if j := r.prev(k, 1); j >= 0 {
		r.items[j].used = true
	}
	if a >= 0 {
		r.items[a].used = true
	}
	r.exists = append(r.exists, semantic.Exists{Source: rows.src.Name, Min: op})
	return true
}

// topN reads the N of "top 3", "i 2 piatti", "first 10". A percentage is never a count
// of items ("a 10% discount").
func (r *reader) topN(k int) bool {
	n := r.items[k].num
	if n.percent || n.num != float64(int(n.num)) || n.num < 1 || n.num > 1000 {
		return false
	}
	p := r.prev(k, 1)
	nx := r.next(k, 1)
	if p >= 0 && (r.items[p].is(gWith) || r.items[p].is(gNone)) {
		return false // "subjects with 2 AEs": how many each has, no top 2
	}
	top := p >= 0 && (r.items[p].is(gTop) || r.items[p].is(gShow))
	before := nx >= 0 && (r.items[nx].kind(mField) != nil || r.items[nx].kind(mRows) != nil || r.items[nx].is(gMost) || r.items[nx].is(gLeast) ||
		r.items[nx].is(gRecent) || r.items[nx].is(gOldest) || // "the 3 most recent declarations"
		r.items[nx].kind(mMax) != nil || r.items[nx].kind(mMin) != nil || r.superlativeRows() && (r.items[nx].is(gMax) || r.items[nx].is(gMin)))
	if !top && !before {
		return false
	}
	r.items[k].used = true
	if p >= 0 && r.items[p].is(gTop) {
		r.items[p].used = true
	}
	r.q.Limit, r.topCount = int(n.num), int(n.num)
	r.ranked = r.ranked || top || (nx >= 0 && (r.items[nx].is(gMost) || r.items[nx].is(gLeast) || r.items[nx].kind(mMax) != nil || r.items[nx].kind(mMin) != nil || r.items[nx].is(gMax) || r.items[nx].is(gMin)))
	return true
}

// growth reads "crescere del 50%", "grow by 50%".
func (r *reader) growth(k int) bool {
	p := r.prev(k, 1)
	if p < 0 || !r.items[p].is(gGrowth) || !r.items[k].num.percent {
		return false
	}
	g := r.items[k].num.num
	r.q.GrowthPercent = &g
	r.items[k].used, r.items[p].used = true, true
	return true
}

// presence reads "con uno sconto", "with a discount": a numeric field above zero; and its
// absence, "senza sconto", "with no discount", "had no discount at all": the field at zero.
func (r *reader) presence() {
	r.presentWords()
	for k, it := range r.items {
		m := it.kind(mField)
		if m == nil || it.used || !numeric(m) {
			continue
		}
		p := r.prev(k, 1)
		anyAt := -1
		if p >= 0 && r.items[p].is(gAny) && !r.items[p].used { // "without any discount", "had some discount"
			anyAt, p = p, r.prev(p, 1)
		}
		none := p >= 0 && r.items[p].is(gNone) && !r.items[p].used
		if p < 0 || !(r.items[p].is(gOne) || r.items[p].is(gWith) || none) {
			continue
		}
		if n := r.next(k, 1); n >= 0 && r.items[n].num != nil {
			continue
		}
		if pp := r.prev(p, 1); none && pp >= 0 && r.items[pp].kind(mMeasure) != nil && r.refinedBy(m.field) {
			// "fatturato senza sconti", "revenue without discounts": the revenue of the orders
			// without one, or the revenue before discounts — two readings, two numbers
			r.uncover("whether \"%s %s\" keeps the rows without %s or means the value before them", r.items[p].word, it.word, m.field)
			it.used, r.items[p].used = true, true
			continue
		}
		it.used = true
		if anyAt >= 0 {
			r.items[anyAt].used = true
		}
		zero := none
		if none {
			r.items[p].used = true
			if pp := r.prev(p, 1); pp >= 0 && !r.items[pp].used && (r.items[pp].is(gNot) || r.items[pp].is(gNone)) {
				r.items[pp].used = true // "non hanno avuto nessuno sconto": one negation, said twice
			}
		} else if x := r.excludedPresence(p); x >= 0 {
			r.items[x].used, zero = true, true
		}
		r.q.Filters = append(r.q.Filters, presence(m, zero))
	}
}

// refinedBy reports a field that a measure refining another is computed from
// (discount_percent of the net revenue): its absence may say the basis, not a condition.
func (r *reader) refinedBy(field string) bool {
	for name, md := range r.fact.Decl.Measures {
		if e, ok := r.fact.Dataset.Metric(name); ok && md.Refines != "" && usesField(e, field) {
			return true
		}
	}
	return false
}

// presence is the condition that a row has a numeric field (above zero), or, absent, has
// it at zero.
func presence(m *meaning, absent bool) semantic.Filter {
	f := semantic.Filter{Source: m.src.Name, Field: m.field, Op: data.OpGreaterThan, Values: []any{0.0}}
	if absent {
		f.Op = data.OpEquals
	}
	return f
}

// excludedPresence finds the exclusion of a presence whose "with" is item p: "escludendo
// quelli con uno sconto", "excluding those with a discount", "tranne gli ordini con
// sconto" leave out the rows with the field above zero, so they keep it at zero. Only an
// exclusion word counts, with at most the rows ("quelli", "those", "gli ordini") between
// it and the "with"; a verb's "not" is a condition of its own. It returns the exclusion's
// item, or -1.
func (r *reader) excludedPresence(p int) int {
	for q := r.prev(p, 1); q >= 0 && (r.items[q].is(gWith) || r.items[q].is(gOne)); q = r.prev(p, 1) {
		p = q
	}
	x := r.prev(p, 1)
	if x >= 0 && r.rowsOnly(r.items[x]) {
		x = r.prev(x, 1)
	}
	if x < 0 || !r.items[x].is(gNot) || r.items[x].used || verbNegations[r.items[x].word] {
		return -1
	}
	return x
}

// presentWords reads the words that say a row has a numeric field ("ordini scontati",
// "discounted orders", "tranne quelli scontati", "ordini non scontati"): the field above
// zero, or at zero after a negation. Only beside the rows or a pronoun for them: "prezzo
// scontato" is the price after the discount, no condition (leftovers refuse it).
func (r *reader) presentWords() {
	for k, it := range r.items {
		m := it.kind(mPresent)
		if m == nil || it.used || it.gen != 0 || !numeric(m) {
			continue
		}
		x := r.prev(k, 1)
		not := x >= 0 && r.items[x].is(gNot) && !r.items[x].used
		if !r.ofRows(k) && !(not && r.ofRows(x)) && !(k+1 < len(r.items) && r.rowsOnly(r.items[k+1])) {
			continue
		}
		it.used = true
		if not {
			r.items[x].used = true
		}
		r.q.Filters = append(r.q.Filters, presence(m, not))
	}
}

// rowPronouns stand for the rows right before a word that qualifies them: "quelli
// scontati", "those discounted", "the ones".
var rowPronouns = set("quelli", "quelle", "those", "ones")

// ofRows reports that item k follows the rows: a row noun or a pronoun for them.
func (r *reader) ofRows(k int) bool {
	if k == 0 {
		return false
	}
	if rowPronouns[r.items[k-1].word] {
		return true
	}
	p := r.prev(k, 1)
	return p >= 0 && r.rowsOnly(r.items[p])
}

// verbNegations negate a verb, not what follows: "not", "non".
var verbNegations = set("not", "non", "non e", "non sono")

// rowsOnly reports an item that names only the rows ("gli ordini", "orders").
func (r *reader) rowsOnly(it *item) bool {
	if len(it.ms) == 0 || it.gen != 0 {
		return false
	}
	for _, m := range it.ms {
		if m.kind != mRows {
			return false
		}
	}
	return true
}
