package docs

import (
	"math"
	"slices"
	"sort"
	"strings"
)

// BM25 parameters, FTS5's defaults.
const (
	bm25K1        = 1.2
	bm25B         = 0.75
	sectionWeight = 2.0 // a hit in the section's words counts twice, as in the SQLite store
	bodyWeight    = 1.0
	bm25MinIDF    = 1e-6
	maxCandidates = 200 // passages a PostgreSQL search re-ranks
)

// part is one alternative of a search: a term (one word) or a quoted phrase (several).
type part struct {
	words  []string
	prefix bool     // a one-word part matched as a prefix
	alts   []string // a one-word part's inflections
}

// parts lists the terms and the phrases in the order the stores query them.
func (t terms) parts() []part {
	var out []part
	for _, w := range t.words {
		out = append(out, part{words: []string{w.s}, prefix: !w.exact, alts: w.alts})
	}
	for _, p := range t.phrases {
		out = append(out, part{words: p})
	}
	return out
}

// hits counts the occurrences of p in words (a passage's indexText, split).
func (p part) hits(words []string) int {
	n := 0
	for i := range words {
		if p.matchAt(words, i) {
			n++
		}
	}
	return n
}

func (p part) matchAt(words []string, i int) bool {
	if len(p.words) == 1 {
		w := words[i]
		return w == p.words[0] || slices.Contains(p.alts, w) || (p.prefix && strings.HasPrefix(w, p.words[0]))
	}
	if i+len(p.words) > len(words) {
		return false
	}
	for j, pw := range p.words {
		if words[i+j] != pw {
			return false
		}
	}
	return true
}

// candidate is a passage with the words it was indexed under.
type candidate struct {
	Passage
	section, body []string
}

// corpus holds the statistics BM25 needs: the passage count, their average length in
// words, and how many passages contain each part.
type corpus struct {
	n      float64
	avgLen float64
	df     []int
}

// rankBM25 scores candidates as SQLite FTS5's bm25() does and returns the best limit.
func rankBM25(cands []candidate, ps []part, c corpus, limit int) []Passage {
	out := make([]Passage, 0, len(cands))
	for _, cd := range cands {
		length := float64(len(cd.section) + len(cd.body))
		score := 0.0
		for i, p := range ps {
			f := sectionWeight*float64(p.hits(cd.section)) + bodyWeight*float64(p.hits(cd.body))
			if f == 0 {
				continue
			}
			idf := math.Max(math.Log((c.n-float64(c.df[i])+0.5)/(float64(c.df[i])+0.5)), bm25MinIDF)
			score += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*length/math.Max(c.avgLen, 1)))
		}
		cd.Passage.Score = score
		out = append(out, cd.Passage)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ChunkID < out[j].ChunkID
	})
	return out[:min(limit, len(out))]
}
