package prefilter

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
	NewAC(patterns).Scan(text, func(p, start, end int) { hits = append(hits, acHit{p, start, end}) })
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
		want := bruteMatches(pats, text)
		if got := acMatches(pats, text); !slices.Equal(got, want) {
			t.Fatalf("patterns %q text %q: got %v, want %v", pats, text, got, want)
		}
		checkScanInto(t, pats, text, want)
	}
}

// checkScanInto checks what the prefilter's scan records against the occurrences want: the
// patterns seen, in the order first seen, and the occurrences of the patterns whose
// positions are asked for (every other one).
func checkScanInto(t *testing.T, pats []string, text string, want []acHit) {
	t.Helper()
	pos := make([]bool, len(pats))
	for i := range pos {
		pos[i] = i%2 == 0
	}
	seen := make([]uint64, (len(pats)+63)/64)
	var o occurrences
	found := NewAC(pats).scanInto(text, seen, nil, pos, &o)
	var wantFound []int32
	var wantOcc []occ
	for _, h := range want {
		if !slices.Contains(wantFound, int32(h.p)) {
			wantFound = append(wantFound, int32(h.p))
		}
		if pos[h.p] {
			wantOcc = append(wantOcc, occ{lit: int32(h.p), start: int32(h.start), end: int32(h.end), next: -1})
		}
	}
	if !slices.Equal(found, wantFound) || !slices.Equal(o.ev, wantOcc) {
		t.Fatalf("patterns %q text %q: scanInto found %v occurrences %v, want %v and %v", pats, text, found, o.ev, wantFound, wantOcc)
	}
	for p := range pats {
		if got := seen[p>>6]&(1<<(p&63)) != 0; got != slices.Contains(wantFound, int32(p)) {
			t.Fatalf("patterns %q text %q: seen[%d] = %v", pats, text, p, got)
		}
	}
}

func FuzzACMatcher(f *testing.F) {
	f.Add("he,she,his,hers", "ushers")
	f.Add("a,aa,,aaa", "aaaa")
	f.Fuzz(func(t *testing.T, pats, text string) {
		patterns := strings.Split(pats, ",")
		want := bruteMatches(patterns, text)
		if got := acMatches(patterns, text); !slices.Equal(got, want) {
			t.Fatalf("patterns %q text %q: got %v, want %v", patterns, text, got, want)
		}
		checkScanInto(t, patterns, text, want)
	})
}

// BenchmarkACScan is the prefilter's scan of a 200-byte question over every literal of the
// test corpora (the rules package benchmarks Decide over a real pack's patterns and terms).
func BenchmarkACScan(b *testing.B) {
	pf, _ := compilePF(b, exactCorpus(b))
	text := canonical(strings.Repeat("Show me the critical findings of the hotels from 2024, and why? ", 4)[:200])
	sc := pf.Get()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		clear(sc.seen)
		sc.occ.reset()
		sc.found = pf.ac.scanInto(text, sc.seen, sc.found[:0], pf.needPos, &sc.occ)
	}
}
