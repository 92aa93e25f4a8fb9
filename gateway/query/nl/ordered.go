package nl

// orderedValues reads a value of a ranked field with a comparison ("medium-or-higher
// severity", "at least High", "above Medium", "gravità media o superiore"): the values of
// the field's declared order from that one on (or up to it), as one set. A field whose
// values have no declared order (a status) keeps the comparison unread, and the question
// is refused.
func (r *reader) orderedValues() {
	for k, it := range r.items {
		m := it.kind(mValue)
		if m == nil || it.used || len(m.values) != 1 {
			continue
		}
		order := m.src.Decl.Fields[m.field].Order
		i := indexOf(order, m.values[0])
		if i < 0 {
			continue
		}
		var set []string
		at := -1
		if n := r.next(k, 1); n >= 0 && len(r.items[n].ms) == 0 {
			switch r.items[n].gen {
			case gGE: // "medium or higher"
				set, at = order[i:], n
			case gLE: // "high or lower"
				set, at = order[:i+1], n
			}
		}
		if p := r.prev(k, 1); at < 0 && p >= 0 && len(r.items[p].ms) == 0 {
			switch r.items[p].gen {
			case gGE:
				set, at = order[i:], p
			case gLE:
				set, at = order[:i+1], p
			case gGT:
				set, at = order[i+1:], p
			case gLT:
				set, at = order[:i], p
			}
		}
		if at < 0 || len(set) == 0 {
			continue
		}
		r.items[at].used = true
		for x := range it.ms {
			if it.ms[x].kind == mValue && it.ms[x].src == m.src && it.ms[x].field == m.field {
				it.ms[x].values = append([]string(nil), set...)
			}
		}
	}
}

func indexOf(list []string, v string) int {
	for i, x := range list {
		if x == v {
			return i
		}
	}
	return -1
}
