package rules

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
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
func compilePF(t testing.TB, pats []string) (*prefilter, []*regexp.Regexp) {
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
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(words[rng.IntN(len(words))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		text := normalizeTerm(b.String(), allNorm)
		pf.candidates(text, want)
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
	t.Logf("always=%d skipped=%d matched=%d", pf.always(), skipped, matched)
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
		{"no literal always runs", `\d+`, "nothing here", true},
		{"optional part ignored", `abc(?:xy|)`, "abc", true},
		{"star requires nothing", `(foo)*bar`, "bar", true},
		{"and needs both", `\bhow many\b.*\bfindings?\b`, "how many issues", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pf, _ := compilePF(t, []string{tc.pattern})
			want := []bool{false}
			pf.candidates(tc.text, want)
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
		text = normalizeTerm(text, allNorm)
		want := []bool{false}
		newPrefilter([]*syntax.Regexp{parsed}).candidates(text, want)
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
	text := normalizeTerm("Show me the critical priority findings from 2024 in the hotels department, "+
		"and explain why the revenue dropped compared to l'anno scorso — quanti problemi ci sono stati? "+
		"Qual è il trend per mese, top 10?", allNorm)
	want := make([]bool, len(pats))
	b.ReportAllocs()
	b.ReportMetric(float64(pf.always()), "always")
	for b.Loop() {
		pf.candidates(text, want)
	}
}
