package nl

// indefinite are the articles that make a row noun one of its kind: "a patient", "un
// paziente".
var indefinite = set("a", "an", "un", "uno", "una")

// entityOnAverage reports "how many AEs does a patient have on average", "the average
// patient", "quanti eventi ha in media un paziente", "il paziente medio": the row noun at k,
// of a source whose rows are an entity the fact carries, said of one (after an indefinite
// article) or of the average one (right after or before the average word), in a question
// whose average word applies to nothing else. It is the average per entity, as "per
// patient" is.
func (r *reader) entityOnAverage(k int) bool {
	it := r.items[k]
	m := it.kind(mRows)
	if m == nil || it.used || len(it.ms) != 1 || m.src == r.fact || m.src.RowEntity() == "" || r.fact.Entity(m.src.RowEntity()) == "" {
		return false
	}
	avg := r.find(gAvg)
	if avg < 0 || r.items[avg].used || len(r.items[avg].ms) > 0 || r.nearField(avg, 3) != nil {
		return false
	}
	p, n := k-1, k+1
	switch {
	case p >= 0 && indefinite[r.items[p].word] && (r.items[p].is(gFiller) || r.items[p].is(gOne)):
	case p == avg, n == avg:
	default:
		return false
	}
	return true
}
