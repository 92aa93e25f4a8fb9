package rules

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

// builtinNow is the clock for relative years in the tests.
var builtinNow = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

// builtinClock reads builtinNow.
func builtinClock() time.Time { return builtinNow }

// runBuiltin scans in like the classifier: normalized or original text per the builtin.
func runBuiltin(name, in string) (values []any, spans []string) {
	b := builtins[name]
	text := in
	if !b.onOriginal {
		text = normalizeTerm(in, allNorm)
	}
	for _, h := range b.scan(text, builtinClock, nil) {
		values = append(values, h.value)
		spans = append(spans, text[h.start:h.end])
	}
	return values, spans
}

func TestBuiltins(t *testing.T) {
	r := func(start, end string) map[string]any {
		m := map[string]any{}
		if start != "" {
			m["start"] = start
		}
		if end != "" {
			m["end"] = end
		}
		return m
	}
	cases := []struct {
		builtin, in string
		want        []any
	}{
		{"year", "Show critical findings in hotels from 2024", []any{2024}},
		{"year", "FY2023 revenue", []any{2023}},
		{"year", "fy23 and FY 2022", []any{2023, 2022}},
		{"year", "revenue last year", []any{2024}},
		{"year", "previous year vs this year", []any{2024, 2025}},
		{"year", "budget for next year", []any{2026}},
		{"year", "two years ago", []any{2023}},
		{"year", "a year ago", []any{2024}},
		{"year", "fatturato dell’anno scorso", []any{2024}},
		{"year", "l'anno scorso e quest'anno", []any{2024, 2025}},
		{"year", "lo scorso anno", []any{2024}},
		{"year", "anno prossimo", []any{2026}},
		{"year", "due anni fa", []any{2023}},
		{"year", "on 2024-01-15", []any{2024}},
		{"year", "order 12024 and 1850 and 2150", nil},
		{"year", "between 2019 and 2021", []any{2019, 2021}},
		// Amounts of money are not years.
		{"year", "fatturato tra 1000 e 2000 euro nel q1 2023", []any{2023}},
		{"year", "orders over $2000 in 2024 and under € 1999", []any{2024}},
		{"year", "sales above 1950 usd, 1960 dollari, 1970eur in 2021", []any{2021}},
		{"year", "2024 europe and 2023 euros", []any{2024}},
		{"number", "top 10 findings", []any{10.0}},
		{"number", "more than 1,234,567.89 euro", []any{1234567.89}},
		{"number", "più di 1.234.567,89 euro", []any{1234567.89}},
		{"number", "1.234,5 and 3.5 and 2,5", []any{1234.5, 3.5, 2.5}},
		{"number", "delta -42 points", []any{-42.0}},
		{"number", "1 234", []any{1.0, 234.0}},
		{"number", "no numbers here", nil},
		{"number", "q1 and fy2023", nil},
		{"quoted", `find "payment failed" errors`, []any{"payment failed"}},
		{"quoted", `search 'timeout' now`, []any{"timeout"}},
		{"quoted", "what's the status of l'anno", nil},
		{"quoted", "cerca “fattura” e «cliente»", []any{"fattura", "cliente"}},
		{"quoted", "run `go test` please", []any{"go test"}},
		{"quoted", "it’s ‘quoted’ here", []any{"quoted"}},
		{"quoted", `empty "" quotes`, nil},
		{"quoted", `'don't stop' me`, []any{"don't stop"}},
		{"identifier", "where is processPayment called", []any{"processPayment"}},
		{"identifier", "the UserModel and LoginHandler classes", []any{"UserModel", "LoginHandler"}},
		{"identifier", "Find TODO items", nil},
		{"identifier", "check requires_auth and user_id", []any{"requires_auth", "user_id"}},
		{"identifier", "rotate API_KEY", []any{"API_KEY"}},
		{"identifier", "who calls authenticate()?", []any{"authenticate"}},
		{"identifier", "uses database.query() a lot", []any{"database.query"}},
		{"identifier", "see os.Getenv", []any{"os.Getenv"}},
		{"identifier", "open src/auth_utils.py and https://example.com/userId", nil},
		{"identifier", "edit config.yaml", nil},
		{"identifier", "mail john_doe@example.com", nil},
		{"decorator", "routes with @requires_auth", []any{"requires_auth"}},
		{"decorator", "@app.route handlers", []any{"app.route"}},
		{"decorator", "write to user@example.com", nil},
		{"call", "who calls authenticate()?", []any{"authenticate"}},
		{"call", "database.query(sql, args) is slow", []any{"database.query"}},
		{"call", "no calls (really) here", nil},
		{"path", "list /api/users endpoints", []any{"/api/users"}},
		{"path", "GET /api/users/{id}.", []any{"/api/users/{id}"}},
		{"path", "files in src/auth/*.py and tests/**", []any{"src/auth/*.py", "tests/**"}},
		{"path", "match test*.py or *.go", []any{"test*.py", "*.go"}},
		{"path", "edit config.yaml and src/auth.py", []any{"config.yaml", "src/auth.py"}},
		{"path", "run ./scripts/run.sh", []any{"./scripts/run.sh"}},
		{"path", "on 15/01/2024 about 3.5 and and/or", nil},
		{"path", "plain words only.", nil},
		{"date", "since 2024-01-15", []any{"2024-01-15"}},
		{"date", "on 15/01/2024 or 16.01.2024", []any{"2024-01-15", "2024-01-16"}},
		{"date", "15 January 2024", []any{"2024-01-15"}},
		{"date", "January 15, 2024", []any{"2024-01-15"}},
		{"date", "il 15 gennaio 2024", []any{"2024-01-15"}},
		{"date", "3 Sept 2023 and 4 dic 2023", []any{"2023-09-03", "2023-12-04"}},
		{"date", "2024-02-30 is invalid", nil},
		{"date", "31/04/2024", nil},
		{"date_range", "between 2022 and 2024", []any{r("2022-01-01", "2024-12-31")}},
		{"date_range", "from March 2023 to May 2023", []any{r("2023-03-01", "2023-05-31")}},
		{"date_range", "from 2023-01-15 until 2023-02-01", []any{r("2023-01-15", "2023-02-01")}},
		{"date_range", "dal 2022 al 2023", []any{r("2022-01-01", "2023-12-31")}},
		{"date_range", "tra gennaio 2023 e marzo 2023", []any{r("2023-01-01", "2023-03-31")}},
		{"date_range", "fra il 2020 e il 2021", []any{r("2020-01-01", "2021-12-31")}},
		{"date_range", "da febbraio 2024 a aprile 2024", []any{r("2024-02-01", "2024-04-30")}},
		{"date_range", "since 2021", []any{r("2021-01-01", "")}},
		{"date_range", "dal 15/01/2024", []any{r("2024-01-15", "")}},
		{"date_range", "before 2023", []any{r("", "2022-12-31")}},
		{"date_range", "prima del 2023", []any{r("", "2022-12-31")}},
		{"date_range", "until March 2024", []any{r("", "2024-03-31")}},
		{"date_range", "findings in 2023", nil},
		{"date_range", "between 2024 and 2022", nil},
	}
	for _, tc := range cases {
		t.Run(tc.builtin+"/"+tc.in, func(t *testing.T) {
			got, spans := runBuiltin(tc.builtin, tc.in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("%s(%q) = %#v (spans %q), want %#v", tc.builtin, tc.in, got, spans, tc.want)
			}
		})
	}
}

func TestBuiltinSpans(t *testing.T) {
	cases := []struct {
		builtin, in, span string
	}{
		{"quoted", `find "payment failed" errors`, "payment failed"},
		{"year", "revenue fy 2023", "fy 2023"},
		{"decorator", "@requires_auth", "requires_auth"},
		{"call", "x = authenticate(user)", "authenticate"},
		{"date_range", "dal 2022 al 2023 ok", "dal 2022 al 2023"},
	}
	for _, tc := range cases {
		t.Run(tc.builtin, func(t *testing.T) {
			if _, spans := runBuiltin(tc.builtin, tc.in); len(spans) == 0 || spans[0] != tc.span {
				t.Fatalf("%s(%q) spans %q, want %q first", tc.builtin, tc.in, spans, tc.span)
			}
		})
	}
}

func TestParseIntWord(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"10", 10, true}, {"ten", 10, true}, {"Dieci", 10, true}, {"twenty", 20, true}, {"venti", 20, true},
		{"twenty-five", 25, true}, {"twenty five", 25, true}, {"venticinque", 25, true}, {"ventuno", 21, true},
		{"ventitré", 23, true}, {"hundred", 100, true}, {"cento", 100, true}, {"a hundred", 100, true},
		{"two hundred and five", 205, true}, {"duecentoventi", 220, true}, {"thousand", 1000, true},
		{"mille", 1000, true}, {"a dozen", 12, true}, {"una dozzina", 12, true}, {"trentotto", 38, true},
		{"", 0, false}, {"many", 0, false}, {"dieciX", 0, false}, {"two thousand", 0, false}, {"e", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := parseIntWord(tc.in)
			if ok != tc.ok || ok && got != tc.want {
				t.Fatalf("parseIntWord(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func FuzzBuiltins(f *testing.F) {
	for _, s := range []string{
		"between 2022 and 2024", "“x” 'y' `z`", "@app.route authenticate() src/*.py", "1.234,5 fy23",
		"15 gennaio 2024", "dal 2022 al", "l'anno scorso", "\xff\"\xfe'", "a.b.c.d()",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, b := range builtins {
			text := s
			if !b.onOriginal {
				text = normalizeTerm(s, allNorm)
			}
			for _, h := range b.scan(text, builtinClock, nil) {
				if h.start < 0 || h.end > len(text) || h.start >= h.end || h.value == nil {
					t.Fatalf("%s(%q): bad hit %+v", name, text, h)
				}
			}
		}
	})
}

func BenchmarkBuiltins(b *testing.B) {
	q := "Show me the critical findings from 15 January 2024 in /api/users and src/auth/*.py where " +
		"processPayment() or @requires_auth is used, between 2022 and 2024, l'anno scorso: \"timeout\" > 1,234.5?"
	q += strings.Repeat(" ", max(0, 200-len(q)))
	norm := normalizeTerm(q, allNorm)
	for _, name := range []string{"year", "number", "quoted", "identifier", "decorator", "call", "path", "date", "date_range"} {
		bi := builtins[name]
		text := norm
		if bi.onOriginal {
			text = q
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = bi.scan(text, builtinClock, nil)
			}
		})
	}
}

// legacyBuiltins are the regex-based scanners the hand-written ones replaced; the scanners
// not listed here did not change.
var legacyBuiltins = map[string]func(string, time.Time) []hit{
	"year": legacyScanYears, "number": legacyScanNumbers, "quoted": legacyScanQuoted,
	"identifier": legacyScanIdentifiers, "decorator": legacyScanDecorators, "call": legacyScanCalls,
	"path": legacyScanPaths, "date": legacyScanDates, "date_range": legacyScanDateRanges,
}

// sameAsLegacy fails when a builtin's hits on s differ from the legacy scanner's.
func sameAsLegacy(t *testing.T, s string) {
	t.Helper()
	for name, old := range legacyBuiltins {
		b := builtins[name]
		text := s
		if !b.onOriginal {
			text = normalizeTerm(s, allNorm)
		}
		// The buffer the classifier reuses holds the last question's hits beyond its length.
		buf := append(make([]hit, 0, 4), hit{"stale", 0, 1}, hit{"stale", 1, 2})[:0]
		got, want := b.scan(text, builtinClock, buf), old(text, builtinNow)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s(%q):\n got  %v\n want %v", name, text, got, want)
		}
	}
}

// builtinPieces are fragments that exercise every scanner's edge cases when glued together.
var builtinPieces = []string{
	"fy", "FY", "fy2023", "fy 23", "fy-2024", "fy123", "2024", "1999", "12024", "-", "--", "-5", "1,234", ",567", ".89",
	"1.234.567", ",5", "1.2", "3,", "12345", "0", "\"", "'", "`", "“", "”", "«", "»", "‘", "’", "„", "l'anno", "what's",
	"processPayment", "UserModel", "user_id", "API_KEY", "__", "_x", "$var", "a$b", "obj.method", "os.Getenv", "(", ")", "()",
	"(x, y)", "(" + strings.Repeat("a", 79) + ")", "(" + strings.Repeat("b", 81) + ")", "@", "@app.route", "@_x", "user@x.com",
	".", "..", "/", "/api/users", "src/auth/*.py", "*.go", "test*.py", "config.yaml", "x.PY", "./run.sh", "~/", "{id}", "15/01/2024",
	"3.5", "and/or", ":", "\\", "é", "è", "\xff", " ", "  ", "\t", "\n", "a", "B", "z9", "last year", "two years ago",
	"between 2022 and 2024", "from march 2023 to may 2023", "dal 2022 al 2023", "since 2021", "before 2023", "until march 2024",
	"prima del 2023", "tra il 2020 e il 2021", "entro il 2025", "2024-01-15", "15 january 2024", "x.y.z()", "a.b.", "http://x/y",
	"twenty-five years ago", "un anno fa", "quest'anno", "anno prossimo", "due anni fa", "a year ago", "one years ago",
	"x-ab years ago", "year", "anno", "anni", "years", "lastyear", "_last year", "il prossimo anno", "1000 years ago", "ago",
	"january 15, 2024", "3 sept. 2023", "15th of march 2024", "1st may 2024", "dic,", "31", "2nd", ", ",
	"fa", "previous year", "this year", "next year", "anno in corso", strings.Repeat("x", 30),
}

func TestBuiltinsMatchLegacy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for range samples(20000) {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(builtinPieces[rng.IntN(len(builtinPieces))])
			if rng.IntN(3) == 0 {
				b.WriteByte(" ,;!?"[rng.IntN(5)])
			}
		}
		sameAsLegacy(t, b.String())
	}
}

func FuzzBuiltinsLegacy(f *testing.F) {
	for _, s := range builtinPieces {
		f.Add(s)
	}
	f.Add("Show me the critical findings from 15 January 2024 in /api/users and src/auth/*.py where processPayment() or @requires_auth is used")
	f.Fuzz(func(t *testing.T, s string) { sameAsLegacy(t, s) })
}

// legacyReFY reads fiscal years: fy2023, fy23, fy 2023, fy-2023.
var legacyReFY = regexp.MustCompile(`\bfy[ -]?(\d{4}|\d{2})\b`)

// legacyReRelYear reads years relative to the clock; the capture group that matched says which.
var legacyReRelYear = regexp.MustCompile(`\b(?:` +
	`((?:last|previous|past) year|l'anno scorso|anno scorso|lo scorso anno|l'anno passato|anno passato|(?:a|an|one|un) years? (?:ago|fa)|un anno fa)` +
	`|((?:this|current) year|quest'anno|questo anno|l'anno corrente|anno corrente|anno in corso)` +
	`|(next year|l'anno prossimo|anno prossimo|il prossimo anno|prossimo anno)` +
	`|([a-z0-9]+(?:-[a-z]+)?) (?:years ago|anni fa))\b`)

// legacyScanDates finds calendar dates and returns them as YYYY-MM-DD; impossible dates are skipped.
func legacyScanDates(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range findNear(reDate, text, yearSpots(text, nil), 32, 8) {
		if from, to, ok := period(text[m[0]:m[1]]); ok && from.Equal(to) {
			hs = append(hs, hit{from.Format(time.DateOnly), m[0], m[1]})
		}
	}
	return hs
}

// legacyScanYears finds absolute, fiscal and relative years.
func legacyScanYears(text string, now time.Time) []hit {
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
		if j-i == 4 && !isLetter(byteAt(text, i-1)) && !isLetter(byteAt(text, j)) && !isAmount(text, i, j) {
			if y, _ := strconv.Atoi(text[i:j]); y >= 1900 && y <= 2099 {
				hs = append(hs, hit{y, i, j})
			}
		}
		i = j
	}
	for _, m := range legacyReFY.FindAllStringSubmatchIndex(text, -1) {
		y, _ := strconv.Atoi(text[m[2]:m[3]])
		if m[3]-m[2] == 2 {
			y += 2000
		}
		hs = append(hs, hit{y, m[0], m[1]})
	}
	for _, m := range findNear(legacyReRelYear, text, keywordSpots(nil, text, "year", "anno", "anni"), 32, 24) {
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

// legacyReNumber reads English (1,234.5) and Italian (1.234,5) thousands groupings and plain decimals.
// The Italian form needs two groups or a decimal comma, so a lone "1.234" stays a decimal.
var legacyReNumber = regexp.MustCompile(`-?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3}){2,}(?:,\d+)?|\d{1,3}\.\d{3},\d+|\d+(?:[.,]\d+)?)`)

// legacyScanNumbers finds numbers that stand alone (not glued to letters or other digits).
func legacyScanNumbers(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range legacyReNumber.FindAllStringIndex(text, -1) {
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

// legacyQuotePairs maps each opening quote to the quotes that may close it.
var legacyQuotePairs = map[rune]string{'"': `"`, '`': "`", '“': "”“", '«': "»", '‘': "’", '„': "“”"}

// legacyScanQuoted finds non-empty text between matching quotes. Single quotes and ’ double as
// apostrophes (what's, l'anno), so they open only at a word start and close only before a
// non-letter.
func legacyScanQuoted(text string, _ time.Time) []hit {
	var hs []hit
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		closers, ok := legacyQuotePairs[r]
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

// legacyReIdent reads dotted identifier candidates; legacyScanIdentifiers decides which look like code.
var legacyReIdent = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*`)

// legacyScanIdentifiers finds code identifiers: camelCase, PascalCase with an inner capital,
// snake_case, SCREAMING_CASE, calls and dotted names with an identifier-like part.
func legacyScanIdentifiers(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range legacyReIdent.FindAllStringIndex(text, -1) {
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
		if call || legacyLooksLikeCode(parts) {
			hs = append(hs, hit{name, s, e})
		}
	}
	return hs
}

// legacyLooksLikeCode reports whether a (dotted) name is code rather than prose.
func legacyLooksLikeCode(parts []string) bool {
	for _, p := range parts {
		if identLike(p) {
			return true
		}
	}
	// pkg.Name: a lower-case package and an exported name.
	return len(parts) == 2 && parts[0] != "" && parts[1] != "" &&
		'a' <= parts[0][0] && parts[0][0] <= 'z' && 'A' <= parts[1][0] && parts[1][0] <= 'Z' && len(parts[0]) > 1
}

// legacyReDecorator reads @name and @pkg.name.
var legacyReDecorator = regexp.MustCompile(`@([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

// legacyScanDecorators finds decorators; an @ glued to a preceding word is an e-mail address.
func legacyScanDecorators(text string, _ time.Time) []hit {
	var hs []hit
	for _, m := range legacyReDecorator.FindAllStringSubmatchIndex(text, -1) {
		if p := byteAt(text, m[0]-1); isAlnum(p) || p == '_' || p == '.' || p == '-' || p >= utf8.RuneSelf {
			continue
		}
		hs = append(hs, hit{text[m[2]:m[3]], m[2], m[3]})
	}
	return hs
}

// legacyReCall reads name(args) with simple arguments.
var legacyReCall = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*)\([\w\s,.'"=:*\-\[\]]{0,80}\)`)

// legacyScanCalls finds function and method calls and returns their names.
func legacyScanCalls(text string, _ time.Time) []hit {
	var hs []hit
	if strings.IndexByte(text, '(') < 0 {
		return nil // the common case for prose: skip the regex entirely
	}
	for _, m := range legacyReCall.FindAllStringSubmatchIndex(text, -1) {
		if p := byteAt(text, m[2]-1); p == '@' || p == '/' || p >= utf8.RuneSelf {
			continue
		}
		hs = append(hs, hit{text[m[2]:m[3]], m[2], m[3]})
	}
	return hs
}

// legacyScanPaths finds file paths, URL paths and globs.
func legacyScanPaths(text string, _ time.Time) []hit {
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
		if e > s && legacyIsPath(text[s:e]) {
			hs = append(hs, hit{text[s:e], s, e})
		}
	}
	return hs
}

// legacyReDateLike rejects numeric dates and plain decimals that look like paths.
var legacyReDateLike = regexp.MustCompile(`^[\d./-]+$`)

// legacyIsPath decides whether a token made of path bytes is a path.
func legacyIsPath(t string) bool {
	if legacyReDateLike.MatchString(t) || !strings.ContainsFunc(t, unicode.IsLetter) && !strings.Contains(t, "*") {
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

// legacyScanDateRanges finds date ranges; the result is a map with "start" and/or "end".
func legacyScanDateRanges(text string, _ time.Time) []hit {
	var hs []hit
	spots := yearSpots(text, nil)
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

// TestIdentLikeOnePass compares identLike, which decides in one pass, with the rule it
// implements (an '_' decides by the underscore rule, else a capital after a lower-case
// letter), on every word of up to four bytes over the bytes that matter, and checks that
// scanIdentifiers' shortcut for names without a '.' agrees with looksLikeCode.
func TestIdentLikeOnePass(t *testing.T) {
	ref := func(w string) bool {
		if strings.IndexByte(w, '_') >= 0 {
			tr := strings.Trim(w, "_")
			return strings.IndexFunc(w, func(r rune) bool { return r != '_' && r != '$' }) >= 0 &&
				tr != "" && strings.ContainsFunc(tr, unicode.IsLetter) && len(tr) > 1
		}
		sawLower := false
		for i := 0; i < len(w); i++ {
			switch c := w[i]; {
			case 'a' <= c && c <= 'z':
				sawLower = true
			case 'A' <= c && c <= 'Z' && sawLower:
				return true
			}
		}
		return false
	}
	alphabet := []string{"a", "z", "A", "Z", "_", "$", "1", "é"}
	var words func(prefix string, n int)
	checked := 0
	words = func(w string, n int) {
		if got, want := identLike(w), ref(w); got != want {
			t.Fatalf("identLike(%q) = %v, want %v", w, got, want)
		}
		if !strings.Contains(w, ".") && looksLikeCode(w) != identLike(w) {
			t.Fatalf("looksLikeCode(%q) = %v, identLike %v", w, looksLikeCode(w), identLike(w))
		}
		checked++
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			words(w+c, n-1)
		}
	}
	words("", 4)
	if checked < 4000 {
		t.Fatalf("checked only %d words", checked)
	}
}
