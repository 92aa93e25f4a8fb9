package prefilter

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/weirgw/weir/rules/internal/fold"
)

// pfCorpus are realistic rule patterns plus the awkward shapes the derivation must survive.
var pfCorpus = []string{
	`\b(show|list|find|get)\b.*\b(findings?|issues?|problems?)\b`,
	`\bhow many\b.*\bfindings?\b`,
	`\b(in|from|during)\s+\d{4}\b`,
	`(?i)\bcome (posso|possiamo)\b`,
	`\bqual e\b`,
	`\b(?:critical|high)\s+(priority|severity)\b`,
	`\d+`,
	`(ab){2,3}`,
	`(a|)b`,
	`[sS]how`,
	`\bwhy\b`,
	`\b(analy[sz]e|analysis|trend|trends|pattern)\b`,
	`\b(compare|comparison|versus|vs\.?)\b`,
	`\b(total|sum|average|mean)\s+(of\s+)?(revenue|sales|orders)\b`,
	`\bquanti\b|\bquante\b`,
	`\b(fatturato|ricavi|vendite)\b`,
	`\bl'anno scorso\b`,
	`^(hi|hello|hey|ciao)\b`,
	`\bthank(s| you)\b`,
	`\b(top|first|prime)\s+\d+\b`,
	`(?i)REVENUE`,
	`\bwhat (is|are)\b`,
	`\bexplain\b.*\b(why|how)\b`,
	`(?:foo)+bar`,
	`(foo)*bar`,
	`x?yz`,
	`a{0,3}bc`,
	`(?s).`,
	`^$`,
	`\b(\w+) department\b`,
	`\b(?:top|first)\s+(\w+)`,
	`(?i)\bsh(ow|ew)\b`,
	`(?i)ſtraße`,
	`(?i)k\x{212A}`,
	`\bè\b`,
	`(a|b|c)(d|e|f)`,
	`(?:hotel|hotels|restaurant|restaurants)`,
	`\bq[1-4]\b`,
	`\b(?:jan|feb|mar|apr)[a-z]*\s+\d{4}\b`,
	`(?:ab|cd)(?:ef|gh)ij`,
	`((a|b)c|de)+f`,
	`\bopen\b.*\b(status|state)\b`,
	`\bstatus\s*[:=]\s*(open|closed)\b`,
	`\b(a|an|the)\b`,
	`(?i:HELLO) world`,
	`hello(?i: WORLD)`,
	`\bsince\b|\bdal\b`,
	`(?:)`,
	`[^a]bc`,
	`\Qa.b\E`,
	`(x|y|z)+abc`,
	`abc(?:x|y|)`,
	`\bper\s+(mese|anno|month|year)\b`,
	`\b(severity|priority)\s*(is|=)\s*(critical|high|medium|low)\b`,
	`\bnot\b.*\b(resolved|fixed)\b`,
	`(?U)a+?b`,
	`\bcome\b`,
	`.*findings.*`,
	`\d{4}-\d{2}-\d{2}`,
	`\b(?:in|nel)\s+(?:20\d\d)\b`,
}

// compilePF parses and compiles the corpus the way the rule compiler does.
func compilePF(t testing.TB, pats []string) (*Prefilter, []*regexp.Regexp) {
	t.Helper()
	parsed := make([]*syntax.Regexp, len(pats))
	res := make([]*regexp.Regexp, len(pats))
	for i, p := range pats {
		var err error
		if parsed[i], err = syntax.Parse(p, syntax.Perl); err != nil {
			t.Fatalf("parse %q: %v", p, err)
		}
		res[i] = regexp.MustCompile(p)
	}
	return newPrefilter(parsed), res
}

// pfLiterals collects literal-ish fragments of the corpus to build texts that nearly match.
func pfLiterals(pats []string) []string {
	var words []string
	for _, p := range pats {
		f := strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune(`\()|?:*+[]{}^$.`, r) })
		for _, w := range f {
			words = append(words, strings.TrimPrefix(strings.TrimPrefix(w, "b"), "s"), w)
		}
	}
	return append(words, " ", "2024", "12", "k", "ss", "findings", "show me", "qual e", "severity is high")
}

func TestPrefilterSound(t *testing.T) {
	pf, res := compilePF(t, pfCorpus)
	words := pfLiterals(pfCorpus)
	rng := rand.New(rand.NewPCG(3, 4))
	want := make([]bool, len(res))
	var skipped, matched int
	for range samples(20000) {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		text := canonical(b.String())
		pf.Candidates(text, want)
		for i, re := range res {
			m := re.MatchString(text)
			if m && !want[i] {
				t.Fatalf("pattern %q matches %q but was filtered out", pfCorpus[i], text)
			}
			if m {
				matched++
			}
			if !want[i] {
				skipped++
			}
		}
	}
	if skipped == 0 || matched == 0 {
		t.Fatalf("degenerate corpus: skipped %d matched %d", skipped, matched)
	}
	t.Logf("always=%d skipped=%d matched=%d", pf.Always(), skipped, matched)
}

func TestPrefilterRequirements(t *testing.T) {
	cases := []struct {
		name, pattern, text string
		want                bool
	}{
		{"literal present", `\bqual e\b`, "qual e il fatturato", true},
		{"literal absent", `\bqual e\b`, "show findings", false},
		{"alternation absent", `\b(show|list)\b.*\bfindings\b`, "get findings", false},
		{"alternation present", `\b(show|list)\b.*\bfindings\b`, "list all findings", true},
		{"fold case", `(?i)REVENUE`, "the revenue", true},
		{"no literal always runs", `z+`, "nothing here", true},
		{"a digit is needed", `\d+`, "nothing here", false},
		{"a digit is there", `\d+`, "top 10", true},
		{"a percent sign is needed", `\b(?:to|del) \d+ ?%`, "qual e il fatturato del 2024?", false},
		{"a percent sign is there", `\b(?:to|del) \d+ ?%`, "crescere del 20%", true},
		{"an invalid byte may be U+FFFD", `[^\x00-\x7f]`, "a\xffb", true},
		{"optional part ignored", `abc(?:xy|)`, "abc", true},
		{"star requires nothing", `(foo)*bar`, "bar", true},
		{"and needs both", `\bhow many\b.*\bfindings?\b`, "how many issues", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pf, _ := compilePF(t, []string{tc.pattern})
			want := []bool{false}
			pf.Candidates(tc.text, want)
			if want[0] != tc.want {
				t.Fatalf("candidates(%q) for %q = %v, want %v", tc.text, tc.pattern, want[0], tc.want)
			}
		})
	}
}

func FuzzPrefilterSound(f *testing.F) {
	for i, p := range pfCorpus {
		f.Add(p, pfLiterals(pfCorpus)[i])
	}
	f.Add(`(?i)\bcome (posso|possiamo)\b`, "Come possiamo")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		parsed, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil {
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		text = canonical(text)
		want := []bool{false}
		newPrefilter([]*syntax.Regexp{parsed}).Candidates(text, want)
		if re.MatchString(text) && !want[0] {
			t.Fatalf("pattern %q matches %q but was filtered out", pattern, text)
		}
	})
}

func BenchmarkPrefilter(b *testing.B) {
	pats := make([]string, 0, 100)
	for i := 0; len(pats) < 100; i++ {
		p := pfCorpus[i%len(pfCorpus)]
		if i >= len(pfCorpus) {
			p = `\b` + regexp.QuoteMeta([]string{"alpha", "beta", "gamma", "delta", "omega"}[i%5]) + `\d?\b|` + p
		}
		pats = append(pats, p)
	}
	pf, _ := compilePF(b, pats)
	text := canonical("Show me the critical priority findings from 2024 in the hotels department, " +
		"and explain why the revenue dropped compared to l'anno scorso — quanti problemi ci sono stati? " +
		"Qual è il trend per mese, top 10?")
	want := make([]bool, len(pats))
	b.ReportAllocs()
	b.ReportMetric(float64(pf.Always()), "always")
	for b.Loop() {
		pf.Candidates(text, want)
	}
}

// exactCorpus is pfCorpus plus the shapes exact plans must get right at their edges and a
// pattern over a table-sized literal set (the example packs' patterns are tested in package
// rules, which compiles them).
func exactCorpus(t testing.TB) []string {
	t.Helper()
	pats := slices.Concat(pfCorpus, syntheticPatterns)
	var words []string
	for i := range 120 {
		words = append(words, fmt.Sprintf("term%02d", i), fmt.Sprintf("word %c%c", 'a'+i%26, 'a'+i/26))
	}
	return append(pats, `\b(?:`+strings.Join(words, "|")+`)\b.*\b(?:findings?|issues?)\b`, `\b(?:show|list)\b.*\b(?:`+strings.Join(words, "|")+`)\b`)
}

// syntheticPatterns are the shapes exact plans must get right at their edges.
var syntheticPatterns = []string{
	`\b(alpha1|bravo1)s?\b.*\b(findings?|issues?)\b`,
	`(?s)\bfoo\b.*\bbar\b`,
	`\bfoo\s*bar\b`,
	`\bfoo\s+bar\s+baz\b`,
	`^(hi|hello)\b`,
	`\bdone$`,
	`^\s*start`,
	`\bvs\.?\b`,
	`\b(?:analy[sz]e|analysis)\b`,
	`(?i)\bstraße\b`,
	`(?i)\bİstanbul\b`,
	`\bqual è\b`,
	`\bfoo\b.*\bfoo\b`,
	`\bab\b.*\bab\b.*\bab\b`,
	`x\s+y`,
	`\b(a|b)(c|d)s?\b`,
	`\bthank(s| you)\b|\bgrazie\b`,
	`\bl'anno\b`,
	`\b_x\b`,
	`è\b`,
}

// exactWords are the pieces texts are built from: every literal of the corpus' exact plans,
// plus spaces, newlines, punctuation, digits and accented letters around which \b, \s and .*
// behave differently.
func exactWords(plans [][]chain) []string {
	words := []string{" ", " ", "  ", "\n", "\t", ".", ",", "'", "_", "-", "s", "es", "x", "1", "2024", "è", "é", "ü", "ß", "ok"}
	for _, plan := range plans {
		for _, c := range plan {
			for _, sg := range c.segs {
				words = append(words, sg.strs...)
			}
		}
	}
	return words
}

func TestPrefilterExact(t *testing.T) {
	pats := exactCorpus(t)
	pf, res := compilePF(t, pats)
	exact := 0
	for i := range pats {
		if pf.Exact(i) {
			exact++
		}
	}
	indexed := 0
	for _, plan := range pf.plans {
		for _, c := range plan {
			for _, sg := range c.segs {
				if sg.member != nil {
					indexed++
				}
			}
		}
	}
	t.Logf("%d patterns, %d exact, %d large literal sets indexed", len(pats), exact, indexed)
	if len(pats) < 60 || exact < 20 || indexed == 0 {
		t.Fatalf("corpus too small: %d patterns, %d exact, %d sets indexed", len(pats), exact, indexed)
	}
	words := exactWords(pf.plans)
	rng := rand.New(rand.NewPCG(5, 6))
	want := make([]bool, len(res))
	var matched, rejected int
	for n := range samples(6000) {
		// Half the texts draw on one plan's literals, so that near misses are common.
		pool := words
		k := rng.IntN(len(pf.plans))
		for pf.plans[k] == nil {
			k = rng.IntN(len(pf.plans))
		}
		if n%4 < 2 {
			pool = slices.Concat(words[:20], exactWords(pf.plans[k : k+1])[20:])
		}
		var b strings.Builder
		for range 1 + rng.IntN(10) {
			b.WriteString(pool[rng.IntN(len(pool))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		// Half the texts are normalized like questions; the rest are only folded (the prefilter's
		// contract) and keep '\n', '\t' and doubled spaces, which exercise the gaps' edges.
		text := strings.Map(fold.Rune, b.String())
		if n%2 == 0 {
			text = canonical(text)
		}
		pf.Candidates(text, want)
		for i, re := range res {
			if !pf.Exact(i) {
				continue
			}
			if m := re.MatchString(text); m != want[i] {
				t.Fatalf("exact pattern %q on %q: prefilter %v, regex %v", pats[i], text, want[i], m)
			} else if m {
				matched++
			} else {
				rejected++
			}
		}
	}
	t.Logf("exact verdicts: %d matches, %d rejections", matched, rejected)
	if matched == 0 || rejected == 0 {
		t.Fatalf("degenerate texts: matched %d rejected %d", matched, rejected)
	}
}

func TestExactPlanShapes(t *testing.T) {
	cases := []struct {
		pattern string
		exact   bool
	}{
		{`\b(show|list|find|get)\b.*\b(findings?|issues?|problems?)\b`, true},
		{`\b(?:critical|high)\s+(priority|severity)\b`, true},
		{`\b(analy[sz]e|analysis|trend|trends|pattern)\b`, true},
		{`\bthank(s| you)\b`, true},
		{`^(hi|hello|hey|ciao)\b`, true},
		{`(?i)\bcome (posso|possiamo)\b`, true},
		{`(?i)\bİ\b`, false},
		{`\b(a|an|the)\b`, false}, // one-byte literals are too common to track
		{`\b(top|first|prime)\s+\d+\b`, false},
		{`\d+`, false},
		{`foo\bbar`, false},
		{`x?`, false},
		{`.*`, false},
		{`\bwhat\s+$`, false},
		{`(ab){2,3}`, false},
		{`\b\x{FFFD}x\b`, false},
		{`\bfoo \s+bar`, false},                                  // the space run would not start where "foo " ends
		{`.*(?:\band\b|\bthen\b|[.;:?!,-]).*`, true},             // \b on some literals only, short punctuation
		{`\bwhat(?:\s(?:is|are)|'s) (?:causing|behind)\b`, true}, // \s spelled out
		{`\b(?:show|list)\b.*(?:\band\b|[.;]).*\bwhy\b`, true},
		{`foo\b(?:bar|\.x)`, true},      // the inner \b decided: "foobar" never matches, "foo.x" does
		{`\b(?:a|b)\b.*\bfoo\b`, false}, // a single letter is everywhere
	}
	for _, tc := range cases {
		t.Run(tc.pattern, func(t *testing.T) {
			re, err := syntax.Parse(tc.pattern, syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			if got := exactPlan(re) != nil; got != tc.exact {
				t.Fatalf("exactPlan(%q) exact = %v, want %v", tc.pattern, got, tc.exact)
			}
		})
	}
}

func TestPrefilterExactAllocs(t *testing.T) {
	pf, _ := compilePF(t, exactCorpus(t))
	want := make([]bool, len(pf.roots))
	text := canonical("Show me the critical priority findings and issues from last year: why? analyse the trends")
	// decide, not candidates: the race detector makes sync.Pool drop items on purpose.
	sc := pf.Get()
	pf.Decide(sc, text, want)
	if n := testing.AllocsPerRun(100, func() { pf.Decide(sc, text, want) }); n != 0 {
		t.Fatalf("candidates allocates %v times per call", n)
	}
}

func FuzzPrefilterExact(f *testing.F) {
	for _, p := range append(slices.Clone(pfCorpus), syntheticPatterns...) {
		f.Add(p, "show me the findings of foo bar from l'anno scorso")
	}
	f.Add(`\bfoo\b.*\bbar\b`, "foo\nbar foo x bar")
	f.Add(`\bfoo\s+bar\b`, "foo \t bar")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		parsed, err := syntax.Parse(pattern, syntax.Perl)
		if err != nil || exactPlan(parsed) == nil {
			return
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		pf := newPrefilter([]*syntax.Regexp{parsed})
		want := []bool{false}
		for _, s := range []string{canonical(text), strings.Map(fold.Rune, text)} {
			pf.Candidates(s, want)
			if m := re.MatchString(s); m != want[0] {
				t.Fatalf("exact pattern %q on %q: prefilter %v, regex %v", pattern, s, want[0], m)
			}
		}
	})
}

// TestRequirementMasks checks the requirement nodes with many literal children (an alias
// table spelled out): they are tested a bitset word at a time, with the verdict of testing
// each literal, for an OR and for an AND of them.
func TestRequirementMasks(t *testing.T) {
	var terms []string
	for i := range 40 {
		terms = append(terms, fmt.Sprintf("term%c%c", 'a'+i%26, 'a'+i/26))
	}
	alt := strings.Join(terms, "|")
	pats := []string{`\b(?:` + alt + `)\b`, `(?:` + alt + `)x+(?:` + alt + `)`}
	pf, res := compilePF(t, pats)
	masked := 0
	for _, nd := range pf.nodes {
		if nd.mask != nil {
			masked++
		}
	}
	if masked == 0 {
		t.Fatal("no requirement node has a mask")
	}
	// Evaluated by literal, as without masks.
	plain := &Prefilter{nodes: slices.Clone(pf.nodes)}
	for k := range plain.nodes {
		plain.nodes[k].mask = nil
	}
	byLit := func(n int32, seen []uint64) bool { return plain.eval(n, seen) }
	rng := rand.New(rand.NewPCG(5, 6))
	want := make([]bool, len(pats))
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(4) {
			b.WriteString(terms[rng.IntN(len(terms))])
			b.WriteString([]string{" ", "x", "xx "}[rng.IntN(3)])
		}
		text := b.String()
		sc := pf.Get()
		pf.Decide(sc, text, want)
		for i, re := range res {
			if r := pf.roots[i]; r >= 0 && pf.eval(r, sc.seen) != byLit(r, sc.seen) {
				t.Fatalf("pattern %d on %q: masked and literal-by-literal verdicts differ", i, text)
			}
			if re.MatchString(text) && !want[i] {
				t.Fatalf("pattern %d matches %q but was filtered out", i, text)
			}
		}
		pf.Put(sc)
	}
}
