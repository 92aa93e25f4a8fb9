package rules

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// hit is one value a built-in extractor found, with its byte span in the text it scanned.
type hit struct {
	value      any
	start, end int
}

// builtin is a built-in extractor: onOriginal says whether it scans the original (capped) text
// instead of the normalized one.
type builtin struct {
	onOriginal bool
	scan       func(text string, now time.Time) []hit
}

// builtins are the extractors a pack can name with `builtin:` (see rules/README.md, "Extractors").
//
// Scanners are hand-written loops or precompiled RE2 expressions, so every one is linear in
// the text and cannot panic on malformed input.
var builtins = map[string]builtin{
	"year":       {scan: scanYears},
	"number":     {scan: scanNumbers},
	"quoted":     {onOriginal: true, scan: scanQuoted},
	"identifier": {onOriginal: true, scan: scanIdentifiers},
	"decorator":  {onOriginal: true, scan: scanDecorators},
	"call":       {onOriginal: true, scan: scanCalls},
	"path":       {onOriginal: true, scan: scanPaths},
	"date":       {scan: scanDates},
	"date_range": {scan: scanDateRanges},
}

// sortHits orders hits by position and drops those overlapping an earlier (or, at the same
// start, longer) one, so "fy 2023" is not also reported as "2023".
func sortHits(hs []hit) []hit {
	slices.SortStableFunc(hs, func(a, b hit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := hs[:0]
	last := -1
	for _, h := range hs {
		if h.start < last {
			continue
		}
		out = append(out, h)
		last = h.end
	}
	return out
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// byteAt returns s[i], or 0 outside s, so boundary checks need no length tests.
func byteAt(s string, i int) byte {
	if i < 0 || i >= len(s) {
		return 0
	}
	return s[i]
}

// reFY reads fiscal years: fy2023, fy23, fy 2023, fy-2023.
var reFY = regexp.MustCompile(`\bfy[ -]?(\d{4}|\d{2})\b`)

// reRelYear reads years relative to the clock; the capture group that matched says which.
var reRelYear = regexp.MustCompile(`\b(?:` +
	`((?:last|previous|past) year|l'anno scorso|anno scorso|lo scorso anno|l'anno passato|anno passato|(?:a|an|one|un) years? (?:ago|fa)|un anno fa)` +
	`|((?:this|current) year|quest'anno|questo anno|l'anno corrente|anno corrente|anno in corso)` +
	`|(next year|l'anno prossimo|anno prossimo|il prossimo anno|prossimo anno)` +
	`|([a-z0-9]+(?:-[a-z]+)?) (?:years ago|anni fa))\b`)

// scanYears finds absolute, fiscal and relative years.
func scanYears(text string, now time.Time) []hit {
	var hs []hit
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if j-i == 4 && !isLetter(byteAt(text, i-1)) && !isLetter(byteAt(text, j)) {
			if y, _ := strconv.Atoi(text[i:j]); y >= 1900 && y <= 2099 {
				hs = append(hs, hit{y, i, j})
			}
		}
		i = j
	}
	for _, m := range reFY.FindAllStringSubmatchIndex(text, -1) {
		y, _ := strconv.Atoi(text[m[2]:m[3]])
		if m[3]-m[2] == 2 {
			y += 2000
		}
		hs = append(hs, hit{y, m[0], m[1]})
	}
	for _, m := range findNear(reRelYear, text, keywordSpots(text, "year", "anno", "anni"), 32, 24) {
		var delta int
		switch {
		case m[2] >= 0:
			delta = -1
		case m[4] >= 0:
			delta = 0
		case m[6] >= 0:
			delta = 1
		default:
			n, ok := parseIntWord(text[m[8]:m[9]])
			if !ok || n > 1000 {
				continue
			}
			delta = -n
		}
		hs = append(hs, hit{now.Year() + delta, m[0], m[1]})
	}
	return sortHits(hs)
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

// reNumber reads English (1,234.5) and Italian (1.234,5) thousands groupings and plain decimals.
// The Italian form needs two groups or a decimal comma, so a lone "1.234" stays a decimal.
var reNumber = regexp.MustCompile(`-?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}\.\d{3},\d+|\d+(?:[.,]\d+)?)`)

// scanNumbers finds numbers that stand alone (not glued to letters or other digits).
func scanNumbers(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range reNumber.FindAllStringIndex(text, -1) {
		s, e := m[0], m[1]
		if text[s] == '-' && (isAlnum(byteAt(text, s-1)) || byteAt(text, s-1) == '-') {
			s++ // a hyphen after a word or digit is a dash, not a sign (2024-01-15)
		}
		if isLetter(byteAt(text, s-1)) || isLetter(byteAt(text, e)) || isDigit(byteAt(text, s-1)) {
			continue
		}
		if v, ok := parseNumber(text[s:e]); ok {
			hs = append(hs, hit{v, s, e})
		}
	}
	return hs
}

// parseNumber converts a matched number, deciding which separator is the decimal point.
func parseNumber(s string) (float64, bool) {
	lastDot, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	commas, dots := strings.Count(s, ","), strings.Count(s, ".")
	var clean string
	switch {
	case commas > 0 && dots > 0 && lastComma > lastDot, dots > 1:
		clean = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	case commas > 0 && (dots > 0 || commas > 1 || len(s)-lastComma == 4):
		clean = strings.ReplaceAll(s, ",", "")
	default:
		clean = strings.ReplaceAll(s, ",", ".")
	}
	v, err := strconv.ParseFloat(clean, 64)
	return v, err == nil
}

// quotePairs maps each opening quote to the quotes that may close it.
var quotePairs = map[rune]string{'"': `"`, '`': "`", '“': "”“", '«': "»", '‘': "’", '„': "“”"}

// scanQuoted finds non-empty text between matching quotes. Single quotes and ’ double as
// apostrophes (what's, l'anno), so they open only at a word start and close only before a
// non-letter.
func scanQuoted(text string, _ time.Time) []hit {
	var hs []hit
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		closers, ok := quotePairs[r]
		apos := r == '\''
		if apos {
			prev, _ := utf8.DecodeLastRuneInString(text[:i])
			ok, closers = !isWordRune(prev), "'"
		}
		if !ok {
			i += size
			continue
		}
		start := i + size
		end := findCloser(text, start, closers, apos || r == '‘')
		if end <= start {
			i += size
			continue
		}
		hs = append(hs, hit{text[start:end], start, end})
		_, csize := utf8.DecodeRuneInString(text[end:])
		i = end + csize
	}
	return hs
}

// findCloser returns the index of the first closing quote after start, or -1. With strict set
// a closer followed by a letter is an apostrophe and does not count.
func findCloser(text string, start int, closers string, strict bool) int {
	for j := start; j < len(text); {
		r, size := utf8.DecodeRuneInString(text[j:])
		if strings.ContainsRune(closers, r) {
			next, _ := utf8.DecodeRuneInString(text[j+size:])
			if !strict || !unicode.IsLetter(next) {
				return j
			}
		}
		if r == '\n' && strict {
			return -1
		}
		j += size
	}
	return -1
}

// isWordRune reports whether r is a letter or digit (utf8.RuneError, i.e. start of text, is not).
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// reIdent reads dotted identifier candidates; scanIdentifiers decides which look like code.
var reIdent = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*`)

// fileExts are extensions that make a dotted name a file, not an identifier.
var fileExts = map[string]bool{
	"py": true, "go": true, "js": true, "ts": true, "tsx": true, "jsx": true, "java": true, "rb": true,
	"rs": true, "c": true, "h": true, "cpp": true, "cs": true, "php": true, "kt": true, "swift": true,
	"yaml": true, "yml": true, "json": true, "toml": true, "ini": true, "cfg": true, "conf": true,
	"xml": true, "html": true, "css": true, "md": true, "txt": true, "csv": true, "sql": true,
	"sh": true, "lock": true, "mod": true, "sum": true, "env": true, "rego": true, "log": true,
	"pdf": true, "png": true, "jpg": true, "svg": true, "tf": true, "proto": true, "vue": true,
}

// scanIdentifiers finds code identifiers: camelCase, PascalCase with an inner capital,
// snake_case, SCREAMING_CASE, calls and dotted names with an identifier-like part.
func scanIdentifiers(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range reIdent.FindAllStringIndex(text, -1) {
		s, e := m[0], m[1]
		for e > s && text[e-1] == '.' {
			e--
		}
		prev, next := byteAt(text, s-1), byteAt(text, e)
		if prev == '@' || prev == '/' || prev == '\\' || prev == '.' || next == '/' || next == '@' ||
			next == ':' && byteAt(text, e+1) == '/' || isDigit(prev) || prev >= utf8.RuneSelf || next >= utf8.RuneSelf {
			continue
		}
		name := text[s:e]
		parts := strings.Split(name, ".")
		call := next == '('
		if !call && len(parts) > 1 && fileExts[strings.ToLower(parts[len(parts)-1])] {
			continue
		}
		if call || looksLikeCode(parts) {
			hs = append(hs, hit{name, s, e})
		}
	}
	return hs
}

// looksLikeCode reports whether a (dotted) name is code rather than prose.
func looksLikeCode(parts []string) bool {
	for _, p := range parts {
		if identLike(p) {
			return true
		}
	}
	// pkg.Name: a lower-case package and an exported name.
	return len(parts) == 2 && parts[0] != "" && parts[1] != "" &&
		'a' <= parts[0][0] && parts[0][0] <= 'z' && 'A' <= parts[1][0] && parts[1][0] <= 'Z' && len(parts[0]) > 1
}

// identLike reports whether one word is camelCase, PascalCase with an inner capital, or
// contains an underscore between letters or digits.
func identLike(w string) bool {
	if i := strings.IndexByte(w, '_'); i >= 0 {
		return strings.IndexFunc(w, func(r rune) bool { return r != '_' && r != '$' }) >= 0 &&
			strings.Trim(w, "_") != "" && strings.ContainsFunc(strings.Trim(w, "_"), unicode.IsLetter) &&
			len(strings.Trim(w, "_")) > 1
	}
	sawLower := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'a' <= c && c <= 'z':
			sawLower = true
		case 'A' <= c && c <= 'Z' && sawLower:
			return true
		}
	}
	return false
}

// reDecorator reads @name and @pkg.name.
var reDecorator = regexp.MustCompile(`@([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

// scanDecorators finds decorators; an @ glued to a preceding word is an e-mail address.
func scanDecorators(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range reDecorator.FindAllStringSubmatchIndex(text, -1) {
		if p := byteAt(text, m[0]-1); isAlnum(p) || p == '_' || p == '.' || p == '-' || p >= utf8.RuneSelf {
			continue
		}
		hs = append(hs, hit{text[m[2]:m[3]], m[2], m[3]})
	}
	return hs
}

// reCall reads name(args) with simple arguments.
var reCall = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*)\([\w\s,.'"=:*\-\[\]]{0,80}\)`)

// scanCalls finds function and method calls and returns their names.
func scanCalls(text string, _ time.Time) []hit {
	var hs []hit
	if strings.IndexByte(text, '(') < 0 {
		return nil // the common case for prose: skip the regex entirely
	}
	for _, m := range reCall.FindAllStringSubmatchIndex(text, -1) {
		if p := byteAt(text, m[2]-1); p == '@' || p == '/' || p >= utf8.RuneSelf {
			continue
		}
		hs = append(hs, hit{text[m[2]:m[3]], m[2], m[3]})
	}
	return hs
}

// isPathByte reports whether c may appear in a path or glob.
func isPathByte(c byte) bool {
	return isAlnum(c) || strings.IndexByte("_-./*{}~", c) >= 0
}

// scanPaths finds file paths, URL paths and globs.
func scanPaths(text string, _ time.Time) []hit {
	var hs []hit
	for i := 0; i < len(text); {
		if !isPathByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isPathByte(text[j]) {
			j++
		}
		s, e := i, j
		for e > s && (text[e-1] == '.' || text[e-1] == '-') {
			e-- // sentence punctuation after a path
		}
		i = j
		if p := byteAt(text, s-1); p == '@' || p == ':' || p == '\\' || p >= utf8.RuneSelf || byteAt(text, j) >= utf8.RuneSelf {
			continue
		}
		if e > s && isPath(text[s:e]) {
			hs = append(hs, hit{text[s:e], s, e})
		}
	}
	return hs
}

// reDateLike rejects numeric dates and plain decimals that look like paths.
var reDateLike = regexp.MustCompile(`^[\d./-]+$`)

// isPath decides whether a token made of path bytes is a path.
func isPath(t string) bool {
	if reDateLike.MatchString(t) || !strings.ContainsFunc(t, unicode.IsLetter) && !strings.Contains(t, "*") {
		return false
	}
	last := t[strings.LastIndexByte(t, '/')+1:]
	ext := ""
	if k := strings.LastIndexByte(last, '.'); k > 0 {
		ext = strings.ToLower(last[k+1:])
	}
	if strings.Contains(t, "/") {
		return t != "/" && (t[0] == '/' || t[0] == '.' || t[0] == '~' || strings.Contains(t, "*") ||
			fileExts[ext] || strings.HasSuffix(t, "/") || strings.Count(t, "/") >= 2)
	}
	if strings.Contains(t, "*") {
		return strings.ContainsAny(t, ".") || len(t) > 1 && strings.ContainsFunc(t, unicode.IsLetter)
	}
	return fileExts[ext] && len(last) > len(ext)+1
}

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
func scanDates(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range findNear(reDate, text, yearSpots(text), 32, 8) {
		if from, to, ok := period(text[m[0]:m[1]]); ok && from.Equal(to) {
			hs = append(hs, hit{from.Format(time.DateOnly), m[0], m[1]})
		}
	}
	return hs
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
	hasStart, hasEnd  bool
	endBeforeEndpoint bool
}{
	{re: regexp.MustCompile(`\b(?:between|tra|fra) ` + art + `(` + endpoint + `) (?:and|e) ` + art + `(` + endpoint + `)\b`), hasStart: true, hasEnd: true},
	{re: regexp.MustCompile(`\bfrom ` + art + `(` + endpoint + `) (?:to|until|till|through|thru) ` + art + `(` + endpoint + `)\b`), hasStart: true, hasEnd: true},
	{re: regexp.MustCompile(`\b(?:dal|dall'|dalla|da) ?(` + endpoint + `) (?:al|all'|alla|a|fino al|fino a) ?(` + endpoint + `)\b`), hasStart: true, hasEnd: true},
	{re: regexp.MustCompile(`\b(?:since|starting|starting from|after|a partire dal|a partire da|dal|dall'|dopo il) ?` + art + `(` + endpoint + `)\b`), hasStart: true},
	{re: regexp.MustCompile(`\b(?:before|prima del|prima di|prima dell') ?` + art + `(` + endpoint + `)\b`), hasEnd: true, endBeforeEndpoint: true},
	{re: regexp.MustCompile(`\b(?:until|till|up to|fino al|fino a|entro il|entro) ` + art + `(` + endpoint + `)\b`), hasEnd: true},
}

// scanDateRanges finds date ranges; the result is a map with "start" and/or "end".
func scanDateRanges(text string, _ time.Time) []hit {
	var hs []hit
	spots := yearSpots(text)
	for _, f := range rangeForms {
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

// numberWords are the English and Italian number morphemes parseIntWord composes.
var numberWords = map[string]int{
	"zero": 0, "one": 1, "a": 1, "an": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
	"fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
	"ninety": 90, "dozen": 12, "couple": 2,
	"uno": 1, "un": 1, "una": 1, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "sei": 6, "sette": 7,
	"otto": 8, "nove": 9, "dieci": 10, "undici": 11, "dodici": 12, "tredici": 13, "quattordici": 14,
	"quindici": 15, "sedici": 16, "diciassette": 17, "diciotto": 18, "diciannove": 19,
	"venti": 20, "vent": 20, "trenta": 30, "trent": 30, "quaranta": 40, "quarant": 40,
	"cinquanta": 50, "cinquant": 50, "sessanta": 60, "sessant": 60, "settanta": 70, "settant": 70,
	"ottanta": 80, "ottant": 80, "novanta": 90, "novant": 90, "dozzina": 12,
}

// numberScales multiply what precedes them.
var numberScales = map[string]int{"hundred": 100, "cento": 100, "thousand": 1000, "mille": 1000, "mila": 1000}

// parseIntWord reads an integer written in digits or as an English/Italian number word
// ("10", "ten", "dieci", "twenty", "venti", "twenty-five", "venticinque", "hundred", "cento", up to 1000; "a dozen"/"una dozzina" = 12).
func parseIntWord(s string) (int, bool) {
	s = strings.TrimSpace(normalizeTerm(s, normOptions{lowercase: true, foldDiacritics: true, collapseWhitespace: true}))
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	if s == "" || len(s) > 100 {
		return 0, false
	}
	total, cur, seen := 0, 0, false
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' }) {
		if word == "and" || word == "e" {
			continue
		}
		// Italian writes compounds as one word (venticinque, duecentoventi): split greedily
		// into the longest known morphemes.
		for word != "" {
			k := longestMorpheme(word)
			if k == 0 {
				return 0, false
			}
			m := word[:k]
			word = word[k:]
			seen = true
			switch sc := numberScales[m]; {
			case sc == 100:
				cur = max(cur, 1) * 100
			case sc == 1000:
				total += max(cur, 1) * 1000
				cur = 0
			case m == "dozen" || m == "dozzina":
				cur = max(cur, 1) * 12
			default:
				cur += numberWords[m]
			}
		}
	}
	n := total + cur
	return n, seen && n <= 1000
}

// longestMorpheme returns the length of the longest number morpheme that prefixes w, or 0.
func longestMorpheme(w string) int {
	for k := min(len(w), 11); k > 0; k-- {
		m := w[:k]
		if _, ok := numberWords[m]; ok {
			if (m == "a" || m == "e") && k != len(w) {
				continue // "a"/"e" are articles or conjunctions only as whole words
			}
			return k
		}
		if _, ok := numberScales[m]; ok {
			return k
		}
	}
	return 0
}

// findNear runs re only on windows around spots (byte offsets of anchoring tokens such as
// years), widened by before/after bytes and out to non-word boundaries so \b behaves as on
// the whole text. Dates and year phrases are short and always contain their anchor, so this
// finds the same matches as a full scan at a fraction of the cost on long questions.
func findNear(re *regexp.Regexp, text string, spots []int, before, after int) [][]int {
	var out [][]int
	for i := 0; i < len(spots); {
		s, e := max(0, spots[i]-before), min(len(text), spots[i]+after)
		i++
		for i < len(spots) && spots[i]-before <= e {
			e = min(len(text), spots[i]+after)
			i++
		}
		for s > 0 && isAlnum(text[s-1]) {
			s--
		}
		for e < len(text) && isAlnum(text[e]) {
			e++
		}
		for _, m := range re.FindAllStringSubmatchIndex(text[s:e], -1) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += s
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// yearSpots returns the offsets of 4-digit runs: every date and range endpoint contains one.
func yearSpots(text string) []int {
	var spots []int
	for i := 0; i < len(text); {
		if !isDigit(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		if j-i == 4 {
			spots = append(spots, i)
		}
		i = j
	}
	return spots
}

// keywordSpots returns the sorted offsets of every occurrence of the keywords.
func keywordSpots(text string, words ...string) []int {
	var spots []int
	for _, w := range words {
		for i := 0; ; {
			k := strings.Index(text[i:], w)
			if k < 0 {
				break
			}
			spots = append(spots, i+k)
			i += k + len(w)
		}
	}
	slices.Sort(spots)
	return spots
}
