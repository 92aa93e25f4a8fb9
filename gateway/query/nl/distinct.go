package nl

// distinctPerGroup is the field "distinct"/"different" names right after it in a
// breakdown ("number of distinct products per company", "quanti prodotti diversi per
// azienda"): its distinct values counted per group. The field must be another than the
// grouping's, and nothing but the word may stand between them, so that the count is of
// what the question names.
func (r *reader) distinctPerGroup() string {
	for k, it := range r.items {
		if !it.is(gDistinct) {
			continue
		}
		for _, j := range []int{r.next(k, 1), r.prev(k, 1)} { // "distinct products", "prodotti diversi"
			if j < 0 || r.items[j].used || len(r.items[j].ms) != 1 {
				continue
			}
			m := r.items[j].kind(mField)
			if m == nil || m.src != r.fact || numeric(m) || m.field == r.dim.Field || r.dim.Source != r.fact.Name {
				continue
			}
			it.used, r.items[j].used = true, true
			r.distinct = m.field
			return m.field
		}
	}
	return ""
}
