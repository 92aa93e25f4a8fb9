package prefilter

import (
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/weirgw/weir/rules/internal/fold"
)

// checkAnchored compares, on one text, every planned pattern of pf (exact, branch, anchored or
// windowed) with its plain regex (the rules package has its twin for the example packs): MatchString and FindAllStringSubmatchIndex must agree, and
// the prefilter must not drop a pattern that matches. It returns how many anchored or
// windowed patterns matched. The text must be fold-canonical unless pf was built from
// exactCase trees.
func checkAnchored(t testing.TB, pf *Prefilter, res []*regexp.Regexp, text string) int {
	t.Helper()
	want := make([]bool, len(res))
	sc := pf.Get()
	defer pf.Put(sc)
	pf.Decide(sc, text, want)
	matched := 0
	for i, re := range res {
		m := re.MatchString(text)
		if !want[i] {
			if m {
				t.Fatalf("pattern %q matches %q but was filtered out", re, text)
			}
			continue
		}
		if got := pf.MatchString(sc, i, re, text); got != m {
			t.Fatalf("pattern %q (anchored %v, windowed %v, branches %v) on %q: fast path %v, regex %v", re, pf.anchors[i] != nil, pf.windows[i] != nil, pf.branches[i] != nil, text, got, m)
		}
		if pf.anchors[i] == nil && pf.windows[i] == nil {
			continue
		}
		if m {
			matched++
		}
		wantAll := re.FindAllStringSubmatchIndex(text, -1)
		if gotAll := pf.FindAll(sc, i, re, text); !slices.EqualFunc(gotAll, wantAll, slices.Equal) {
			t.Fatalf("pattern %q on %q: FindAll fast path %v, regex %v", re, text, gotAll, wantAll)
		}
		// The first-match-first road a single-value extractor takes must list the same.
		var firstFirst [][]int
		pf.Each(sc, i, re, text, false, func(m []int) bool {
			firstFirst = append(firstFirst, m)
			return true
		})
		if !slices.EqualFunc(firstFirst, wantAll, slices.Equal) {
			t.Fatalf("pattern %q on %q: first-match road %v, regex %v", re, text, firstFirst, wantAll)
		}
	}
	return matched
}

func TestAnchorPlanShapes(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		lits    []string
		wb      bool
		begin   bool
	}{
		{`\b(?:top|tail)\s+\d`, []string{"top", "tail"}, true, false},
		{`(?:^|\b(?:top|first)\s+)(\d+)`, []string{"top", "first"}, false, true},
		{`(?:\bprices?|\bover)\s*\d`, []string{"price", "over"}, true, false},
		{`^meglio\w*`, []string{"meglio"}, false, false},
		{`\b(?:over|>=?)\s*\d`, []string{"over", ">"}, false, false},
		{`\w+ department`, nil, false, false},
		{`(?:a|bb)c\w`, []string{"ac", "bbc"}, false, false}, // "a" alone would be too frequent
		{`x?yz\w`, []string{"yz", "xyz"}, false, false},
		{`\b(?:w|wk)\d`, nil, false, false},
		{`[;:.?!-]\s+(?:did|were)\b`, []string{". ", ":\n", "- ", "?\t"}, false, false}, // punctuation, then a space
		{`[.,;:?!'"-]\s*x`, nil, false, false},                                          // a class too large to spell out
	} {
		re := regexp.MustCompile(tc.pattern)
		parsed, _ := syntax.Parse(tc.pattern, syntax.Perl)
		a, lits := newAnchorPlan(re.String(), parsed)
		if tc.lits == nil {
			if a != nil {
				t.Errorf("%q: unexpected plan on %q", tc.pattern, lits)
			}
			continue
		}
		if a == nil {
			t.Errorf("%q: no plan", tc.pattern)
			continue
		}
		for _, l := range tc.lits {
			if !slices.Contains(lits, l) {
				t.Errorf("%q: leads %q lack %q", tc.pattern, lits, l)
			}
		}
		if a.wb != tc.wb || a.begin != tc.begin {
			t.Errorf("%q: wb %v begin %v, want %v %v", tc.pattern, a.wb, a.begin, tc.wb, tc.begin)
		}
	}
}

// FuzzAnchorPlan checks one pattern's fast paths against the plain regex on one text.
func FuzzAnchorPlan(f *testing.F) {
	f.Add(`\b(?:top|tail)\s+(\d+)`, "show the top 5 and the tail 3")
	f.Add(`(?:^|\b(?:top|first)\s+)(\d{1,3}|one)`, "12 of the first one")
	f.Add(`\b(?:over|>=?)\s*(\d[\d,.]*)`, "x>=5 over 7, >3")
	f.Add(`^meglio|\b(?:come posso|come fare)\b`, "meglio come posso come fare")
	f.Add(`(?m)^ab\b|\Bcd`, "ab\nab cd xcd")
	f.Add(`\b(?:è|µg)\w*$`, "aè µgx")
	f.Add(`^(?:(?:hi|ok|ok then|:\))[\s,.!]*)+$`, "hi, ok then :) ok!")
	f.Add(`\b(\w+) department\b|\S*\*\S*`, "the sales department, a*b")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if len(pattern) > 200 || len(text) > 400 {
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		parsed, err := syntax.Parse(re.String(), syntax.Perl)
		if err != nil {
			return
		}
		pf := newPrefilterSrc([]*syntax.Regexp{parsed}, []string{re.String()})
		checkAnchored(t, pf, []*regexp.Regexp{re}, strings.Map(fold.Rune, text))
	})
}

// TestAnchorLeadsOnOriginal checks the leads of a case-insensitive vocabulary on the original
// text: each word spelled out as its case variants leads with its first four bytes, not two
// ("th" would start the twin at every "the") nor all of them (512 variants of "deserializ").
func TestAnchorLeadsOnOriginal(t *testing.T) {
	// Go factors authentif|autentic into aut(?:hentif|entic): the lead grows past "aut" into
	// the alternation and is cut at four bytes again (not 768 spellings of both words).
	src := `\b(?i:throttl|concurren|deserializ|retr[iy]|authentif|autentic)[a-z]*\b`
	parsed, _ := syntax.Parse(src, syntax.Perl)
	a, lits := newAnchorPlan(src, ExactCase(parsed))
	if a == nil {
		t.Fatal("no plan")
	}
	heads := map[string]int{}
	for _, l := range lits {
		heads[strings.ToLower(l)]++
	}
	// ſ (U+017F, two bytes) is a case variant of s: "deſ" is four bytes already.
	want := map[string]int{"thro": 16, "conc": 16, "dese": 16, "deſ": 4, "retr": 16, "auth": 16, "aute": 16}
	if !maps.Equal(heads, want) {
		t.Errorf("leads by lower-case form %v, want %v", heads, want)
	}

	// The many leads are visited through the literals the text holds.
	pf, res := compileOrig(t, []string{src})
	if pf.anchors[0] == nil || pf.anchors[0].member == nil {
		t.Fatal("the plan's leads are not indexed")
	}
	for _, text := range []string{"the throttling could retry", "Retrying THROTTLE deſerializer", "the concurrency", "nothing here"} {
		checkAnchored(t, pf, res, text)
	}
}
