package grounding

import (
	"math"
	"strconv"
)

// A total of all the values of one listed group — the months of an
// aggregate, the rows of a detail query — is what an answer means by
// "in totale", "together", "combined": "Over the whole period revenue totals
// €21,956.62" when the tool listed five months. NewIndex sums, for every
// array of a JSON result, each key of its objects (or the numbers of an
// array of numbers); Check grounds a number in such a total only when a
// word of its sentence says it is one (see totalCue), and only at a
// precision where a chance match is unlikely (see sparse.go).

// groupTotal grounds g in the total of one listed group when the sentence
// of t says it is a total, and when few numbers of its shape are totals
// (see sparse.go). It returns the derivation and the source label.
func (c *checker) groupTotal(t *token, g target, sh shape) (string, string, bool) {
	if len(c.ix.groups) == 0 || c.mask&kindBit(Tool) == 0 {
		return "", "", false
	}
	a, b := sentenceOf(c.s, t.Start)
	if !totalCue(c.s[a:b]) {
		return "", "", false
	}
	var keys []float64
	hit := -1
	for i, gt := range c.ix.groups {
		keys = sh.round(keys, math.Abs(gt.value))
		if hit < 0 && g.has(gt.value) {
			hit = i
		}
	}
	if hit < 0 || !sh.rare(sh.share(keys), g.x) {
		return "", "", false
	}
	gt := c.ix.groups[hit]
	lbl := c.ix.refLabel(gt.label)
	return "Σ " + lbl + " (" + strconv.Itoa(int(gt.n)) + " values)", lbl, true
}

// totalWords say that a number is the total of a group.
var totalWords = map[string]bool{
	"total": true, "totals": true, "totalling": true, "totaling": true, "totale": true, "totali": true,
	"together": true, "combined": true, "altogether": true, "overall": true, "sum": true,
	"insieme": true, "complessivo": true, "complessiva": true, "complessivi": true, "complessive": true,
	"complessivamente": true, "somma": true, "tutto": true, "cumulative": true, "cumulativo": true,
}

// totalCue reports whether a sentence has a word of totalWords ("in
// totale", "in tutto", "combined").
func totalCue(sentence string) bool {
	for i := 0; i < len(sentence); {
		if !isLetterAt(sentence, i) {
			i++
			continue
		}
		j := wordEnd(sentence, i)
		if totalWords[lowerWord(sentence[i:j])] {
			return true
		}
		i = j
	}
	return false
}

// groupTotal is the sum of one key over the elements of one array.
type groupTotal struct {
	value float64
	n     int32 // values summed
	label int32 // index into Index.refs: the source and "$.groups[*].value"
}

// groupAcc sums the keys of the objects of one array as the walk meets them.
type groupAcc struct {
	depth int    // the depth of the array
	key   string // the key the array is under, for an array of numbers
	sums  []groupSum
}

type groupSum struct {
	key string
	sum float64
	n   int32
}

func (a *groupAcc) add(key string, v float64) {
	for i := range a.sums {
		if a.sums[i].key == key {
			a.sums[i].sum += v
			a.sums[i].n++
			return
		}
	}
	a.sums = append(a.sums, groupSum{key: key, sum: v, n: 1})
}

// emit records the totals of at least two values; path is the array's.
func (a *groupAcc) emit(b *builder, s *srcLabel, path []byte) {
	for _, g := range a.sums {
		if g.n < 2 {
			continue
		}
		key := ""
		if g.key != a.key {
			key = g.key
		}
		b.ix.groups = append(b.ix.groups, groupTotal{value: g.sum, n: g.n, label: b.groupLabel(s, path, key)})
	}
}
