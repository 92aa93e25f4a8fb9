package nl

// The year so far: "da inizio anno", "dall'inizio dell'anno", "since the start of the year",
// "year to date", "YTD" run from the first of January to the data's last day. The year is
// not named, so it is the data's own, as a month without a year is (resolve.go): the
// latest year of the data, with a note. "Since the start of 2024" names its year; "since
// the start of this year" is this year, taken against today as "this year" is. A vague
// "inizio anno" without "da"/"since" is not a start (vague.go).

// yearStartFrom are the words that open the year so far: "since", "da", "dall'".
var yearStartFrom = set("since", "from", "da", "dal", "dall", "dalla")

// yearStartWords name the start of a period.
var yearStartWords = set("start", "beginning", "inizio", "principio")

// yearStartGlue may stand between the start and the year: "of the", "dell'", "d'".
var yearStartGlue = set("the", "of", "del", "dell", "di", "d", "l", "il")

// yearToDate are the phrases that are the year so far by themselves.
var yearToDate = [][]string{{"year", "to", "date"}, {"ytd"}}

// toDateWords may follow the year so far and say what it already says: "da inizio anno ad
// oggi", "since the start of the year to date", "finora".
var toDateWords = [][]string{
	{"fino", "ad", "oggi"}, {"fino", "a", "oggi"}, {"ad", "oggi"}, {"a", "oggi"}, {"finora"},
	{"to", "date"}, {"to", "today"}, {"until", "today"}, {"till", "today"}, {"until", "now"}, {"till", "now"},
}

// yearStartAt reads the year so far at i.
func yearStartAt(ts []token, i int) (dateExpr, bool) {
	e := dateExpr{i: i, open: "from", from: point{m: 1}, yearStart: true}
	if j := phraseAt(ts, i, yearToDate); j > i {
		e.j = j
	} else if j, ok := startOfYear(ts, i, &e); ok {
		e.j = j
	} else {
		return dateExpr{}, false
	}
	e.to = e.from
	if j := phraseAt(ts, e.j, toDateWords); j > e.j {
		e.j = j
	}
	return e, true
}

// startOfYear reads "since the start of the year" (or of a year, or of this year) at i and
// returns its end; e gets the year or the relative period it names.
func startOfYear(ts []token, i int, e *dateExpr) (int, bool) {
	k := i
	if k < len(ts) && ts[k].w == "a" && k+2 < len(ts) && ts[k+1].w == "partire" {
		k += 2 // "a partire dall'inizio dell'anno"
	}
	if k >= len(ts) || !yearStartFrom[ts[k].w] {
		return 0, false
	}
	k++
	for k < len(ts) && articles[ts[k].w] {
		k++
	}
	if k >= len(ts) || !yearStartWords[ts[k].w] {
		return 0, false
	}
	for k++; k < len(ts) && yearStartGlue[ts[k].w]; k++ {
	}
	if k >= len(ts) {
		return 0, false
	}
	if a, ok := relAtNow(ts, k); ok && a.rel == "this_year" {
		*e = dateExpr{i: e.i, rel: a.rel}
		return a.j, true
	}
	if y, n := yearOf(ts, k); n > 0 {
		e.from.y, e.yearStart = y, false
		return k + n, true
	}
	if yearWords[ts[k].w] {
		return k + 1, true
	}
	return 0, false
}

// phraseAt returns the end of the first phrase of phs that starts at i, or i.
func phraseAt(ts []token, i int, phs [][]string) int {
	for _, ph := range phs {
		if i+len(ph) > len(ts) {
			continue
		}
		ok := true
		for k, w := range ph {
			ok = ok && ts[i+k].w == w
		}
		if ok {
			return i + len(ph)
		}
	}
	return i
}
