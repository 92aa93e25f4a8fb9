package nl

// A vague period beside an explicit one: "towards the end of 2024, Oct-Dec", "in early
// 2024, i.e. Jan to Mar", "ad inizio anno (gen-feb)". The explicit period is the period;
// the vague words and the year before it frame it and are read with it, the year lent to
// the explicit period when it names none. A vague period alone ("the end of 2024") stays
// unread: how far back "the end" goes is not in the question.

// vagueWords are the words that frame a period without bounding it.
var vagueWords = set("early", "late", "end", "beginning", "start", "mid", "middle", "inizio", "fine", "meta", "principio")

// vagueGlue may join vague words to their year: "towards the end of", "verso la fine del",
// "ad inizio".
var vagueGlue = set("the", "of", "towards", "toward", "around", "at", "in", "verso", "a", "ad", "al", "all", "alla",
	"di", "del", "dell", "della", "la", "l", "il", "nel", "nell", "nella")

// yearWords name "the year" without a number: "inizio anno".
var yearWords = set("year", "anno")

// ieWords say that what follows spells out what precedes: "i.e.", "cioè", "namely".
var ieWords = [][]string{{"i", "e"}, {"ie"}, {"cioe"}, {"ossia"}, {"ovvero"}, {"namely"}, {"that", "is"}, {"specifically"}}

// absorbVague merges each explicit period with the vague words and year before it.
func absorbVague(ts []token, out []dateExpr) []dateExpr {
	for k := 0; k < len(out); k++ {
		e := &out[k]
		if e.rel != "" || e.open != "" || yearOnly(*e) {
			continue
		}
		at := ieBefore(ts, e.i)
		var year *dateExpr
		if k > 0 && out[k-1].j == at && yearOnly(out[k-1]) && out[k-1].open == "" && out[k-1].rel == "" {
			year = &out[k-1]
		}
		var start int
		vague := false
		switch {
		case year != nil:
			if !lendYear(e, year.from.y) {
				continue // "2023, March 2024": two periods
			}
			start = year.i
		case at > 0 && yearWords[ts[at-1].w]:
			start = at - 1
			for start > 0 && (ts[start-1].w == "the" || ts[start-1].w == "l" || ts[start-1].w == "dell") {
				start--
			}
		default:
			continue
		}
		for start > 0 && (vagueWords[ts[start-1].w] || vagueGlue[ts[start-1].w]) {
			vague = vague || vagueWords[ts[start-1].w]
			start--
		}
		if year == nil && !vague {
			continue // "anno gen-feb" without a vague word: not this pattern
		}
		e.i = start
		if year != nil { // the year is the explicit period's: one period, not two
			out = append(out[:k-1], out[k:]...)
			k--
		}
	}
	return out
}

// yearOnly reports a period that is a whole year.
func yearOnly(e dateExpr) bool {
	return e.from == e.to && e.from.y != 0 && e.from.m == 0 && e.from.q == 0 && e.from.h == 0 && e.from.d == 0
}

// lendYear gives a period without a year the year before it; false when it names another.
func lendYear(e *dateExpr, y int) bool {
	if (e.from.y != 0 && e.from.y != y) || (e.to.y != 0 && e.to.y != y) {
		return false
	}
	e.from.y, e.to.y = y, y
	return true
}

// ieBefore is where an "i.e." right before i starts (i when there is none).
func ieBefore(ts []token, i int) int {
	for _, ws := range ieWords {
		n := len(ws)
		if i-n < 0 {
			continue
		}
		match := true
		for x, w := range ws {
			match = match && ts[i-n+x].w == w
		}
		if match {
			return i - n
		}
	}
	return i
}
