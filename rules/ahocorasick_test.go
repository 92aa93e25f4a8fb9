package rules

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// acHit is one reported occurrence, for comparing the automaton with brute force.
type acHit struct{ p, start, end int }

// bruteMatches finds every occurrence with strings.Index, in the order scan promises.
func bruteMatches(patterns []string, text string) []acHit {
	var hits []acHit
	for p, pat := range patterns {
		if pat == "" {
			continue
		}
		for i := 0; i+len(pat) <= len(text); i++ {
			if j := strings.Index(text[i:], pat); j < 0 {
				break
			} else {
				i += j
				hits = append(hits, acHit{p, i, i + len(pat)})
			}
		}
	}
	slices.SortFunc(hits, func(a, b acHit) int {
		if a.end != b.end {
			return a.end - b.end
		}
		return a.p - b.p
	})
	return hits
}

// acMatches collects what the automaton reports.
func acMatches(patterns []string, text string) []acHit {
	var hits []acHit
	newACMatcher(patterns).scan(text, func(p, start, end int) { hits = append(hits, acHit{p, start, end}) })
	return hits
}

func TestACMatcher(t *testing.T) {
	cases := []struct {
		name     string
		patterns []string
		text     string
	}{
		{"classic", []string{"he", "she", "his", "hers"}, "ushers"},
		{"overlap", []string{"a", "aa", "aaa"}, "aaaa"},
		{"duplicates and empty", []string{"ab", "", "ab", "b"}, "abab"},
		{"no patterns", nil, "anything"},
		{"empty text", []string{"x"}, ""},
		{"utf8", []string{"è", "qual è", "qual"}, "qual è il"},
		{"words", []string{"finding", "findings", "show", "how"}, "show me findings"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, want := acMatches(tc.patterns, tc.text), bruteMatches(tc.patterns, tc.text)
			if !slices.Equal(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}

func TestACMatcherRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(alpha string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[rng.IntN(len(alpha))]
		}
		return string(b)
	}
	for round := range 500 {
		alpha := "abc d"[:2+round%4]
		pats := make([]string, rng.IntN(20))
		for i := range pats {
			pats[i] = word(alpha, rng.IntN(5))
		}
		text := word(alpha, rng.IntN(60))
		if got, want := acMatches(pats, text), bruteMatches(pats, text); !slices.Equal(got, want) {
			t.Fatalf("patterns %q text %q: got %v, want %v", pats, text, got, want)
		}
	}
}

func FuzzACMatcher(f *testing.F) {
	f.Add("he,she,his,hers", "ushers")
	f.Add("a,aa,,aaa", "aaaa")
	f.Fuzz(func(t *testing.T, pats, text string) {
		patterns := strings.Split(pats, ",")
		if got, want := acMatches(patterns, text), bruteMatches(patterns, text); !slices.Equal(got, want) {
			t.Fatalf("patterns %q text %q: got %v, want %v", patterns, text, got, want)
		}
	})
}
