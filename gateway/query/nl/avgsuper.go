package nl

// averagedSuperlative reports a field's superlative that ranks groups by the field's
// average ("which site has the youngest patients on average", "quale braccio ha in media i
// pazienti più anziani"): a ranking by a dimension, and an average word that applies to
// no other field. The average word is marked used; the ranking's direction stays the
// superlative's (youngest: the lowest average first).
func (r *reader) averagedSuperlative(m *meaning) bool {
	if r.dim == nil || !r.ranked {
		return false
	}
	for k, it := range r.items {
		if it.used || !it.is(gAvg) {
			continue
		}
		if f := r.nearField(k, 3); f != nil && (f.src != m.src || f.field != m.field) {
			return false
		}
		it.used = true
		return true
	}
	return false
}
