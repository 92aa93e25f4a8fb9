package prefilter

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/weirgw/weir/rules/internal/fold"
)

// loopCorpus are patterns of the loop plan's shape, at its edges: a term that is also a
// separator, terms that prefix each other, \b next to terms, `*` rather than `+`, non-ASCII.
var loopCorpus = []string{
	`^(?:(?:hi|hello|thanks|thank you|ok|ok then|:\)|:-\)|👍|e)[\s,.!?;:)(\-]*)+$`,
	`^(?:\b(?:hi|ok)\b[ ,]*)*$`,
	`^(?:(?:ab|a|b|ba)\s*)+$`,
	`^(?:(?:ciao|grazie|perché)[.!]*)+$`,
	`^(?:(?i:hey|yo))+$`,
}

func TestLoopPlans(t *testing.T) {
	res := make([]*regexp.Regexp, len(loopCorpus))
	parsed := make([]*syntax.Regexp, len(loopCorpus))
	for i, p := range loopCorpus {
		res[i] = regexp.MustCompile(p)
		parsed[i], _ = syntax.Parse(p, syntax.Perl)
		if newLoopPlan(parsed[i]) == nil {
			t.Fatalf("%q: no loop plan", p)
		}
	}
	for _, p := range []string{`^(?:hi\s+)+$`, `(?:hi\s*)+$`, `^(?:hi|\w+)+$`, `^(?:hi[é ]*)+$`, `(?m)^(?:hi\s*)+$`} {
		parsed, _ := syntax.Parse(p, syntax.Perl)
		if newLoopPlan(parsed) != nil {
			t.Errorf("%q: unexpected loop plan", p)
		}
	}
	pool := []string{"hi", "hello", "thanks", "thank you", "ok", "ok then", ":)", ":-)", "👍", "e", "ab", "a", "b", "ba", "ciao",
		"grazie", "perché", "hey", "yo", "HEY", "Yo", " ", " ", ",", ".", "!", "?", "-", "(", "\t", "\n", "x", "é", "\xff", "okay"}
	rng := rand.New(rand.NewPCG(13, 14))
	canon := newPrefilterSrc(parsed, loopCorpus)
	orig, _ := compileOrig(t, loopCorpus)
	matched := 0
	for range samples(20000) {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(pool[rng.IntN(len(pool))])
		}
		text := b.String()
		checkAnchored(t, orig, res, text)
		checkAnchored(t, canon, res, strings.Map(fold.Rune, text))
		for _, re := range res {
			if re.MatchString(text) {
				matched++
			}
		}
	}
	if matched < 100 {
		t.Fatalf("only %d matching texts: the corpus does not exercise the plans", matched)
	}
}
