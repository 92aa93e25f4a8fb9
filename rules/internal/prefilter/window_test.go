package prefilter

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/weirgw/weir/rules/internal/fold"
)

// planCorpus are patterns whose plans (window, branch, original-text) sit at the edges the
// proofs in prefilter_window.go and prefilter_branch.go rely on: context runes at window
// ends, ^ and $ next to a window, several items with different reaches, repeated hosts.
var planCorpus = []string{
	`\b([a-z]+) department\b`,
	`\b(\w+) department\b`,
	`\S*\*\S*`,
	`(?:^|\s)/[a-z0-9_{}:.*-]+`,
	`\b[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]+\b`,
	`\b(?:week|wk|w)\s?(\d{1,3})\b`,
	`\b(\d+(?:[.,]\d+)?\s?(?:mg/kg|mg|ml|µg))\b`,
	`\b(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|_+[a-z0-9][a-z0-9_]*)\b`,
	`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b`,
	`\b(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z]{2,}[a-z][a-z0-9]{2,})\b`,
	`(?i)\b(?:from|by|the|whose)\s+([a-z&]+)\s+(?:department|dept|team)\b`,
	`\b[A-Z]\w*(?:Error|Exception)\b`,
	`x+\$$`,
	`^ab*\.c`,
	`\Bé\.\w*`,
	`(?m)^\w*:\d+$`,
	`\b(?:dosed|treated)\b.*\bper protocol\b|\bprotocol (?:deviations?|violations?)\b|\bdeviat\w*\b`,
	`\b(?:and|but)\s+(?:did|were)\s+(?:[\w-]+\s+){0,2}?patients?\b|^(?:did|were)\s+any\b`,
	`(?:\bshow\b.*\bfindings?\b|\bwhich\s+(?:\w+\s+){0,2}?findings?\s+are\b).*(?:\band\b|[.;,]).*\bwhy\b`,
	`\b(?:show|list)\s+(?:me\s+)?(?:\d+|all|the)\s+(?:rows|items)\b`,
	`^(?:(?:hi|ok|thanks)[\s,.!]*)+$`,
	`(?i)\bcong\s+ty\b|\b(?:Corp|Co|Inc)\b\.?`,
	`(?i)\b(?:throttl|retr[iy]|deserializ|departmen|persist)[a-z]*(?:[^\w(.]|\.(?:\s|$)|$)`,
	`\b[a-z]+_[A-Z]{2}\w*|\bX[A-Z]+\$`,
	`^\s*(?:ok\s+)?[A-Z][a-z]+[A-Z]\w*\s*$`,
	`[a-z]+_\d+\b|_\d+$`,
	`^(?:please\s+|so,?\s+)?how\b|\bwhat does\b`,
	`\b[a-z]+(?:_[a-z]+)+\b|\b[a-z]+\.[a-z]+\(\)`,
}

// planTexts builds texts for the corpus: its literal fragments in both cases, around the
// bytes that sit at the edges of \b, \s, ^, $ and multi-byte runes.
func planTexts(rng *rand.Rand, n int, pats []string) []string {
	pool := []string{" ", " ", "  ", "\n", "\t", ".", ",", "_", "*", "/", "x", "X", "é", "É", "K", "ſ", "µ", "\xff", "\xc3", "12", "2024", "$", ":", "-"}
	word := regexp.MustCompile(`[A-Za-z0-9&]+`)
	for _, p := range pats {
		for _, w := range word.FindAllString(p, -1) {
			// (?i)k and (?i)s also match the Kelvin sign and the long s.
			odd := strings.NewReplacer("k", "\u212a", "s", "ſ", "S", "ſ").Replace(w)
			pool = append(pool, w, strings.ToUpper(w), strings.ToUpper(w[:1])+w[1:], odd)
		}
	}
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pool[rng.IntN(len(pool))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		out[i] = b.String()
	}
	return out
}

// compileOrig builds the original-text prefilter of pats, as compile does for `on: original`.
func compileOrig(t testing.TB, pats []string) (*Prefilter, []*regexp.Regexp) {
	t.Helper()
	res := make([]*regexp.Regexp, len(pats))
	for i, p := range pats {
		res[i] = regexp.MustCompile(p)
	}
	parsed := make([]*syntax.Regexp, len(res))
	srcs := make([]string, len(res))
	for i, re := range res {
		srcs[i] = re.String()
		sre, err := syntax.Parse(srcs[i], syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		parsed[i] = ExactCase(sre)
	}
	return newPrefilterSrc(parsed, srcs), res
}

func TestPlansMatchRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	texts := planTexts(rng, 6000, planCorpus)
	t.Run("normalized", func(t *testing.T) {
		parsed := make([]*syntax.Regexp, len(planCorpus))
		res := make([]*regexp.Regexp, len(planCorpus))
		for i, p := range planCorpus {
			res[i] = regexp.MustCompile(p)
			parsed[i], _ = syntax.Parse(res[i].String(), syntax.Perl)
		}
		pf := newPrefilterSrc(parsed, planCorpus)
		matched := 0
		for k, text := range texts {
			text = strings.Map(fold.Rune, text)
			if k%2 == 0 {
				text = canonical(text)
			}
			matched += checkAnchored(t, pf, res, text)
		}
		if matched == 0 {
			t.Fatal("no windowed or anchored pattern ever matched")
		}
	})
	t.Run("original", func(t *testing.T) {
		pf, res := compileOrig(t, planCorpus)
		matched := 0
		for _, text := range texts {
			matched += checkAnchored(t, pf, res, text)
		}
		if matched == 0 {
			t.Fatal("no windowed or anchored pattern ever matched")
		}
	})
}

func TestWindowPlanShapes(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		sets    [][]string // nil: no plan
	}{
		{`\b([a-z]+) department\b`, [][]string{{" department"}}},
		{`\S*\*\S*`, [][]string{{"*"}}},
		{`\b(?:week|wk|w)\s?(\d{1,3})\b`, [][]string{{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}},
		{`\b[a-z]+_[a-z]+\b|\b[a-z]+[A-Z]\w*`, [][]string{{"_"}, {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"}}},
		{`.*department`, nil},    // the reach crosses words
		{`\b(?:a|b)\w+`, nil},    // single letters are everywhere
		{`[a-z]+ [a-z]+\.`, nil}, // the reach holds the space and every letter
		{`\w+ (?:and|or)?`, nil}, // an optional set is not required
		{`(?:x\w+|\w+)@`, [][]string{{"@"}}},
		{`\b[A-Z]\w*Error\b`, [][]string{{"Error"}}},
	} {
		re := regexp.MustCompile(tc.pattern)
		parsed, _ := syntax.Parse(re.String(), syntax.Perl)
		w := newWindowPlan(parsed)
		if tc.sets == nil {
			if w != nil {
				t.Errorf("%q: unexpected window plan", tc.pattern)
			}
			continue
		}
		if w == nil {
			t.Errorf("%q: no window plan", tc.pattern)
			continue
		}
		var got [][]string
		for _, it := range w.items {
			got = append(got, slices.Sorted(slices.Values(it.set)))
		}
		if !slices.EqualFunc(got, tc.sets, slices.Equal) {
			t.Errorf("%q: items %q, want %q", tc.pattern, got, tc.sets)
		}
	}
}

func TestPrintRegexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pats := slices.Concat(planCorpus, pfCorpus, syntheticPatterns, []string{`(?U)a+b??`, `a{2,}?c{3}`, `(?s:.)(?-s:.)`, `[^\x00-\x{10FFFF}]`, `(?i)ſtraße|K`})
	texts := planTexts(rng, 400, pats)
	for _, p := range pats {
		re := regexp.MustCompile(p)
		parsed, _ := syntax.Parse(p, syntax.Perl)
		twin, err := regexp.Compile(printRegexp(parsed))
		if err != nil {
			t.Fatalf("%q printed as %q: %v", p, printRegexp(parsed), err)
		}
		for _, text := range texts {
			if re.MatchString(text) != twin.MatchString(text) || !slices.Equal(re.FindStringIndex(text), twin.FindStringIndex(text)) {
				t.Fatalf("%q printed as %q differs on %q", p, printRegexp(parsed), text)
			}
		}
	}
}

// FuzzOrigPlan checks one pattern's fast paths on the original text, where nothing is folded.
func FuzzOrigPlan(f *testing.F) {
	for _, p := range planCorpus {
		f.Add(p, "Show ME the Kelvin \u212a and ſ DEPT_X, HttpClient.get() in /a/b *x* 12 mg")
	}
	f.Add(`(?i)\bK\w+`, "\u212aelvin k K")
	f.Add(`\b\w+\.\w+\b`, "a.b \xffc.d\xc3")
	f.Add(`^(?:(?i:hi|ok)[\s,]*)+$`, "Hi, OK \u212a hi")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 200 || len(text) > 400 {
			return
		}
		if _, err := regexp.Compile(pattern); err != nil {
			return
		}
		pf, res := compileOrig(t, []string{pattern})
		checkAnchored(t, pf, res, text)
	})
}

func TestBranchPlanShapes(t *testing.T) {
	for _, tc := range []struct {
		pattern      string
		exact, runs  int  // chains decided from literal positions, branches left to a regex
		wholeAnchors bool // the whole pattern has an anchor plan (a split must then leave a chain)
	}{
		// The first alternation follows only \b: each branch stands alone.
		{`\b(?:(?:dosed|treated)\b.*\bper protocol|protocol (?:deviations?|violations?)|deviat\w*)\b`, 2, 1, false},
		// A consuming prefix: the exact branches are split off, the rest stays one regex.
		{`\bshow\s+(?:me|all|\d+\s+\w+|\w+ing)\b`, 2, 1, false},
		// Each branch of the first alternation is split once more.
		{`\b(?:show|list)\s+(?:me|all|\d+\s+\w+)\b`, 4, 2, false},
		// Nothing exact and the whole is anchored: no split.
		{`\b(?:top|first)\s+\d+\b`, 0, 0, true},
	} {
		re := regexp.MustCompile(tc.pattern)
		parsed, _ := syntax.Parse(re.String(), syntax.Perl)
		id := func(string) int32 { return 0 }
		bp := newBranchPlan(parsed, tc.wholeAnchors, id, func(*req) int32 { return 0 })
		if tc.exact+tc.runs == 0 {
			if bp != nil {
				t.Errorf("%q: unexpected split", tc.pattern)
			}
			continue
		}
		if bp == nil {
			t.Errorf("%q: no split", tc.pattern)
			continue
		}
		if len(bp.exact) != tc.exact || len(bp.runs) != tc.runs {
			t.Errorf("%q: %d exact, %d runs; want %d, %d", tc.pattern, len(bp.exact), len(bp.runs), tc.exact, tc.runs)
		}
	}
}

// TestWindowsWithoutRoom checks that windows which cannot hold a match are not run: a
// window with fewer bytes of the host class than every match needs (two capitals for a
// PascalCase name), or whose occurrences all lack the room the rest of the pattern needs on
// either side (a camelCase name needs a lower-case letter before its capital).
func TestWindowsWithoutRoom(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		want          []string // the windows run
	}{
		{`\b(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Z]{2,}[a-z][a-z0-9]{2,})\b`, "Could you show HttpClient? I'm sure LRUCache is", []string{"HttpClient", "LRUCache"}},
		{`\b[a-z][a-z0-9]*[A-Z]\w*`, "Could we find getUser? I think", []string{"getUser"}},
		{`\b[a-z]+_\w+`, "_x a_b _", []string{"a_b"}},
		{`\b[a-z]+_\w+`, "nothing", nil},
		// A match that starts at \b after word bytes only starts where the reach ends, and
		// there a word byte ('H') rules \b out; one that starts at ^ starts at 0.
		{`\b(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b`, "HttpClient getUser", []string{"getUser"}},
		{`^(?:please\s+)?how\b`, "please how, and how", []string{"please how"}},
		{`[a-z]+_\d+\b`, "ab_12c ab_3", []string{"ab_3"}},
		{`_\d+$`, "a_1 b_2", []string{"_2"}},
	} {
		pf, res := compileOrig(t, []string{tc.pattern})
		w := pf.windows[0]
		if w == nil {
			t.Fatalf("%q: no window plan", tc.pattern)
		}
		want := make([]bool, 1)
		sc := pf.Get()
		pf.Decide(sc, tc.text, want)
		sc.index()
		var got []string
		for _, sp := range w.windows(tc.text, &sc.occ, nil) {
			got = append(got, tc.text[sp.start:sp.end])
		}
		pf.Put(sc)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q on %q: windows %q, want %q", tc.pattern, tc.text, got, tc.want)
		}
		checkAnchored(t, pf, res, tc.text)
	}
}

// TestSortSpans checks the window sort, by insertion for a few spans and by SortFunc for many.
func TestSortSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 2, 5, 16, 17, 40} {
		spans := make([]occSpan, n)
		for i := range spans {
			spans[i] = occSpan{start: int32(rng.IntN(20)), end: int32(20 + i)}
		}
		sortSpans(spans)
		if !slices.IsSortedFunc(spans, func(a, b occSpan) int { return int(a.start - b.start) }) {
			t.Fatalf("%d spans not sorted: %v", n, spans)
		}
	}
}
