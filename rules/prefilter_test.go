package rules

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/weirgw/weir/rules/internal/prefilter"
)

// The prefilter (rules/internal/prefilter) is tested there on synthetic corpora; here it is
// tested on the corpora only a compiled pack has: every pattern of the example packs and
// testdata/mini, on texts built from their words and inline tests. Through the prefilter,
// every answer must be the plain regex's (the same corpus through the simple path and the
// fast path must agree).

// checkAnchored compares, on one text, every pattern of pf with its plain regex: the
// prefilter must not drop a pattern that matches, and MatchString, FindAll and the
// first-match-first road of Each must agree with the regex. It returns how many anchored or
// windowed patterns matched. The text must be fold-canonical unless pf was built from
// ExactCase trees.
func checkAnchored(t testing.TB, pf *prefilter.Prefilter, res []*regexp.Regexp, text string) int {
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
			t.Fatalf("pattern %q (road %s) on %q: fast path %v, regex %v", re, pf.Road(i), text, got, m)
		}
		if pf.EachRoad(i) == "regex" {
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

// anchorTextPool returns words likely to build matches of a pack's patterns: the words of its
// sources and test queries, plus bytes that sit at the edges of \b, ^ and multi-byte runes.
func anchorTextPool(p *Pack) []string {
	word := regexp.MustCompile(`[a-z0-9]+(?: [a-z]+)?`)
	var pool []string
	for _, re := range p.patterns {
		pool = append(pool, word.FindAllString(re.String(), -1)...)
	}
	for _, tc := range p.tests {
		pool = append(pool, strings.Fields(normalizeTerm(tc.Query, allNorm))...)
	}
	return append(pool, " ", " ", "\n", "_", "x", "è", "µ", "$", ">", "-", ",", ".", "12", "2024", "50k", "?", "'")
}

func TestAnchorPlansMatchRegexp(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*/rules")
	dirs = append(dirs, "testdata/mini")
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			p, err := LoadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			planned, exact := 0, 0
			for i := range p.patterns {
				switch p.prefilter.Road(i) {
				case "anchor", "window", "branch":
					planned++
				case "exact", "loop":
					exact++
				}
			}
			pool := anchorTextPool(p)
			matched := 0
			for n := range samples(3000) {
				var b strings.Builder
				for range 1 + rng.IntN(14) {
					b.WriteString(pool[rng.IntN(len(pool))])
					if rng.IntN(3) != 0 {
						b.WriteByte(' ')
					}
				}
				text := strings.Map(foldRune, b.String())
				if n%2 == 0 {
					text = normalizeTerm(text, allNorm)
				}
				matched += checkAnchored(t, p.prefilter, p.patterns, text)
			}
			for _, tc := range p.tests {
				matched += checkAnchored(t, p.prefilter, p.patterns, normalizeTerm(tc.Query, allNorm))
			}
			t.Logf("%d of %d patterns exact, %d anchored, windowed or split; %d anchored or windowed matches", exact, len(p.patterns), planned, matched)
			if planned > 0 && matched == 0 {
				t.Errorf("no anchored pattern ever matched: the texts do not exercise the plans")
			}
		})
	}
}

// origTexts builds texts for the original-text prefilter: the words of the patterns in
// several cases, with the Kelvin sign and long s that (?i)k and (?i)s also match.
func origTexts(rng *rand.Rand, n int, pats []string) []string {
	pool := []string{" ", " ", "  ", "\n", "\t", ".", ",", "_", "*", "/", "x", "X", "é", "É", "K", "ſ", "µ", "\xff", "\xc3", "12", "2024", "$", ":", "-"}
	word := regexp.MustCompile(`[A-Za-z0-9&]+`)
	for _, p := range pats {
		for _, w := range word.FindAllString(p, -1) {
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

// TestOrigPlansMatchRegexp checks the original-text prefilter of every example pack on texts
// as people type them: capitals, accents, the Kelvin sign and long s (which (?i)k and (?i)s
// match), invalid UTF-8.
func TestOrigPlansMatchRegexp(t *testing.T) {
	dirs, _ := filepath.Glob("../examples/*/rules")
	rng := rand.New(rand.NewPCG(9, 10))
	for _, dir := range dirs {
		p, err := LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if p.origFilter == nil {
			continue
		}
		t.Run(dir, func(t *testing.T) {
			var srcs []string
			for _, re := range p.origPatterns {
				srcs = append(srcs, re.String())
			}
			texts := origTexts(rng, 1500, srcs)
			for _, tc := range p.tests {
				texts = append(texts, tc.Query, strings.ToUpper(tc.Query), strings.NewReplacer("k", "\u212a", "s", "ſ").Replace(tc.Query))
			}
			for _, text := range texts {
				checkAnchored(t, p.origFilter, p.origPatterns, text)
			}
		})
	}
}

// BenchmarkPrefilterDecide is the prefilter's verdict on a 200-byte question over every
// pattern and alias term of the analytics pack: one scan and the plans it settles.
func BenchmarkPrefilterDecide(b *testing.B) {
	p, err := LoadDir("../examples/analytics/rules")
	if err != nil {
		b.Fatal(err)
	}
	text := normalizeTerm(longestTest(p), p.norm)
	want := make([]bool, len(p.patterns))
	sc := p.prefilter.Get()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	defer cpuPerOp(b)()
	for b.Loop() {
		p.prefilter.Decide(sc, text, want)
	}
}
