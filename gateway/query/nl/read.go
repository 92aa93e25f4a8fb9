package nl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// reader is the state of one question being read.
type reader struct {
	p     *Parser
	ts    []token
	items []*item
	now   time.Time
	q     *semantic.Query

	fact *semantic.Source
	// counted is the row noun the question counts or lists, if any.
	counted *item
	// dim is the dimension the question groups or ranks by.
	dim *semantic.Dimension
	// ranked reports a ranking (most, top N, which X ... most); rankDesc its direction.
	ranked, rankDesc bool
	// exists collects the other sources' row nouns the fact rows must (not) have rows in.
	exists []semantic.Exists
	// listing reports that the question asks for rows.
	listing bool
	// entityKey, when the question counts an entity in a source that carries its key, is
	// that key (counted distinct), with the entity's unit.
	entityKey, entityUnit string
	// distinct is the dimension whose distinct values are counted.
	distinct string
	// perRow reports "per order": an average per row of the fact.
	perRow bool
	// perEntity is the item of "per subject", "each subject": a row noun of another source
	// whose rows are an entity of the fact's (or nil).
	perEntity *item
	// topN is the N of "top N", "the 5 most ...", when the question names one.
	topCount int
	// rowValue are measure words a threshold reads as each row's value ("declarations with
	// a total value of more than 500,000"): no measure of their own.
	rowValue map[*item]bool
	// having is a threshold on a measure's total per group, read before the grouping.
	having *pendingHaving
	// groupCount is a threshold on each entity's number of rows ("customers who placed at
	// least 5 orders"): the field it counts by (entityRows).
	groupCount *pendingGroupCount
}

func (r *reader) has(g gen) bool {
	for _, it := range r.items {
		if it.is(g) || (it.gen == g && it.gen != 0) {
			return true
		}
	}
	return false
}

func (r *reader) find(g gen) int {
	for k, it := range r.items {
		if it.gen == g {
			return k
		}
	}
	return -1
}

// sameFieldTwice refuses two different sets of values for one field named in two places
// ("drug-related AEs (related or possibly related)"): all conditions are joined by AND, so
// the query would keep only what both name — the narrower reading, which the question may
// well not mean. The same set twice is one condition.
func (r *reader) sameFieldTwice() {
	var out []semantic.Filter
	for _, f := range r.q.Filters {
		dup := false
		for _, g := range out {
			if g.Source == f.Source && g.Field == f.Field && g.Op == f.Op && sameValues(g.Values, f.Values) {
				dup = true // "within the first 14 days, i.e. on study day 14 or earlier": one condition, said twice
				continue
			}
			if g.Source != f.Source || g.Field != f.Field || !valueOp(f.Op) || !valueOp(g.Op) {
				continue
			}
			if sameValues(g.Values, f.Values) {
				dup = true
				continue
			}
			if g.Op == f.Op && subsetValues(g.Values, f.Values) {
				// "drug-related AEs … with a RELATED or POSSIBLY RELATED event": the values listed
				// later spell out what the word before meant; the narrower reading is dropped
				r.note(fmt.Sprintf("%s read as %s, the values the question lists", f.Field, valuesText(f.Values)))
				for i := range out {
					if out[i].Source == g.Source && out[i].Field == g.Field && sameValues(out[i].Values, g.Values) {
						out[i] = f
					}
				}
				dup = true
				continue
			}
			r.uncover("two different conditions on %s (%s; %s): which one the question means", f.Field, valuesText(g.Values), valuesText(f.Values))
		}
		if !dup {
			out = append(out, f)
		}
	}
	r.q.Filters = out
}

// valueOp reports a condition that keeps the rows with given values. Two of them on one
// field narrow each other; an exclusion beside one ("pizze, esclusi i vini") refines it.
func valueOp(op string) bool {
	return op == data.OpIn || op == data.OpEquals
}

func sameValues(a, b []any) bool { return len(a) == len(b) && allIn(a, b) }

// subsetValues reports that every value of a is in b (and b has more).
func subsetValues(a, b []any) bool { return len(a) < len(b) && allIn(a, b) }

// allIn reports that every value of a is one of b.
func allIn(a, b []any) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || fmt.Sprint(x) == fmt.Sprint(y)
		}
		if !found {
			return false
		}
	}
	return true
}

func valuesText(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// leavingAside reads "leaving IT aside", "lasciando da parte gli uffici": an exclusion of
// what stands between. "leaving" alone is not one ("goods leaving the United States").
func (r *reader) leavingAside() {
	for k, it := range r.items {
		if it.gen != 0 || len(it.ms) > 0 || (it.word != "leaving" && it.word != "lasciando") {
			continue
		}
		for j := k + 1; j < len(r.items) && j <= k+5; j++ {
			if w := r.items[j].word; w == "aside" || w == "da parte" {
				it.gen = gNot
				break
			}
		}
	}
}

// uncover records a part of the question the query does not express.
func (r *reader) uncover(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, u := range r.q.Uncovered {
		if u == msg {
			return
		}
	}
	r.q.Uncovered = append(r.q.Uncovered, msg)
}

func (r *reader) note(msg string) {
	if msg != "" && !contains(r.q.Notes, msg) {
		r.q.Notes = append(r.q.Notes, msg)
	}
}

// read interprets the items.
// Parts it cannot read are listed in Uncovered; the rest is still read, so that the
// conditions it names can select the rows a model is given.
func (r *reader) read() {
	r.leavingAside()
	r.textConditions()
	r.readText()
	r.unknownWords()
	r.unitNegations()
	r.readRegardless()
	r.restatements()
	r.chooseFact()
	if r.fact == nil {
		r.uncover("the question names nothing this data records")
		return
	}
	for _, f := range r.q.Filters {
		if f.Source != r.fact.Name {
			r.uncover("a search of the text of %s, while the question computes on %s", f.Source, r.fact.Name)
		}
	}
	r.q.Source = r.fact.Name
	r.orderedValues()
	r.readValues()
	r.sameFieldTwice()
	r.readNumbers()
	r.entityRepeat()
	r.sameFieldTwice() // "site 101 and site 102": two values of one field, each read on its own
	r.readTimes()
	r.readWeekdays()
	if len(r.q.Uncovered) > 0 {
		return
	}
	r.readShape()
	r.leftovers()
}

// unknownWords lists the words no vocabulary knows, and the parts of a question that ask
// for a forecast or advice, which no past data answers.
func (r *reader) unknownWords() {
	var words []string
	for _, it := range r.items {
		switch {
		case it.used: // words a text search looks for
		case it.date != nil || it.num != nil || it.gen != 0 || len(it.ms) > 0:
		case it.word != "" && it.word != "%":
			words = append(words, it.word)
		}
		switch it.gen {
		case gFuture:
			if len(it.ms) == 0 { // "type of project": a field's word, not a projection
				r.uncover("%q asks about the future; the data records the past only", it.word)
			}
		case gAdvice:
			if len(it.ms) == 0 {
				r.uncover("%q asks for advice, which is not in the data", it.word)
			}
		case gWhy:
			if len(it.ms) == 0 {
				r.uncover("%q asks for an explanation or an analysis, which the data alone does not give", it.word)
			}
		case gUnsupported:
			r.uncover("%q is a statistic this query does not compute", it.word)
		}
	}
	if len(words) > 0 {
		msg := "the data has nothing called " + quoteList(words)
		if near := r.p.v.closest(words); len(near) > 0 {
			msg += " (closest: " + strings.Join(near, ", ") + ")"
		}
		r.uncover("%s", msg)
	}
}

func quoteList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, ", ")
}

// chooseFact picks the source the question computes on: that of a named measure, of a
// field an aggregation applies to, or of the row noun it counts or lists. Counting an
// entity (patients) grouped by a dimension of another source that carries the entity's key
// computes there, as distinct keys.
func (r *reader) chooseFact() {
	for _, it := range r.items {
		if m := it.kind(mMeasure); m != nil {
			r.fact = m.src
			return
		}
	}
	if f := r.operandField(); f != nil {
		r.fact = f.src
		return
	}
	r.counted = r.countedRows()
	if r.counted != nil {
		r.fact = r.counted.kind(mRows).src
		return
	}
	for _, it := range r.items {
		for _, m := range it.ms {
			if m.kind == mValue || m.kind == mField {
				r.fact = m.src
				return
			}
		}
	}
	if len(r.p.v.model.Sources) == 1 {
		r.fact = r.p.v.model.Sources[0]
	}
}

// operandField is the numeric field an aggregation word applies to ("average age",
// "highest unit price", "cheapest").
func (r *reader) operandField() *meaning {
	for k, it := range r.items {
		if it.used {
			continue
		}
		if m := it.kind(mMax); m != nil {
			return m
		}
		if m := it.kind(mMin); m != nil {
			return m
		}
		if !aggGen(it.gen) || len(it.ms) > 0 {
			continue
		}
		if m := r.nearField(k, 3); m != nil {
			return m
		}
		if it.gen != gSum && r.fact != nil { // "the biggest value": the field a measure sums
			if m := r.summedNear(k); m != nil {
				return m
			}
		}
	}
	return nil
}

func aggGen(g gen) bool { return g == gAvg || g == gSum || g == gMax || g == gMin || g == gMedian }

// nearField is a numeric field within n items of k (either side), fillers aside.
func (r *reader) nearField(k, n int) *meaning {
	for d := 1; d <= n; d++ {
		for _, j := range []int{r.next(k, d), r.prev(k, d)} {
			if j < 0 {
				continue
			}
			if m := r.items[j].kind(mField); m != nil && numeric(m) {
				return m
			}
		}
	}
	return nil
}

func numeric(m *meaning) bool {
	f := m.src.Field(m.field)
	return f != nil && f.Type.Numeric()
}

// countedRows is the row noun the question counts: the first after a counting word, else
// the first (the head noun of "AE count", "severe AEs in female patients - how many?");
// never a row noun the counted rows must have (relatedRows).
func (r *reader) countedRows() *item {
	k := r.find(gCount)
	if k < 0 {
		k = r.find(gHowMuch)
	}
	if k >= 0 && r.amountCounted(k) {
		return nil // "how many LED TVs in total on declarations …": the pieces, not the declarations
	}
	var first *item
	for j, it := range r.items {
		if it.kind(mRows) == nil || r.relatedRows(j) {
			continue
		}
		if first == nil {
			first = it
		}
		if k >= 0 && j > k {
			return it
		}
	}
	return first // "AE count", "severe AEs in female patients - how many?": the head noun
}

// readRegardless reads "a prescindere dalla severità e dallo stato", "regardless of
// status": the fields named after it (joined by "and", fillers aside) are no condition.
// A value after it is no such field, and the word stays unread.
func (r *reader) readRegardless() {
	for k, it := range r.items {
		if !it.is(gRegardless) {
			continue
		}
		fields := 0
		for j := k + 1; j < len(r.items); j++ {
			x := r.items[j]
			if x.is(gFiller) || x.is(gAnd) || x.is(gOr) {
				continue
			}
			if x.kind(mField) == nil || x.kind(mValue) != nil {
				break
			}
			x.used = true
			fields++
		}
		it.used = fields > 0
	}
}

// relatedRows reports a row noun the counted rows must have, never what is counted: after
// "at least one" ("men vs women - how many of each had at least one AE?"), or after a
// relating word ("who had any", "with an", "che hanno avuto") that follows another row noun
// ("female patients in the low dose arm who had any adverse event - how many?").
func (r *reader) relatedRows(j int) bool {
	p := r.prev(j, 1)
	for p >= 0 && r.items[p].kind(mValue) != nil && r.items[p].kind(mRows) == nil { // "at least one severe AE"
		p = r.prev(p, 1)
	}
	if p >= 0 && r.items[p].is(gOne) {
		if pp := r.prev(p, 1); pp >= 0 && r.items[pp].is(gGE) {
			return true
		}
	}
	if p >= 0 && (r.items[p].is(gAny) || r.items[p].is(gOne)) { // "who had any AE", "che hanno avuto un evento"
		p = r.prev(p, 1)
	}
	if p < 0 || !r.items[p].is(gWith) {
		return false
	}
	for q := p - 1; q >= 0; q-- {
		if r.items[q].kind(mRows) != nil {
			return r.items[q].kind(mRows).src != r.items[j].kind(mRows).src
		}
	}
	return false
}

// amountCounted reports a counting word followed by a value counted in pieces (a field
// that declares its amount: goods, dishes) that is not part of a row noun after it: "how
// many LED TVs (in total) on declarations of Germany" counts the TVs; "how many LED TV
// declarations" counts the declarations.
func (r *reader) amountCounted(k int) bool {
	v := r.next(k, 1)
	if v < 0 {
		return false
	}
	m := r.items[v].kind(mValue)
	if m == nil || len(r.items[v].ms) != 1 || m.src.Decl.Fields[m.field].Amount == "" {
		return false
	}
	return v+1 >= len(r.items) || r.items[v+1].kind(mRows) == nil // the very next word: "LED TV declarations"
}

// joinable reports whether a source can filter the fact source (they share an entity).
func (r *reader) joinable(s *semantic.Source) bool {
	if s == r.fact {
		return true
	}
	for name := range r.fact.Decl.Entities {
		if s.Entity(name) != "" {
			return true
		}
	}
	return false
}

// pick chooses a value item's reading: a source that can filter the fact, the value's
// word earliest in the value, the field declared first; every value of that field the
// item names.
func (r *reader) pick(it *item) *meaning {
	var cands []meaning
	for _, m := range it.ms {
		if m.kind == mValue && r.joinable(m.src) {
			cands = append(cands, m)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.pos != b.pos {
			return a.pos < b.pos
		}
		if (a.src == r.fact) != (b.src == r.fact) {
			return a.src == r.fact
		}
		return a.order < b.order
	})
	best := cands[0]
	best.values = append([]string(nil), best.values...)
	for _, m := range cands[1:] {
		if m.src == best.src && m.field == best.field {
			for _, v := range m.values {
				if !contains(best.values, v) {
					best.values = append(best.values, v)
				}
			}
		}
	}
	return &best
}

// leftovers lists what the question asked that no part of the query uses.
func (r *reader) leftovers() {
	for k, it := range r.items {
		if it.used || r.actorWith(k) {
			continue
		}
		switch {
		case it.num != nil:
			r.uncover("what %s refers to", it.num.orig)
		case it.kind(mValue) != nil && len(it.ms) > 0 && it.gen == 0:
			r.uncover("the condition %q", it.word)
		case it.kind(mBasis) != nil && it.gen == 0 && len(r.q.Measures) == 0:
			r.uncover("what %q qualifies: the question names no measure", it.word)
		case it.kind(mBasis) != nil && it.gen == 0:
			r.uncover("%q with a measure that is not on that basis", it.word) // "fatturato netto … lordo"
		case it.kind(mPresent) != nil && it.gen == 0:
			r.uncover("what %q refers to", it.word) // "prezzo scontato": the price after the discount, not the rows with one
		case len(it.ms) == 0 && (it.gen == gAvg || it.gen == gMax || it.gen == gMin || it.gen == gMedian):
			r.uncover("%q of something this query does not compute", it.word)
		case r.q.Rows && r.keyOfRows(it):
			r.note(fmt.Sprintf("the rows are listed whole; %s is one of their columns", r.fact.Decl.Rows.Key)) // "just give me the order ids"
		case r.looseField(it):
			r.uncover("what %q refers to", it.word)
		case it.kind(mRows) != nil && len(it.ms) == 1 && it.kind(mRows).src != r.fact && it != r.counted && !r.relatesTo(it.kind(mRows).src.Name):
			r.uncover("what %q refers to", it.word) // "per randomized subject" read as per randomization day
		case len(it.ms) == 0 && (it.gen == gStarts):
			r.uncover("a text condition (%q) without a field named before it and a quoted text after it", it.word)
		case len(it.ms) == 0 && it.gen == gChange && (r.q.Compare == nil || r.dim != nil):
			r.uncover("a change (%q) that is not between two periods or values the question names", it.word)
		case len(it.ms) == 0 && it.gen == gVs && r.q.Compare == nil:
			r.uncover("a comparison (%q) whose two sides are not both in the data", it.word)
		case len(it.ms) == 0 && (it.gen == gMost || it.gen == gLeast) && r.q.Rows:
			r.uncover("%q: a ranking this listing does not make", it.word)
		case len(it.ms) == 0 && (it.gen == gMost || it.gen == gLeast || it.gen == gTop || it.gen == gRank || it.gen == gFrequent && mostWord(it.word)) && r.q.Order == nil && r.q.Compare == nil && r.q.Limit == 0 && r.q.GroupBy == nil:
			r.uncover("%q: a ranking this query does not make", it.word) // "the best day" answered with the total
		case len(it.ms) == 0 && it.word == "data" && k > 0 && r.items[k-1].kind(mRows) != nil:
			// "in the AE data", "the orders data": the dataset of those rows (Italian "data" is a date)
		case len(it.ms) == 0 && it.gen == gGrain && r.unitIs(grains[it.word]):
			// "treatment duration in days", "(days)": the unit of what is computed
		case len(it.ms) == 0 && (it.gen == gGrain || it.gen == gGrainBy) && !r.byTime():
			r.uncover("what %q refers to", it.word)
		case len(it.ms) == 0 && it.gen == gWithin && r.next(k, 1) >= 0 && r.items[r.next(k, 1)].kind(mValue) != nil && r.items[r.next(k, 1)].used:
			// "within nervous system disorders": among the rows of that value, its condition
		case len(it.ms) == 0 && (it.gen == gAfter || it.gen == gBefore || it.gen == gWithin):
			r.uncover("what %q refers to", it.word)
		case len(it.ms) == 0 && it.gen == gGE && r.next(k, 1) >= 0 && r.items[r.next(k, 1)].is(gOne):
			// "at least one AE", "almeno un evento": the existence the relation reads
		case len(it.ms) == 0 && (it.gen == gGE || it.gen == gLE || it.gen == gGT || it.gen == gLT):
			r.uncover("a comparison (%q) this query does not apply", it.word) // "how many AEs does a patient have at most"
		case len(it.ms) == 0 && (it.gen == gNot || it.gen == gNone):
			r.uncover("a negation (%q) this query does not apply", it.word)
		case len(it.ms) == 0 && it.gen == gRepeat:
			r.uncover("%q of what: no field counts it", it.word)
		case len(it.ms) == 0 && it.gen == gRegardless:
			r.uncover("what %q leaves aside: no field follows it", it.word)
		case len(it.ms) == 0 && it.gen == gArith:
			r.uncover("an arithmetic (%q) this query does not compute", it.word)
		case len(it.ms) == 0 && it.gen == gRestate:
			r.uncover("what follows %q: a restatement that names more than the measure before it", it.word)
		case len(it.ms) == 0 && it.gen == gMoney:
			r.uncover("what %q refers to: no measure in money", it.word)
		case len(it.ms) == 0 && it.gen == gSpend && !r.measureNamed():
			r.uncover("what %q refers to: the question names no cost", it.word)
		case len(it.ms) == 0 && it.gen == gMention:
			r.uncover("what %q asks to find in the text", it.word)
		}
	}
}

// actorWith reports the actor's word ("importers") framing a condition on another field of
// the rows counted: "declarations from importers with a Seoul address" are the declarations
// with that address. Only where a row noun is what is counted: "how many importers with a
// Seoul address" counts the importers.
func (r *reader) actorWith(k int) bool {
	m := r.items[k].kind(mField)
	if m == nil || m.src != r.fact || m.field != r.fact.Decl.Actor || len(r.items[k].ms) != 1 || r.counted == nil && !r.notOfActor(m.field) {
		return false
	}
	w := r.next(k, 1)
	if w < 0 || !r.items[w].is(gWith) {
		return false
	}
	other := false
	for _, f := range r.q.Filters { // a row's own text or value; a threshold may be the importer's total
		if typeOf(r.fact, f.Field).Numeric() {
			return false
		}
		other = other || f.Source == r.fact.Name && f.Field != m.field
	}
	return other
}

// notOfActor reports a query whose measures are the rows' own ("how much did companies
// with a Seoul address import": the value of their declarations): none counts the actors,
// none is grouped, ranked or averaged by them.
func (r *reader) notOfActor(actor string) bool {
	if len(r.q.Measures) == 0 || r.q.Rows || r.q.Order != nil {
		return false
	}
	for _, m := range r.q.Measures {
		if m.Field == actor {
			return false
		}
	}
	for _, d := range []*semantic.Dimension{r.q.GroupBy, r.q.AveragePer, r.q.Without} {
		if d != nil && d.Field == actor {
			return false
		}
	}
	return true
}

// keyOfRows reports a word naming the field that identifies the fact's rows.
func (r *reader) keyOfRows(it *item) bool {
	m := it.kind(mField)
	return m != nil && m.src == r.fact && m.field != "" && m.field == r.fact.Decl.Rows.Key
}

// mostWord reports a superlative of frequency ("most often", "più spesso"), not a verb of
// use ("used", "chosen") that the same meaning groups.
func mostWord(w string) bool {
	w = " " + w + " "
	return strings.Contains(w, " most ") || strings.Contains(w, " piu ") // "most used", "used the most", "usato di piu"
}

// relatesTo reports that the query uses rows of src: a condition, a relation, a grouping.
func (r *reader) relatesTo(src string) bool {
	if r.filtersOn(src) || r.existsOn(src) || r.dimOn(src) {
		return true
	}
	for _, e := range r.q.Exists {
		if e.Source == src {
			return true
		}
	}
	return false
}

// unitIs reports that a measure of the query is counted in the grain's unit (days).
func (r *reader) unitIs(grain string) bool {
	for _, m := range r.q.Measures {
		if u := data.Fold(m.Unit); u == grain || u == grain+"s" {
			return true
		}
	}
	return false
}

// byTime reports that the query uses time: a period, a grouping, or a comparison of periods.
func (r *reader) byTime() bool {
	if len(r.q.Time) > 0 || r.q.GroupBy != nil && r.q.GroupBy.Grain != "" || r.q.AveragePer != nil && r.q.AveragePer.Grain != "" {
		return true
	}
	if r.q.Compare != nil {
		for _, s := range r.q.Compare.Sides {
			if len(s.Time) > 0 {
				return true
			}
		}
	}
	return false
}

// looseField reports a field word the query does not use at all — no condition, no
// grouping, no comparison, no measure on its field ("the most countries" ranked by value,
// "how much … in discounts" answered with revenue, would drop it).
func (r *reader) looseField(it *item) bool {
	m := it.kind(mField)
	if m == nil || it.used || len(it.ms) != 1 || typeOf(m.src, m.field) == data.TypeDate {
		return false
	}
	for _, f := range r.q.Filters {
		if f.Field == m.field {
			return false
		}
	}
	if r.q.Compare != nil {
		for _, s := range r.q.Compare.Sides {
			for _, f := range s.Filters {
				if f.Field == m.field {
					return false
				}
			}
		}
	}
	if r.q.Share != nil {
		for _, f := range r.q.Share.Filters {
			if f.Field == m.field {
				return false
			}
		}
	}
	for _, d := range []*semantic.Dimension{r.q.GroupBy, r.q.AveragePer} {
		if d != nil && d.Field == m.field {
			return false
		}
	}
	for _, ms := range r.q.Measures {
		if ms.Field == m.field || ms.Metric != "" && summedField(&meaning{src: m.src, metric: ms.Metric}) == m.field {
			return false // the field itself, or the measure that sums it ("per quantità")
		}
		if ms.Metric != "" && ms.Metric == m.src.Decl.Fields[m.field].Amount && r.has(gCount) && !r.has(gDistinct) {
			return false // "how many dishes did we sell": the pieces of dishes, the field's amount
		}
	}
	return true
}

// typeOf returns a field's type.
func typeOf(s *semantic.Source, field string) data.FieldType {
	if f := s.Field(field); f != nil {
		return f.Type
	}
	return ""
}

// measureNamed reports a measure of the fact that the question names by its words.
func (r *reader) measureNamed() bool {
	for _, it := range r.items {
		if m := it.kind(mMeasure); m != nil && m.src == r.fact {
			return true
		}
	}
	return false
}
