package nl

// rowsSuperlative reports rows of the fact named before their superlative: "i 3 pazienti
// più giovani", "il paziente più anziano", "the 3 patients with the longest treatment
// (duration)", "the patient with the highest age". They ask for the rows with the largest
// or smallest value, like "the 3 youngest patients"; a question that names the field
// first ("l'età dei pazienti più giovani", "age of the youngest patient") asks for the
// value. It returns the superlative's index, or -1.
func (r *reader) rowsSuperlative() int {
	for k, it := range r.items {
		if it.used {
			continue
		}
		field := r.superlativeField(k)
		if field == "" {
			continue
		}
		n := r.rowsBefore(k, field)
		if n < 0 || r.fieldNamedBefore(n, field) {
			return -1
		}
		return k
	}
	return -1
}

// superlativeField is the fact's field the superlative at k is of: a field's own
// superlative ("youngest", "longest"), or highest/lowest right before a numeric field
// ("the highest age").
func (r *reader) superlativeField(k int) string {
	it := r.items[k]
	for _, m := range []*meaning{it.kind(mMax), it.kind(mMin)} {
		if m != nil && m.src == r.fact {
			return m.field
		}
	}
	if !it.is(gMax) && !it.is(gMin) {
		return ""
	}
	if n := r.next(k, 1); n >= 0 {
		if f := r.items[n].kind(mField); f != nil && f.src == r.fact && numeric(f) && len(r.items[n].ms) == 1 {
			return f.field
		}
	}
	return ""
}

// rowsBefore is the fact's row noun right before the superlative at k, with "with" or
// "con", fillers and the superlative's field between ("i pazienti con la durata più
// lunga"), or -1.
func (r *reader) rowsBefore(k int, field string) int {
	for j := r.prev(k, 1); j >= 0; j = r.prev(j, 1) {
		it := r.items[j]
		f := it.kind(mField)
		switch {
		case r.factRows(j):
			return j
		case it.is(gWith), f != nil && f.src == r.fact && f.field == field && len(it.ms) == 1:
		default:
			return -1
		}
	}
	return -1
}

// fieldNamedBefore reports the field's word before item n ("l'età dei pazienti più
// giovani"): the value is what is asked.
func (r *reader) fieldNamedBefore(n int, field string) bool {
	for j := 0; j < n; j++ {
		if f := r.items[j].kind(mField); f != nil && f.src == r.fact && f.field == field {
			return true
		}
	}
	return false
}

// useSuperlativeField marks the superlative's field words between the rows and it, and
// right after it ("the longest treatment duration", "the highest age", "con la durata più
// lunga"): the rows are ordered by that field.
func (r *reader) useSuperlativeField(k int) {
	field := r.superlativeField(k)
	from := r.rowsBefore(k, field)
	for j := from + 1; from >= 0 && j < len(r.items) && j <= k+1; j++ {
		if f := r.items[j].kind(mField); f != nil && f.src == r.fact && f.field == field && (j < k || j == r.next(k, 1)) {
			r.items[j].used = true
		}
	}
}

// countsFactRows reports a counting word right before the fact's row noun ("how many
// patients are the oldest"): the rows are counted, so a field's superlative is no value
// of its own.
func (r *reader) countsFactRows() bool {
	k := r.find(gCount)
	n := r.next(k, 1)
	return k >= 0 && n >= 0 && r.factRows(n)
}

// whoSuperlative reports "who" with a superlative of a field of a fact whose rows are an
// entity and that has no actor ("who is the oldest", "who was on treatment the longest"):
// who is one of the rows, not the value.
func (r *reader) whoSuperlative() bool {
	if !r.has(gWho) || r.fact.RowEntity() == "" || r.fact.Decl.Actor != "" || r.dim != nil || r.q.Compare != nil {
		return false
	}
	for _, it := range r.items {
		for _, m := range []*meaning{it.kind(mMax), it.kind(mMin)} {
			if m != nil && m.src == r.fact && !it.used {
				return true
			}
		}
	}
	return false
}
