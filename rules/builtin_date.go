package rules

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// monthNames maps English and Italian month names and abbreviations (normalized) to months.
var monthNames = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
	"gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7,
	"agosto": 8, "settembre": 9, "ottobre": 10, "novembre": 11, "dicembre": 12,
	"gen": 1, "mag": 5, "giu": 6, "lug": 7, "ago": 8, "set": 9, "ott": 10, "dic": 12,
}

// monthAlt is the regex alternation of monthNames, longest first so "sept" beats "sep".
var monthAlt = func() string {
	names := make([]string, 0, len(monthNames))
	for n := range monthNames {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return `(?:` + strings.Join(names, "|") + `)\.?`
}()

// The date shapes, as non-capturing expressions so they compose into ranges.
var (
	dateISO   = `\d{4}-\d{1,2}-\d{1,2}`
	dateDMY   = `\d{1,2}[/.]\d{1,2}[/.]\d{4}`
	dateDMonY = `\d{1,2}(?:st|nd|rd|th)? (?:of )?` + monthAlt + `,? \d{4}`
	dateMonDY = monthAlt + ` \d{1,2}(?:st|nd|rd|th)?,? \d{4}`
	dateAny   = `(?:` + dateISO + `|` + dateDMY + `|` + dateDMonY + `|` + dateMonDY + `)`
	// endpoint is what a range may start or end with: a date, "month year" or a year.
	endpoint = `(?:` + dateAny + `|` + monthAlt + ` \d{4}|\d{4})`
)

// reDate finds dates; dateValue parses each match.
var reDate = regexp.MustCompile(`\b` + dateAny + `\b`)

// reEndpoint parses one range endpoint.
var (
	reISO   = regexp.MustCompile(`^(\d{4})-(\d{1,2})-(\d{1,2})$`)
	reDMY   = regexp.MustCompile(`^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$`)
	reDMonY = regexp.MustCompile(`^(\d{1,2})(?:st|nd|rd|th)? (?:of )?(` + monthAlt + `),? (\d{4})$`)
	reMonDY = regexp.MustCompile(`^(` + monthAlt + `) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$`)
	reMonY  = regexp.MustCompile(`^(` + monthAlt + `) (\d{4})$`)
	reYear  = regexp.MustCompile(`^(\d{4})$`)
)

// scanDates finds calendar dates and returns them as YYYY-MM-DD; impossible dates are skipped.
func scanDates(text string, _ timeFunc, hs []hit) []hit {
	var buf [8]int // a question rarely holds more years; more grow the slice
	spots := yearSpots(text, buf[:0])
	if !slices.ContainsFunc(spots, func(sp int) bool { return dateSpot(text, sp) }) {
		return hs // no year sits where a date puts it, so reDate cannot match
	}
	for _, m := range findNear(reDate, text, spots, 32, 8) {
		if from, to, ok := period(text[m[0]:m[1]]); ok && from.Equal(to) {
			hs = append(hs, hit{from.Format(time.DateOnly), m[0], m[1]})
		}
	}
	return hs
}

// dateSpot reports whether the 4-digit year at sp has the context some date shape gives it:
// a following '-' (2024-01-15), a preceding '/' or '.' (15/01/2024), or a preceding space after
// a day (January 15, 2024) or a month name (15 January 2024, 3 Sept. 2023).
func dateSpot(text string, sp int) bool {
	if byteAt(text, sp+4) == '-' {
		return true
	}
	switch byteAt(text, sp-1) {
	case '/', '.':
		return true
	case ' ':
	default:
		return false
	}
	q := sp - 2
	if byteAt(text, q) == ',' {
		q--
	}
	if isDigit(byteAt(text, q)) {
		return true
	}
	if q >= 2 && isDigit(text[q-2]) {
		switch text[q-1 : q+1] {
		case "st", "nd", "rd", "th":
			return true
		}
	}
	if byteAt(text, q) == '.' {
		q--
	}
	if q < 0 {
		return false
	}
	for name := range monthNames {
		if strings.HasSuffix(text[:q+1], name) {
			return true
		}
	}
	return false
}

// period returns the first and last day an endpoint (date, month year or year) stands for.
func period(s string) (from, to time.Time, ok bool) {
	atoi := func(x string) int { n, _ := strconv.Atoi(x); return n }
	month := func(x string) time.Month { return monthNames[strings.TrimSuffix(x, ".")] }
	if m := reISO.FindStringSubmatch(s); m != nil {
		return day(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]))
	}
	if m := reDMY.FindStringSubmatch(s); m != nil {
		return day(atoi(m[3]), time.Month(atoi(m[2])), atoi(m[1]))
	}
	if m := reDMonY.FindStringSubmatch(s); m != nil {
		return day(atoi(m[3]), month(m[2]), atoi(m[1]))
	}
	if m := reMonDY.FindStringSubmatch(s); m != nil {
		return day(atoi(m[3]), month(m[1]), atoi(m[2]))
	}
	if m := reMonY.FindStringSubmatch(s); m != nil {
		from = time.Date(atoi(m[2]), month(m[1]), 1, 0, 0, 0, 0, time.UTC)
		return from, from.AddDate(0, 1, -1), month(m[1]) != 0
	}
	if m := reYear.FindStringSubmatch(s); m != nil {
		y := atoi(m[1])
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC), y >= 1900 && y <= 2099
	}
	return from, to, false
}

// day validates a calendar date: time.Date normalizes Feb 30 to Mar 1, which must not pass.
func day(y int, mo time.Month, d int) (time.Time, time.Time, bool) {
	t := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
	ok := mo >= 1 && mo <= 12 && t.Year() == y && t.Month() == mo && t.Day() == d
	return t, t, ok
}

// art is an optional article before an endpoint ("tra il 2022 e il 2024", "from the 1st ...").
const art = `(?:(?:il|l'|the|lo|la) ?)?`

// rangeForms are the range phrasings: which capture groups hold the start and end endpoints,
// and whether an end-only phrase ends before its endpoint ("before 2023") or with it ("until").
var rangeForms = []struct {
	re                *regexp.Regexp
	words             []string // every match contains one of these
	hasStart, hasEnd  bool
	endBeforeEndpoint bool
}{
	{re: regexp.MustCompile(`\b(?:between|tra|fra) ` + art + `(` + endpoint + `) (?:and|e) ` + art + `(` + endpoint + `)\b`), words: []string{"between ", "tra ", "fra "}, hasStart: true, hasEnd: true},
	{re: regexp.MustCompile(`\bfrom ` + art + `(` + endpoint + `) (?:to|until|till|through|thru) ` + art + `(` + endpoint + `)\b`), words: []string{"from "}, hasStart: true, hasEnd: true},
	{re: regexp.MustCompile(`\b(?:dal|dall'|dalla|da) ?(` + endpoint + `) (?:al|all'|alla|a|fino al|fino a) ?(` + endpoint + `)\b`), words: []string{"da"}, hasStart: true, hasEnd: true},
	{re: regexp.MustCompile(`\b(?:since|starting|starting from|after|a partire dal|a partire da|dal|dall'|dopo il) ?` + art + `(` + endpoint + `)\b`), words: []string{"since", "starting", "after", "a partire da", "dal", "dopo il"}, hasStart: true},
	{re: regexp.MustCompile(`\b(?:before|prima del|prima di|prima dell') ?` + art + `(` + endpoint + `)\b`), words: []string{"before", "prima d"}, hasEnd: true, endBeforeEndpoint: true},
	{re: regexp.MustCompile(`\b(?:until|till|up to|fino al|fino a|entro il|entro) ` + art + `(` + endpoint + `)\b`), words: []string{"until ", "till ", "up to ", "fino a", "entro "}, hasEnd: true},
}

// rangeWords finds the words of every range form in one pass: rangeWordForm[k] is the form
// of the k-th word.
var rangeWords, rangeWordForm = func() (*prefilter.AC, []int) {
	var words []string
	var form []int
	for f, rf := range rangeForms {
		for _, w := range rf.words {
			words = append(words, w)
			form = append(form, f)
		}
	}
	return prefilter.NewAC(words), form
}()

// rangeFormsIn returns the set of the forms (bit f for rangeForms[f]) some word of which
// text contains.
func rangeFormsIn(text string) uint64 {
	var forms uint64
	rangeWords.Scan(text, func(k, _, _ int) { forms |= 1 << rangeWordForm[k] })
	return forms
}

// scanDateRanges finds date ranges; the result is a map with "start" and/or "end".
func scanDateRanges(text string, _ timeFunc, hs []hit) []hit {
	var buf [8]int // a question rarely holds more years; more grow the slice
	spots := yearSpots(text, buf[:0])
	if len(spots) == 0 {
		return hs
	}
	present := rangeFormsIn(text)
	for k, f := range rangeForms {
		if present&(1<<k) == 0 {
			continue // the form's leading words are absent, so its expression cannot match
		}
		for _, m := range findNear(f.re, text, spots, 80, 8) {
			v := map[string]any{}
			g := 2
			if f.hasStart {
				from, _, ok := period(text[m[g]:m[g+1]])
				if !ok {
					continue
				}
				v["start"] = from.Format(time.DateOnly)
				g += 2
			}
			if f.hasEnd {
				from, to, ok := period(text[m[g]:m[g+1]])
				if !ok {
					continue
				}
				if f.endBeforeEndpoint {
					to = from.AddDate(0, 0, -1)
				}
				v["end"] = to.Format(time.DateOnly)
			}
			if s, e := v["start"], v["end"]; s != nil && e != nil && s.(string) > e.(string) {
				continue
			}
			hs = append(hs, hit{v, m[0], m[1]})
		}
	}
	return sortHits(hs)
}
