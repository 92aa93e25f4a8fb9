package nl

import "strings"

// point is a date as a question writes it: a year, a quarter, a month or a day, each part
// possibly missing (a month without its year).
type point struct {
	y, h, q, m, d int // h: a half-year (H1, second half)
}

// dateExpr is a time expression of a question, before it is resolved against the data.
type dateExpr struct {
	i, j int // token span
	from point
	to   point // equal to from for a single period
	// open is "from" (since X, X onwards) or "to" (until X); "" for a closed period.
	open string
	// rel is a relative period (last_year, this_month, last_n_months...), resolved against now.
	rel string
	n   int // for last_n_*
	// ofData anchors rel at the data's last day, not now ("the last two months of the data").
	ofData bool
	// yearStart is the year so far without its year ("da inizio anno", "YTD"): from the
	// first of January of the data's last year (yearstart.go).
	yearStart bool
}

var months = map[string]int{
	"gennaio": 1, "january": 1, "jan": 1, "febbraio": 2, "february": 2, "feb": 2, "marzo": 3, "march": 3,
	"aprile": 4, "april": 4, "apr": 4, "maggio": 5, "may": 5, "giugno": 6, "june": 6, "jun": 6,
	"luglio": 7, "july": 7, "jul": 7, "agosto": 8, "august": 8, "aug": 8, "settembre": 9, "september": 9,
	"sept": 9, "sep": 9, "ottobre": 10, "october": 10, "oct": 10, "novembre": 11, "november": 11, "nov": 11,
	"dicembre": 12, "december": 12,
	// abbreviations, English and Italian ("set" and "ago" are English words: not read)
	"mar": 3, "dec": 12, "gen": 1, "mag": 5, "giu": 6, "lug": 7, "ott": 10, "dic": 12,
}

var ordinalQuarter = map[string]int{"first": 1, "1st": 1, "primo": 1, "second": 2, "2nd": 2, "secondo": 2,
	"third": 3, "3rd": 3, "terzo": 3, "fourth": 4, "4th": 4, "quarto": 4}

var (
	fromWords = set("from", "since", "da", "dal", "dalla", "dall", "dai", "dalle", "starting", "after", "dopo", "beginning")
	// openWords start an open period by themselves; "from 2022" alone is the year 2022.
	openWords    = set("since", "dal", "dalla", "dall", "dai", "dalle", "starting", "after", "dopo", "beginning")
	toWords      = set("to", "a", "ad", "al", "alla", "all", "ai", "alle", "until", "till", "through", "thru", "fino", "entro", "before", "prima", "-")
	betweenWords = set("between", "tra", "fra")
	andWords     = set("and", "e", "ed", "&")
	monthPreps   = set("in", "of", "during", "since", "from", "to", "until", "between", "and", "vs", "versus", "by", "for", "di", "a", "ad", "e", "per", "through")
	thresholdW   = set("over", "above", "than", "under", "below", "oltre", "sopra", "sotto", "least", "exceeding", "exceeds", "most", "usd", "eur")
	articles     = set("il", "l", "the", "lo", "la", "i")
)

func set(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// atom is a date part found at a token position.
type atom struct {
	i, j int
	p    point
	rel  string
	n    int
	// ofData: rel is anchored at the data's last day (dataAnchor).
	ofData bool
	day    int // a bare day number (1..31) waiting for its month
}

// seasons are the months of the seasons a user names (northern hemisphere; winter spans
// two years and is not read).
var seasons = map[string][2]int{"spring": {3, 5}, "primavera": {3, 5}, "summer": {6, 8}, "estate": {6, 8},
	"autumn": {9, 11}, "fall": {9, 11}, "autunno": {9, 11}}

// seasonAt reads a season and its year: "spring 2024", "the spring of 2024", "spring
// months", "in primavera".
func seasonAt(ts []token, i int) (dateExpr, bool) {
	m, ok := seasons[ts[i].w]
	if !ok {
		return dateExpr{}, false
	}
	if _, year := yearAt(ts, i+1); ts[i].w == "fall" && !year && (i == 0 || !set("the", "in", "this", "last", "during")[ts[i-1].w]) {
		return dateExpr{}, false // "fall" the verb: "findings that fall in 2023"
	}
	e := dateExpr{i: i, j: i + 1, from: point{m: m[0]}, to: point{m: m[1]}}
	if e.j < len(ts) && (ts[e.j].w == "months" || ts[e.j].w == "mesi") {
		e.j++
	}
	if y, n := yearOf(ts, e.j); n > 0 {
		e.from.y, e.to.y, e.j = y, y, e.j+n
	}
	return e, true
}

// dates finds the time expressions of a question.
func dates(ts []token) []dateExpr {
	var seasonal []dateExpr
	for i := 0; i < len(ts); i++ {
		if e, ok := seasonAt(ts, i); ok {
			seasonal = append(seasonal, e)
			i = e.j - 1
		} else if e, ok := yearStartAt(ts, i); ok { // read whole, as a season is
			seasonal = append(seasonal, e)
			i = e.j - 1
		}
	}
	inSeason := func(a atom) bool {
		for _, e := range seasonal {
			if a.i >= e.i && a.i < e.j {
				return true
			}
		}
		return false
	}
	var atoms []atom
	for _, a := range findAtoms(ts) {
		if !inSeason(a) {
			atoms = append(atoms, a)
		}
	}
	out := seasonal
	for k := 0; k < len(atoms); k++ {
		a := atoms[k]
		if a.rel != "" {
			out = append(out, dateExpr{i: a.i, j: a.j, rel: a.rel, n: a.n, ofData: a.ofData})
			continue
		}
		e, used := combine(ts, atoms, k)
		if used == 0 {
			continue
		}
		out = append(out, e)
		k += used - 1
	}
	return absorbVague(ts, out)
}

// combine builds one expression from atoms[k:], with its connectors: between X and Y,
// from X to Y, since X, X onwards, until X; a bare day joins the day and month after it.
func combine(ts []token, atoms []atom, k int) (dateExpr, int) {
	a := atoms[k]
	if a.day > 0 { // "dal 10 al 16 febbraio", "between 3 and 9 March": days of one month
		if k+1 < len(atoms) && atoms[k+1].p.m > 0 && atoms[k+1].p.d > 0 {
			m := atoms[k+1]
			e := dateExpr{i: a.i, j: m.j, from: point{y: m.p.y, m: m.p.m, d: a.day}, to: m.p}
			if e.i = connectorBefore(ts, a.i, betweenWords); e.i == a.i {
				e.i = connectorBefore(ts, a.i, fromWords)
			}
			if !joins(ts, a.j, m.i, e.i < a.i) {
				return dateExpr{}, 0 // "il 3 e il 9 marzo": two days, not the days between them
			}
			return e, 2
		}
		return dateExpr{}, 0
	}
	e := dateExpr{i: a.i, j: a.j, from: a.p, to: a.p}
	used := 1
	start := connectorBefore(ts, a.i, betweenWords)
	if start == a.i {
		start = connectorBefore(ts, a.i, fromWords)
	}
	if k+1 < len(atoms) && atoms[k+1].rel == "" && atoms[k+1].day == 0 {
		b := atoms[k+1]
		if joins(ts, a.j, b.i, start < a.i) && !(start < a.i && betweenWords[ts[start].w] && comparing(ts)) {
			e.to, e.j, used = b.p, b.j, 2
			fill(&e.from, &e.to)
			e.j = inclusiveAfter(ts, e.j)
		}
	}
	if used == 1 && start < a.i && betweenWords[ts[start].w] {
		start = a.i // "between 2023" alone is no range
	}
	if used == 1 {
		switch {
		case start < a.i && (ts[start].w == "after" || ts[start].w == "dopo"):
			e.open = "after"
		case start < a.i && openWords[ts[start].w], start < a.i && start+2 < len(ts) && ts[start].w == "a" && ts[start+1].w == "partire":
			e.open = "from"
		default:
			if u := untilBefore(ts, a.i); u < a.i {
				e.open, start = "to", u
				if ts[u].w == "before" || ts[u].w == "prima" {
					e.open = "before"
				}
			}
		}
		if e.j+1 < len(ts) && ts[e.j].w == "in" && ts[e.j+1].w == "poi" {
			e.open, e.j = "from", e.j+2
		} else if e.j < len(ts) && (ts[e.j].w == "onwards" || ts[e.j].w == "onward") {
			e.open, e.j = "from", e.j+1
		}
	}
	e.i = start
	return e, used
}

// inclusiveWords say, right after a range, that its ends are in it ("da gennaio a marzo
// compresi"), as every range here is; elsewhere "compresi" may name what is included.
var inclusiveWords = set("compresi", "comprese", "compreso", "compresa", "inclusi", "incluse", "incluso", "inclusa", "included", "inclusive")

// inclusiveAfter is the end of a range at j, past such a word ("both included" too).
func inclusiveAfter(ts []token, j int) int {
	k := j
	if k < len(ts) && (ts[k].w == "both" || ts[k].w == "entrambi" || ts[k].w == "entrambe") {
		k++
	}
	if k < len(ts) && inclusiveWords[ts[k].w] {
		return k + 1
	}
	return j
}

// comparing reports a question that compares: "confronto del fatturato tra marzo e
// aprile", "difference between 2023 and 2024" ask for the two periods, not the months or
// years between them.
func comparing(ts []token) bool {
	for i, t := range ts {
		if g := lexicon[t.w]; g == gCompare || g == gVs {
			return true
		}
		if i+1 < len(ts) && lexicon[t.w+" "+ts[i+1].w] == gCompare { // "diff between", "diff in"
			return true
		}
	}
	return false
}

// untilBefore finds "until", "before", "fino a", "prima del", "entro" just before i.
func untilBefore(ts []token, i int) int {
	j := i - 1
	for j >= 0 && articles[ts[j].w] {
		j--
	}
	if j < 0 {
		return i
	}
	switch ts[j].w {
	case "until", "till", "before", "entro", "through":
		return j
	case "a", "al", "alla", "di", "del", "della":
		if j > 0 && (ts[j-1].w == "fino" || ts[j-1].w == "prima") {
			return j - 1
		}
	}
	return i
}

// joins reports whether the tokens between two atoms make a range: "to", "-", or "and"
// after "between".
func joins(ts []token, from, to int, opened bool) bool {
	var mid []string
	for _, t := range ts[from:to] {
		if !articles[t.w] {
			mid = append(mid, t.w)
		}
	}
	if len(mid) == 0 {
		return false
	}
	if len(mid) == 1 && toWords[mid[0]] {
		return true
	}
	if len(mid) == 2 && mid[0] == "fino" && toWords[mid[1]] {
		return true
	}
	return opened && len(mid) == 1 && andWords[mid[0]]
}

// fill lends the year a range's end names to its start (da febbraio a marzo 2024), and
// the other way round.
func fill(a, b *point) {
	if a.y == 0 {
		a.y = b.y
	}
	if b.y == 0 && a.y != 0 && (b.m == 0 || b.m >= a.m) {
		b.y = a.y
	}
}

// connectorBefore moves a span start back over a connector word (and an article).
func connectorBefore(ts []token, i int, words map[string]bool) int {
	j := i - 1
	for j >= 0 && articles[ts[j].w] {
		j--
	}
	if j >= 0 && words[ts[j].w] {
		return j
	}
	if j >= 2 && ts[j].w == "da" && ts[j-1].w == "partire" && ts[j-2].w == "a" {
		return j - 2
	}
	return i
}

// findAtoms finds the date parts: ISO dates, days with months, months, quarters, years,
// relative periods, and bare day numbers before a month.
func findAtoms(ts []token) []atom {
	var out []atom
	for i := 0; i < len(ts); i++ {
		if a, ok := relAt(ts, i); ok {
			out = append(out, a)
			i = a.j - 1
			continue
		}
		if a, ok := pointAt(ts, i); ok {
			if n := len(out); n > 0 && a.i < i && out[n-1].i == a.i && out[n-1].day > 0 {
				out = out[:n-1] // the day belongs to this month
			}
			out = append(out, a)
			i = a.j - 1
			continue
		}
		if d, ok := dayNumber(ts, i); ok {
			out = append(out, atom{i: i, j: i + 1, day: d})
		}
	}
	return out
}

// dayRangeWords may stand between the days of a range inside a month and its month: "dal
// 10 al 16 febbraio", "from the 3rd to the 9th of March", "tra il 1 e il 15 aprile".
var dayRangeWords = set("to", "a", "ad", "al", "fino", "through", "thru", "until", "till", "-", "of", "di")

// dayNumber is a day of the month followed, soon, by another day or a month.
func dayNumber(ts []token, i int) (int, bool) {
	t := ts[i]
	if !t.isNum || t.percent || t.num != float64(int(t.num)) || t.num < 1 || t.num > 31 {
		return 0, false
	}
	for j := i + 1; j < len(ts) && j <= i+5; j++ {
		if _, isMonth := monthAt(ts, j); isMonth {
			return int(t.num), true
		}
		if !andWords[ts[j].w] && !articles[ts[j].w] && !ts[j].isNum && !dayRangeWords[ts[j].w] {
			return 0, false
		}
	}
	return 0, false
}

// pointAt reads a date part at i: 2025-01-14, 2025-01, [day] month [year], quarter [year], year.
func pointAt(ts []token, i int) (atom, bool) {
	t := ts[i]
	if p, ok := isoDate(t.w); ok {
		return atom{i: i, j: i + 1, p: p}, true
	}
	if m, ok := monthAt(ts, i); ok {
		a := atom{i: i, j: i + 1, p: point{m: m}}
		if i > 0 {
			if d, ok := dayBefore(ts, i); ok {
				a.i, a.p.d = i-1, d
				if ts[i-1].w == "of" || ts[i-1].w == "di" {
					a.i = i - 2
				}
			}
		}
		if a.p.d == 0 && i+1 < len(ts) { // "May 1st 2024", "May 1, 2024", "March 3rd": the day after its month
			if d, ok := dayAfter(ts, i+1); ok {
				a.p.d, a.j = d, i+2
			}
		}
		if y, n := yearOf(ts, a.j); n > 0 {
			a.p.y, a.j = y, a.j+n
		}
		return a, true
	}
	if q, n := quarterAt(ts, i); n > 0 {
		a := atom{i: i, j: i + n, p: point{q: q}}
		if y, m := yearOf(ts, i+n); m > 0 {
			a.p.y, a.j = y, i+n+m
		}
		return a, true
	}
	if h, n := halfAt(ts, i); n > 0 {
		a := atom{i: i, j: i + n, p: point{h: h}}
		if y, m := yearOf(ts, i+n); m > 0 {
			a.p.y, a.j = y, i+n+m
		}
		return a, true
	}
	if y, ok := yearAt(ts, i); ok && !afterThreshold(ts, i) {
		return atom{i: i, j: i + 1, p: point{y: y}}, true
	}
	return atom{}, false
}

// dayAfter reads the day written after its month at i: an ordinal ("1st", "3rd"), a
// number followed by a year ("May 1 2024"), by the word that ends or joins a range
// ("March 10 to March 20"), or after a month that follows "on", "from", "to", "and" ("to
// March 20"); another bare number after a month may count something else ("in May 5
// orders") and is not read.
func dayAfter(ts []token, i int) (int, bool) {
	t := ts[i]
	if !t.isNum || t.percent || t.num != float64(int(t.num)) || t.num < 1 || t.num > 31 {
		return 0, false
	}
	if _, ok := ordinal(t.orig); ok {
		return int(t.num), true
	}
	if _, n := yearOf(ts, i+1); n > 0 {
		return int(t.num), true
	}
	if i+1 < len(ts) && (toWords[ts[i+1].w] || andWords[ts[i+1].w]) { // "from March 10 to March 20", "between March 10 and 20"
		return int(t.num), true
	}
	if i >= 2 && (onWords[ts[i-2].w] || fromWords[ts[i-2].w] || toWords[ts[i-2].w] || andWords[ts[i-2].w]) { // "… to March 20", "on March 3"
		return int(t.num), true
	}
	return 0, false
}

// onWords put a single day before its month ("on March 3").
var onWords = set("on", "il")

func dayBefore(ts []token, i int) (int, bool) {
	if i >= 2 && (ts[i-1].w == "of" || ts[i-1].w == "di") { // the 14th of February
		i--
	}
	t := ts[i-1]
	if t.isNum && !t.percent && t.num == float64(int(t.num)) && t.num >= 1 && t.num <= 31 {
		return int(t.num), true
	}
	return 0, false
}

func afterThreshold(ts []token, i int) bool {
	if i > 0 && thresholdW[ts[i-1].w] {
		return true
	}
	if i > 1 && (ts[i-2].w == "piu" || ts[i-2].w == "meno") && ts[i-1].w == "di" {
		return true
	}
	return i+1 < len(ts) && set("usd", "eur", "dollars", "euro", "kg", "pcs", "units", "pezzi")[ts[i+1].w]
}

// monthAt reads a month name; "may" only where it cannot be the verb.
func monthAt(ts []token, i int) (int, bool) {
	m, ok := months[ts[i].w]
	if !ok || ts[i].w != "may" {
		return m, ok
	}
	if i > 0 && (monthPreps[ts[i-1].w] || ts[i-1].isNum) {
		return m, true
	}
	_, yearNext := yearAt(ts, i+1)
	return m, yearNext
}

func quarterAt(ts []token, i int) (q, n int) {
	w := ts[i].w
	if len(w) == 2 && w[0] == 'q' && w[1] >= '1' && w[1] <= '4' {
		return int(w[1] - '0'), 1
	}
	if q, ok := ordinalQuarter[w]; ok && i+1 < len(ts) && (ts[i+1].w == "quarter" || ts[i+1].w == "trimestre") {
		return q, 2
	}
	if (w == "last" || w == "ultimo") && i+3 < len(ts) && (ts[i+1].w == "quarter" || ts[i+1].w == "trimestre") && set("of", "in", "del", "dell")[ts[i+2].w] {
		if _, ok := yearAt(ts, i+3); ok {
			return 4, 3
		}
	}
	if (w == "quarter" || w == "trimestre") && i+1 < len(ts) && ts[i+1].isNum && ts[i+1].num >= 1 && ts[i+1].num <= 4 {
		return int(ts[i+1].num), 2
	}
	return 0, 0
}

// yearConnectors may join a month, quarter or half to its year: "March of 2024", "il
// primo trimestre del 2024", "Q1 in 2023".
var yearConnectors = set("of", "in", "di", "del", "dell", "nel", "nell")

// yearOf reads the year of a period at i, directly or after a connector, and how many
// tokens it takes (0: none).
func yearOf(ts []token, i int) (int, int) {
	if y, ok := yearAt(ts, i); ok {
		return y, 1
	}
	if i < len(ts) && yearConnectors[ts[i].w] {
		if y, ok := yearAt(ts, i+1); ok {
			return y, 2
		}
	}
	return 0, 0
}

// halves are the ordinals of a half-year: first half, seconda metà, primo semestre.
var halves = map[string]int{"first": 1, "1st": 1, "primo": 1, "prima": 1, "second": 2, "2nd": 2, "secondo": 2, "seconda": 2}

// halfAt reads a half-year: H1, H2, first half, second half, primo semestre, seconda metà.
func halfAt(ts []token, i int) (h, n int) {
	w := ts[i].w
	if len(w) == 2 && w[0] == 'h' && (w[1] == '1' || w[1] == '2') {
		return int(w[1] - '0'), 1
	}
	h, ok := halves[w]
	if _, ord := ordinal(ts[i].orig); ord && ts[i].isNum && (ts[i].num == 1 || ts[i].num == 2) { // "2nd half"
		h, ok = int(ts[i].num), true
	}
	if ok && i+1 < len(ts) && (ts[i+1].w == "half" || ts[i+1].w == "semestre" || ts[i+1].w == "meta") {
		return h, 2
	}
	return 0, 0
}

func yearAt(ts []token, i int) (int, bool) {
	if i >= len(ts) {
		return 0, false
	}
	t := ts[i]
	if !t.isNum || t.percent || t.num != float64(int(t.num)) || t.num < 1990 || t.num > 2100 || len(t.w) != 4 {
		return 0, false
	}
	return int(t.num), true
}

func isoDate(w string) (point, bool) {
	var y, m, d int
	switch {
	case len(w) == 10 && w[4] == '-' && w[7] == '-':
		if !digits(w[:4]) || !digits(w[5:7]) || !digits(w[8:]) {
			return point{}, false
		}
		y, m, d = atoi(w[:4]), atoi(w[5:7]), atoi(w[8:])
	case len(w) == 7 && w[4] == '-':
		if !digits(w[:4]) || !digits(w[5:]) {
			return point{}, false
		}
		y, m = atoi(w[:4]), atoi(w[5:])
	default:
		return point{}, false
	}
	if m < 1 || m > 12 || d > 31 {
		return point{}, false
	}
	return point{y: y, m: m, d: d}, true
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// relPhrases are relative periods, matched on folded words.
var relPhrases = map[string]string{
	"last year": "last_year", "previous year": "last_year", "past year": "last_year", "anno scorso": "last_year", "l anno scorso": "last_year", "scorso anno": "last_year", "anno passato": "last_year",
	"this year": "this_year", "current year": "this_year", "quest anno": "this_year", "questo anno": "this_year", "anno corrente": "this_year",
	"last month": "last_month", "previous month": "last_month", "mese scorso": "last_month", "scorso mese": "last_month", "mese passato": "last_month",
	"this month": "this_month", "questo mese": "this_month", "mese corrente": "this_month",
	"last week": "last_week", "settimana scorsa": "last_week", "scorsa settimana": "last_week",
	"this week": "this_week", "questa settimana": "this_week",
	"today": "today", "oggi": "today", "yesterday": "yesterday", "ieri": "yesterday",
	"last quarter": "last_quarter", "trimestre scorso": "last_quarter", "scorso trimestre": "last_quarter",
	"this quarter": "this_quarter", "questo trimestre": "this_quarter",
}

func relAt(ts []token, i int) (atom, bool) {
	a, ok := relAtNow(ts, i)
	if ok && strings.HasPrefix(a.rel, "last_") {
		if j := dataAnchor(ts, a.j); j > a.j {
			a.j, a.ofData = j, true
		}
	}
	return a, ok
}

// dataAnchors are the phrases after a relative period that anchor it at the data's own
// last day: "the last two months of the data", "covered by the AE data", "dei dati".
var dataAnchors = [][]string{
	{"of", "the", "data"}, {"in", "the", "data"}, {"of", "data"}, {"covered", "by", "the", "data"},
	{"covered", "by", "the", "*", "data"}, {"covered", "in", "the", "data"}, {"of", "the", "*", "data"},
	{"dei", "dati"}, {"nei", "dati"}, {"coperti", "dai", "dati"}, {"coperto", "dai", "dati"}, {"presenti", "nei", "dati"},
}

// dataAnchor returns the end of a data anchor phrase starting at j, or j.
func dataAnchor(ts []token, j int) int {
	for _, ph := range dataAnchors {
		if j+len(ph) > len(ts) {
			continue
		}
		ok := true
		for k, w := range ph {
			ok = ok && (w == "*" && !ts[j+k].isNum || ts[j+k].w == w)
		}
		if ok {
			return j + len(ph)
		}
	}
	return j
}

func relAtNow(ts []token, i int) (atom, bool) {
	if i+3 < len(ts) && ts[i].w == "last" && (ts[i+1].w == "quarter" || ts[i+1].w == "month") && (ts[i+2].w == "of" || ts[i+2].w == "in") {
		if _, ok := yearAt(ts, i+3); ok {
			return atom{}, false // "the last quarter of 2023" is Q4 2023, not the quarter before today
		}
	}
	for n := 3; n >= 1; n-- {
		if i+n > len(ts) {
			continue
		}
		key := ""
		for k := i; k < i+n; k++ {
			if k > i {
				key += " "
			}
			key += ts[k].w
		}
		if r, ok := relPhrases[key]; ok {
			return atom{i: i, j: i + n, rel: r}, true
		}
	}
	// last N days|weeks|months|years, ultimi N giorni|settimane|mesi|anni
	if i+2 < len(ts) && (ts[i].w == "last" || ts[i].w == "past" || ts[i].w == "ultimi" || ts[i].w == "ultime") && ts[i+1].isNum {
		at := i + 2
		if ts[at].w == "calendar" && at+1 < len(ts) { // "the last two calendar months"
			at++
		}
		unit := map[string]string{"days": "day", "giorni": "day", "weeks": "week", "settimane": "week", "months": "month", "mesi": "month", "years": "year", "anni": "year"}[ts[at].w]
		if unit != "" {
			return atom{i: i, j: at + 1, rel: "last_n_" + unit, n: int(ts[i+1].num)}, true
		}
	}
	return atom{}, false
}
