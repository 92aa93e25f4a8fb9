package nl

// unitNegations reads "X, not Y" where X and Y name what is counted — row nouns or
// counted fields ("AE count by arm (events, not subjects)", "clienti unici, non ordini"):
// "not Y" only says what is not counted. It is no condition and no second thing to count,
// so its items are dropped, with X when the question names X elsewhere too; a note says so.
// A "not" before anything else (a value, a verb) is left to the other readings.
func (r *reader) unitNegations() {
	for k := 0; k < len(r.items); k++ {
		it := r.items[k]
		if !it.is(gNot) || it.word != "not" && it.word != "non" {
			continue
		}
		y, x := k+1, r.prev(k, 1) // right next to it, fillers aside ("events pls, not subjects"): "patients that did not have AEs" is a condition
		if x > 0 && r.items[x].is(gDistinct) {
			x--
		}
		if x < 0 || y >= len(r.items) || !r.unitWord(r.items[x]) || !r.unitWord(r.items[y]) || sameUnit(r.items[x], r.items[y]) {
			continue
		}
		if mayLack(r.items[x], r.items[y]) && !(r.namedElsewhere(x) && r.namedElsewhere(y)) {
			continue // "patients not AEs" may be the patients without AEs; "subjects with at least one AE by arm, subjects, not events" says what is counted
		}
		drop := map[int]bool{k: true, y: true}
		if r.namedElsewhere(x) {
			for j := x; j < k; j++ {
				drop[j] = true
			}
		}
		r.note("\"" + it.word + " " + r.items[y].word + "\" read as what is not counted")
		var out []*item
		for j, o := range r.items {
			if !drop[j] {
				out = append(out, o)
			}
		}
		r.items, k = out, -1
	}
}

// unitWord reports an item that names only a kind of row, a measure or a counted field
// (clienti).
func (r *reader) unitWord(it *item) bool {
	if len(it.ms) == 0 || it.gen != 0 {
		return false
	}
	for _, m := range it.ms {
		switch {
		case m.kind == mRows, m.kind == mMeasure: // "(pezzi, non ordini)": the pieces, not the orders
		case m.kind == mField && (m.src.Decl.Fields[m.field].Counts != "" || m.src.Decl.Fields[m.field].Unit != "" && numeric(&m)):
		default:
			return false
		}
	}
	return true
}

// mayLack reports an entity followed by rows that refer to it ("patients not AEs"): it may
// mean the patients without AEs, so it is no unit clarification.
func mayLack(x, y *item) bool {
	for _, m := range x.ms {
		for _, n := range y.ms {
			if ent := m.src.RowEntity(); m.kind == mRows && n.src != m.src && ent != "" && n.src.Entity(ent) != "" {
				return true
			}
		}
	}
	return false
}

func sameUnit(a, b *item) bool {
	for _, m := range a.ms {
		for _, n := range b.ms {
			if m.kind == n.kind && m.src == n.src && m.field == n.field {
				return true
			}
		}
	}
	return false
}

// namedElsewhere reports that another item before item x names what x names.
func (r *reader) namedElsewhere(x int) bool {
	for j := 0; j < x; j++ {
		if len(r.items[j].ms) > 0 && sameUnit(r.items[j], r.items[x]) {
			return true
		}
	}
	return false
}
