package nl

import (
	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// countEntityElsewhere moves the fact to the source of a dimension when the question
// counts an entity (patients) by a dimension of another source that carries the
// entity's key ("body system with the most patients"): there the count is of distinct keys.
func (r *reader) countEntityElsewhere() {
	if r.counted == nil || r.dim == nil || r.dim.Source == r.fact.Name {
		return
	}
	rows := r.counted.kind(mRows)
	ent := rows.src.RowEntity()
	other := r.p.v.model.Source(r.dim.Source)
	if ent == "" || rows.src != r.fact || other == nil || other.Entity(ent) == "" {
		return
	}
	r.fact = other
	r.entityKey = other.Entity(ent)
	r.entityUnit = rows.src.Decl.Rows.Unit
}

// readMeasures decides the values asked for: named measures; an aggregation of a field
// ("average age", "cheapest unit price"); a count of rows, of an entity's distinct keys,
// or of a dimension's distinct values; the amount of a value ("how many pizzas" are pieces);
// else, for a ranking or "how much", the source's default measure.
func (r *reader) readMeasures() {
	seen := map[string]bool{}
	for k, it := range r.items {
		m := it.kind(mMeasure)
		if m == nil || m.src != r.fact || r.rowValue[it] { // the value of each row a threshold names
			continue
		}
		if op, j := r.aggAroundUnranked(k); op != "" {
			if f := summedField(m); f != "" { // "highest value": of a declaration, not a total
				it.used, r.items[j].used = true, true
				r.addMeasure(semantic.Measure{Op: op, Field: f, Unit: r.fact.Decl.Measures[m.metric].Unit}, seen)
				continue
			}
		}
		it.used = true
		r.addMeasure(semantic.Measure{Metric: m.metric, Unit: r.fact.Decl.Measures[m.metric].Unit}, seen)
	}
	r.dropRefined()
	r.readBasis(seen)
	r.ratioOfMeasures()
	r.distinctOfAmount()
	r.moneyMeasure(seen)
	if len(r.q.Measures) == 0 {
		r.fieldMeasure(seen)
	}
	if len(r.q.Measures) == 0 {
		r.countMeasure(seen)
	}
	if len(r.q.Measures) == 0 {
		r.uncover("what to compute: the question names no measure, count or rows of this data")
	}
}

// dropRefined keeps, of a measure and one that refines it ("fatturato … al netto degli
// sconti"), the refined one: the qualifier says which revenue the question means. Joined
// to the other by "and" or "vs" ("fatturato e fatturato netto"), it asks for both.
func (r *reader) dropRefined() {
	refined := map[string]bool{}
	for k, it := range r.items {
		m := it.kind(mMeasure)
		if m == nil || m.src != r.fact || r.fact.Decl.Measures[m.metric].Refines == "" {
			continue
		}
		if j := r.prev(k, 1); j >= 0 && (r.items[j].is(gAnd) || r.items[j].is(gVs) || r.items[j].is(gCompare)) {
			continue
		}
		base := r.fact.Decl.Measures[m.metric].Refines
		refined[base] = true
		for _, q := range r.q.Measures {
			if q.Metric != "" && q.Metric != base && q.Metric != m.metric && r.computedFrom(q.Metric, base) {
				// "average ticket net of discount", "food cost % on the net revenue": a
				// measure on the refined basis, which the data does not declare
				r.uncover("%s on the %s: a measure this data does not declare", q.Metric, m.metric)
			}
		}
	}
	out := r.q.Measures[:0]
	for _, m := range r.q.Measures {
		if m.Metric == "" || !refined[m.Metric] {
			out = append(out, m)
		}
	}
	r.q.Measures = out
}

// readBasis reads the words that state a measure's own basis ("fatturato lordo", "ticket
// medio a prezzi pieni", "revenue before discounts"): joined to a measure by "and" or "vs"
// ("netto vs lordo") they ask for the measure; beside a measure that refines it (net
// revenue) they contradict it and stay uncovered; beside any other measure they frame it.
// With no measure they ask nothing and stay uncovered.
func (r *reader) readBasis(seen map[string]bool) {
	for k, it := range r.items {
		m := it.kind(mBasis)
		if m == nil || m.src != r.fact {
			continue
		}
		if j := r.prev(k, 1); j >= 0 && (r.items[j].is(gAnd) || r.items[j].is(gVs) || r.items[j].is(gCompare)) {
			it.used = true
			r.addMeasure(semantic.Measure{Metric: m.metric, Unit: r.fact.Decl.Measures[m.metric].Unit}, seen)
			continue
		}
		contradicted := len(r.q.Measures) == 0
		for _, q := range r.q.Measures {
			if q.Metric != "" && r.fact.Decl.Measures[q.Metric].Refines == m.metric {
				contradicted = true
			}
		}
		it.used = !contradicted
		if f := r.basisField(m.metric); f != "" && it.used {
			// "scontrino medio a prezzi pieni (senza sconti)": the orders without a discount,
			// or the prices before it — two readings, two numbers
			r.uncover("whether the condition on %s keeps only some rows or restates %q", f, it.word)
		}
	}
}

// basisField is a field the query keeps at zero that a measure refining metric is computed
// from (discount_percent, of the net revenue that refines the revenue), or "".
func (r *reader) basisField(metric string) string {
	for name, md := range r.fact.Decl.Measures {
		e, ok := r.fact.Dataset.Metric(name)
		if md.Refines != metric || !ok {
			continue
		}
		for _, f := range r.q.Filters { // "senza sconti": at zero, which "before discounts" also says
			if f.Source == r.fact.Name && f.Op == data.OpEquals && usesField(e, f.Field) {
				return f.Field
			}
		}
	}
	return ""
}

// ratioOfMeasures reads two measures with a percentage ("il food cost in percentuale sul
// fatturato", "food cost as a % of revenue") as the measure the layer declares as their
// ratio (food_cost_percent: food_cost / revenue * 100); with none declared, it is not
// covered — never the share of a period or a condition in the first measure.
func (r *reader) ratioOfMeasures() {
	k := r.find(gPercent)
	if k < 0 || r.items[k].used || len(r.q.Measures) != 2 || r.q.Measures[0].Metric == "" || r.q.Measures[1].Metric == "" {
		return
	}
	a, okA := r.fact.Dataset.Metric(r.q.Measures[0].Metric)
	b, okB := r.fact.Dataset.Metric(r.q.Measures[1].Metric)
	if !okA || !okB {
		return
	}
	r.items[k].used = true
	for _, name := range sortedKeys(r.fact.Decl.Measures) {
		if e, ok := r.fact.Dataset.Metric(name); ok && ratioOf(e, a, b) {
			r.q.Measures = []semantic.Measure{{Metric: name, Unit: r.fact.Decl.Measures[name].Unit}}
			return
		}
	}
	r.uncover("%s as a percentage of %s: a measure this data does not declare", r.q.Measures[0].Metric, r.q.Measures[1].Metric)
}

// ratioOf reports an expression that is a / b, or a / b * 100.
func ratioOf(e, a, b *data.Expr) bool {
	if e == nil || e.Kind != data.ExprBinary {
		return false
	}
	if e.Op == '/' {
		return sameExpr(e.Left, a) && sameExpr(e.Right, b)
	}
	if e.Op == '*' && e.Right != nil && e.Right.Kind == data.ExprNumber && e.Right.Value == 100 {
		return ratioOf(e.Left, a, b)
	}
	return false
}

// computedFrom reports a metric whose expression contains another metric's (ticket_medio,
// revenue / orders, is computed from revenue).
func (r *reader) computedFrom(metric, base string) bool {
	whole, ok := r.fact.Dataset.Metric(metric)
	part, found := r.fact.Dataset.Metric(base)
	return ok && found && hasSubExpr(whole, part)
}

// distinctOfAmount reads "quanti piatti diversi abbiamo venduto", "how many different dishes
// did we sell": the distinct dishes, which the sale verb only frames; the pieces sold (the
// field's amount, which the verb names) are not asked.
func (r *reader) distinctOfAmount() {
	if len(r.q.Measures) != 1 || r.q.Measures[0].Metric == "" || !r.has(gDistinct) || !r.has(gCount) || r.dim != nil {
		return
	}
	for _, it := range r.items {
		m := it.kind(mField)
		if m == nil || m.src != r.fact || it.used || r.fact.Decl.Fields[m.field].Amount != r.q.Measures[0].Metric {
			continue
		}
		it.used = true
		r.distinct = m.field
		r.q.Measures[0] = semantic.Measure{Op: data.AggCountDistinct, Field: m.field, Unit: r.fact.Decl.Fields[m.field].Counts}
		return
	}
}

func (r *reader) addMeasure(m semantic.Measure, seen map[string]bool) {
	key := m.Metric + "/" + m.Op + "/" + m.Field
	if seen[key] {
		return
	}
	seen[key] = true
	if m.Metric != "" { // sum(quantity) in the rows' units is an operation on the field
		if f := summedField(&meaning{src: r.fact, metric: m.Metric}); f != "" && r.fact.Decl.Fields[f].UnitField != "" {
			m.Metric, m.Op, m.Field = "", data.AggSum, f
		}
	}
	if m.Field != "" && (m.Op == data.AggSum || m.Op == data.AggAverage) {
		m.UnitField = r.fact.Decl.Fields[m.Field].UnitField
	}
	r.q.Measures = append(r.q.Measures, m)
}

// aggAroundUnranked is aggAround where the question ranks nothing: "which product has the
// lowest import value" ranks products by their total, it asks no single declaration's value.
func (r *reader) aggAroundUnranked(k int) (string, int) {
	if r.dim != nil {
		return "", -1
	}
	return r.aggAround(k)
}

// aggAround is the aggregation word right next to item k (average, max, min), if any, with
// its index; a row noun of the fact between them is skipped ("the largest transaction
// value", "average declaration value": the value of one row).
func (r *reader) aggAround(k int) (string, int) {
	before, after := r.prev(k, 1), r.next(k, 1)
	if before >= 0 && r.factRows(before) {
		before = r.prev(before, 1)
	}
	for _, j := range []int{before, after} {
		if j < 0 {
			continue
		}
		switch {
		case r.items[j].is(gAvg):
			return data.AggAverage, j
		case r.items[j].is(gMax):
			return data.AggMax, j
		case r.items[j].is(gMin):
			return data.AggMin, j
		}
	}
	return "", -1
}

// factRows reports that item k is a row noun of the fact and nothing else.
func (r *reader) factRows(k int) bool {
	m := r.items[k].kind(mRows)
	return m != nil && m.src == r.fact && len(r.items[k].ms) == 1 && r.items[k].gen == 0
}

// fieldMeasure reads an aggregation of a numeric field: average/total/max/min next to the
// field, or a field superlative (oldest → max age).
func (r *reader) fieldMeasure(seen map[string]bool) {
	for k, it := range r.items {
		var op string
		var m *meaning
		switch {
		case it.used:
		case it.kind(mMax) != nil && it.kind(mMax).src == r.fact:
			op, m = data.AggMax, it.kind(mMax)
		case it.kind(mMin) != nil && it.kind(mMin).src == r.fact:
			op, m = data.AggMin, it.kind(mMin)
		case aggGen(it.gen) && len(it.ms) == 0:
			m = r.nearField(k, 3)
			if m == nil && it.gen == gSum {
				m = r.measuredIn(k) // "total kilograms of frozen shrimp across all declarations": the quantity, in kg
			}
			op = map[gen]string{gAvg: data.AggAverage, gSum: data.AggSum, gMax: data.AggMax, gMin: data.AggMin, gMedian: semantic.OpMedian}[it.gen]
		}
		if m == nil || m.src != r.fact || !numeric(m) {
			continue
		}
		if len(it.ms) > 0 && r.averagedSuperlative(m) {
			op = data.AggAverage // "which site has the youngest patients on average": groups ranked by the average age
		}
		if (len(it.ms) > 0 || op == data.AggMax || op == data.AggMin) && r.countsFactRows() {
			r.uncover("the number of %s with the %s %s", r.fact.Decl.Rows.Unit, op, m.field) // "how many patients are the oldest"
			continue
		}
		if aggGen(it.gen) && len(it.ms) == 0 && seen["/"+op+"/"+m.field] {
			continue // a second "average" of a field already averaged: restated, or an average of averages (restatedAverage)
		}
		it.used = true
		r.markField(m)
		r.addMeasure(semantic.Measure{Op: op, Field: m.field, Unit: r.fact.Decl.Fields[m.field].Unit}, seen)
	}
	if len(r.q.Measures) == 0 && r.dim != nil && r.ranked {
		r.criterion(seen) // "top 3 importers by value", "per quantità"
	}
	if len(r.q.Measures) == 0 && !r.ranked && !r.anyOf(gCount, gDistinct, gPercent) {
		r.namedAmount(seen) // "quantity by category"
	}
	r.restatedAverage()
}

// namedAmount reads a numeric field named as what the question asks, with no aggregation
// word, as its total when a metric of the source sums it ("quantity by category",
// "smartphone qty by year"): the metric says that adding the field up is meaningful. A
// field no metric sums (a price, an age) is not added up, and two such fields are not
// guessed between.
func (r *reader) namedAmount(seen map[string]bool) {
	var found *meaning
	var metric string
	for _, it := range r.items {
		m := it.kind(mField)
		if m == nil || it.used || m.src != r.fact || !numeric(m) || len(it.ms) != 1 {
			continue
		}
		name := summingMetric(r.fact, m.field)
		if name == "" || found != nil && found.field != m.field {
			return
		}
		found, metric = m, name
	}
	if found == nil {
		return
	}
	r.markField(found)
	r.addMeasure(semantic.Measure{Metric: metric, Unit: r.fact.Decl.Fields[found.field].Unit}, seen)
}

// summingMetric is the name of a metric of the source that is exactly the sum of field, or "".
func summingMetric(s *semantic.Source, field string) string {
	for _, mt := range s.Schema().Metrics {
		if summedField(&meaning{src: s, metric: mt.Name}) == field {
			return mt.Name
		}
	}
	return ""
}

// plainWords qualify an average as the plain mean of the rows' values.
var plainWords = []string{"plain", "simple", "straight", "unweighted", "arithmetic", "semplice", "aritmetica"}

// restatedAverage reads a second average word that restates the one average of a field the
// query computes ("the avg unit price ... just the plain average across its declarations"):
// qualified as plain, or an average across the rows. Any other second average stays unread
// (an average of averages is not computed).
func (r *reader) restatedAverage() {
	if len(r.q.Measures) != 1 || r.q.Measures[0].Op != data.AggAverage || r.q.Measures[0].Field == "" {
		return
	}
	for k, it := range r.items {
		if it.used || !it.is(gAvg) {
			continue
		}
		plain := it.i > 0 && contains(plainWords, r.ts[it.i-1].w) || it.j < len(r.ts) && contains(plainWords, r.ts[it.j].w) // "media semplice"
		by := r.next(k, 1)
		across := by >= 0 && r.items[by].is(gBy) && r.next(by, 1) >= 0 && r.factRows(r.next(by, 1))
		if plain || across {
			it.used = true
		}
	}
}

// markField marks the items naming a field as used.
func (r *reader) markField(m *meaning) {
	for _, it := range r.items {
		if f := it.kind(mField); f != nil && f.src == m.src && f.field == m.field {
			it.used = true
		}
	}
}

// criterion reads the numeric field a ranking is by: "by quantity" ranks by its total, and
// so does "the largest quantity" when a measure of the layer sums the field (a quantity adds
// up per group; "the highest unit price" per importer is no total, and stays unread).
func (r *reader) criterion(seen map[string]bool) {
	for k, it := range r.items {
		if rankWord(it) {
			if j := r.skipGen(k, gSum); j >= 0 {
				if m := r.items[j].kind(mField); m != nil && m.src == r.fact && numeric(m) && summed(m.src, m.field) {
					r.items[j].used, it.used = true, true
					r.addMeasure(semantic.Measure{Op: data.AggSum, Field: m.field, Unit: r.fact.Decl.Fields[m.field].Unit}, seen)
					return
				}
			}
		}
		if !it.is(gBy) {
			continue
		}
		if j := r.next(k, 1); j >= 0 {
			if m := r.items[j].kind(mField); m != nil && m.src == r.fact && numeric(m) {
				r.items[j].used, it.used = true, true
				r.addMeasure(semantic.Measure{Op: data.AggSum, Field: m.field, Unit: r.fact.Decl.Fields[m.field].Unit}, seen)
				return
			}
		}
	}
}

// countMeasure reads what is counted: rows, an entity's distinct keys, a dimension's
// distinct values, the amount of a value, or the default measure.
func (r *reader) countMeasure(seen map[string]bool) {
	d := r.fact.Decl
	most := r.mostDimension()
	distinct := ""
	if r.has(gDistinct) {
		distinct = r.distinctDim() // "how many different dishes were ordered": dishes, not orders
	}
	switch {
	case distinct != "":
		r.addMeasure(semantic.Measure{Op: data.AggCountDistinct, Field: distinct, Unit: d.Fields[distinct].Counts}, seen)
	case r.entityKey != "":
		r.addMeasure(semantic.Measure{Op: data.AggCountDistinct, Field: r.entityKey, Unit: r.entityUnit}, seen)
	case r.amountValue() != "":
		r.addMeasure(semantic.Measure{Metric: r.amountValue(), Unit: d.Measures[r.amountValue()].Unit}, seen)
	case r.unitValue() != "":
		f := r.unitValue()
		r.addMeasure(semantic.Measure{Op: data.AggSum, Field: f, Unit: d.Fields[f].Unit}, seen)
	case r.counted != nil && r.counted.kind(mRows).src == r.fact, r.counted == nil && r.timesAsked():
		r.addMeasure(semantic.Measure{Op: data.AggCount, Unit: d.Rows.Unit}, seen)
	case r.counted != nil:
		rows := r.counted.kind(mRows)
		if key := r.fact.Entity(rows.src.RowEntity()); key != "" {
			r.addMeasure(semantic.Measure{Op: data.AggCountDistinct, Field: key, Unit: rows.src.Decl.Rows.Unit}, seen)
		}
	case most != "": // "imports from the most countries": distinct countries per group
		r.addMeasure(semantic.Measure{Op: data.AggCountDistinct, Field: most, Unit: d.Fields[most].Counts}, seen)
	case r.has(gFrequent) || r.ranked && r.useVerb(): // how often, "used the least": a count of rows, whatever the default measure
		r.addMeasure(semantic.Measure{Op: data.AggCount, Unit: d.Rows.Unit}, seen)
	case r.distinctDim() != "":
		f := r.distinct
		r.addMeasure(semantic.Measure{Op: data.AggCountDistinct, Field: f, Unit: d.Fields[f].Counts}, seen)
	case d.DefaultMeasure != "" && (r.ranked || r.has(gHowMuch)):
		r.addMeasure(semantic.Measure{Metric: d.DefaultMeasure, Unit: d.Measures[d.DefaultMeasure].Unit}, seen)
	case r.has(gCount) || r.has(gSize) || r.ranked || r.has(gPercent) || r.q.Compare != nil || len(r.q.Filters) > 0 || len(r.q.Time) > 0 || r.dim != nil:
		r.addMeasure(semantic.Measure{Op: data.AggCount, Unit: d.Rows.Unit}, seen)
	}
}

// useVerb reports a verb of use or choice in the question ("which payment method was used
// the least"): a ranking by it is by how often, a count of rows.
func (r *reader) useVerb() bool {
	for _, t := range r.ts {
		if useVerbs[t.w] {
			return true
		}
	}
	return false
}

var useVerbs = set("used", "use", "usato", "usata", "usati", "usate", "utilizzato", "utilizzata", "utilizzati", "utilizzate",
	"chosen", "scelto", "scelta", "scelti", "requested", "richiesto", "richiesta", "richiesti")

// mostDimension is the dimension counted in "the most <dimension>" when the question
// ranks another dimension by it.
func (r *reader) mostDimension() string {
	if r.dim == nil {
		return ""
	}
	for k, it := range r.items {
		if !(it.is(gMost) || it.is(gLeast)) {
			continue
		}
		if n := r.skipGen(k, gDistinct); n >= 0 { // "the most (different) countries"
			if m := r.items[n].kind(mField); m != nil && m.src == r.fact && !numeric(m) && m.field != r.dim.Field && !r.items[n].used {
				r.items[n].used = true
				return m.field
			}
		}
	}
	return ""
}

// amountValue is the measure a named value is counted in ("quante pizze" are pieces), when
// the question counts and names no row noun.
func (r *reader) amountValue() string {
	if r.counted != nil || !(r.has(gCount) || r.has(gHowMuch) || r.has(gMost)) {
		return ""
	}
	for _, f := range r.q.Filters {
		if f.Source == r.fact.Name {
			if a := r.fact.Decl.Fields[f.Field].Amount; a != "" {
				return a
			}
		}
	}
	return ""
}

// unitValue is the field measured in a unit the question names ("how much steel (kg)"),
// when the question counts no row noun ("how many shipments in kg" counts shipments).
func (r *reader) unitValue() string {
	if r.counted != nil {
		return ""
	}
	for _, f := range r.q.Filters {
		for name, fd := range r.fact.Decl.Fields {
			if fd.UnitField != "" && fd.UnitField == f.Field && f.Source == r.fact.Name {
				return name
			}
		}
	}
	return ""
}

// distinctDim is the dimension "how many different importers" counts.
func (r *reader) distinctDim() string {
	if r.distinct == "" && r.dim != nil {
		return r.distinctPerGroup()
	}
	if r.distinct != "" || !(r.has(gCount) || r.has(gDistinct)) || r.dim != nil {
		return r.distinct
	}
	for _, it := range r.items {
		if m := it.kind(mField); m != nil && m.src == r.fact && !it.used && (!numeric(m) || r.fact.Decl.Fields[m.field].Counts != "") {
			it.used = true // a number is counted distinct only where the layer says what it counts (tables)
			r.distinct = m.field
			return m.field
		}
	}
	return ""
}

// rankWord reports a word that ranks by what follows it: most, least, largest, smallest.
func rankWord(it *item) bool {
	return it.is(gMost) || it.is(gLeast) || it.is(gMax) || it.is(gMin)
}

// skipGen is the item after k, skipping one word of the given meaning ("the largest total
// quantity"), or -1.
func (r *reader) skipGen(k int, g gen) int {
	j := r.next(k, 1)
	if j >= 0 && r.items[j].is(g) {
		j = r.next(j, 1)
	}
	return j
}

// summed reports a field that a metric of the source sums: its values add up.
func summed(src *semantic.Source, field string) bool {
	for _, m := range src.Schema().Metrics {
		if summedField(&meaning{src: src, metric: m.Name}) == field {
			return true
		}
	}
	return false
}

// moneyMeasure reads "money", "soldi": the measure in a currency the question names, or
// else the source's default measure when that is in a currency. Where neither is, the
// word stays unread (leftovers): money the data does not record.
func (r *reader) moneyMeasure(seen map[string]bool) {
	k := r.find(gMoney)
	if k < 0 {
		return
	}
	d := r.fact.Decl
	if len(r.q.Measures) == 0 && d.DefaultMeasure != "" && currency(d.Measures[d.DefaultMeasure].Unit) {
		r.addMeasure(semantic.Measure{Metric: d.DefaultMeasure, Unit: d.Measures[d.DefaultMeasure].Unit}, seen)
	}
	for _, m := range r.q.Measures {
		if currency(m.Unit) {
			r.items[k].used = true
		}
	}
}

// currency reports a unit that is money: an ISO 4217 code (EUR, USD) or a currency sign.
func currency(unit string) bool {
	switch unit {
	case "€", "$", "£", "¥":
		return true
	}
	if len(unit) != 3 {
		return false
	}
	for _, c := range unit {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// timesWords count occurrences: rows, never the distinct values of a field named beside
// them ("quante volte è venuto il cliente CUST-102" is not one customer).
var timesWords = set("how many times", "quante volte", "how often")

// timesAsked reports a counting word that counts times.
func (r *reader) timesAsked() bool {
	for _, it := range r.items {
		if it.is(gCount) && timesWords[it.word] {
			return true
		}
	}
	return false
}
