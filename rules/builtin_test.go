package rules

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// builtinNow is the clock for relative years in the tests.
var builtinNow = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

// runBuiltin scans in like the classifier: normalized or original text per the builtin.
func runBuiltin(name, in string) (values []any, spans []string) {
	b := builtins[name]
	text := in
	if !b.onOriginal {
		text = normalizeTerm(in, allNorm)
	}
	for _, h := range b.scan(text, builtinNow) {
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
			for _, h := range b.scan(text, builtinNow) {
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
				_ = bi.scan(text, builtinNow)
			}
		})
	}
}
