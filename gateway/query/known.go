package query

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
	"github.com/weirgw/weir/adapters/llm"
	"github.com/weirgw/weir/gateway/query/nl"
)

// KnownAnswer is a pre-computed question/answer pair (seed 004's context cache).
type KnownAnswer struct {
	Question string `json:"question" yaml:"question"`
	Answer   string `json:"answer" yaml:"answer"`
	Source   string `json:"source,omitempty" yaml:"source"`
}

// KnownMatch is the known pair closest to a question.
type KnownMatch struct {
	Question   string  `json:"question"`
	Answer     string  `json:"answer"`
	Source     string  `json:"source,omitempty"`
	Similarity float64 `json:"similarity"`
	// Used reports that the pair is the answer; otherwise it only informed the model.
	Used bool `json:"used"`
}

// Known is a loaded set of known answers with their keyword sets.
type Known struct {
	pairs []KnownAnswer
	words []map[string]bool
}

// LoadKnown reads known answers from a JSON-lines file (.jsonl: one {"question", "answer",
// "source"} per line) or a YAML list (.yaml/.yml). Entries without an answer, or whose answer
// is "Not computable", are skipped as seed 004 does; malformed lines are errors with their
// line number.
func LoadKnown(path string) (*Known, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var pairs []KnownAnswer
	if strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") {
		dec := yaml.NewDecoder(bytes.NewReader(src))
		dec.KnownFields(true)
		if err := dec.Decode(&pairs); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	} else {
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for line := 1; sc.Scan(); line++ {
			text := bytes.TrimSpace(sc.Bytes())
			if len(text) == 0 || text[0] == '#' {
				continue
			}
			var p KnownAnswer
			dec := json.NewDecoder(bytes.NewReader(text))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&p); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			pairs = append(pairs, p)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	k := &Known{}
	for _, p := range pairs {
		a := strings.TrimSpace(p.Answer)
		if strings.TrimSpace(p.Question) == "" || a == "" || strings.EqualFold(a, "not computable") {
			continue
		}
		k.pairs = append(k.pairs, p)
		k.words = append(k.words, keywords(p.Question))
	}
	return k, nil
}

// Len is the number of usable pairs.
func (k *Known) Len() int { return len(k.pairs) }

// Best returns the pair whose question shares the most keywords with q (Dice coefficient of
// the keyword sets), or nil when none shares any.
func (k *Known) Best(q string) *KnownMatch {
	if k == nil {
		return nil
	}
	words := keywords(q)
	best, bestScore := -1, 0.0
	for i, w := range k.words {
		if s := dice(words, w); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return nil
	}
	p := k.pairs[best]
	return &KnownMatch{Question: p.Question, Answer: p.Answer, Source: p.Source, Similarity: round3(bestScore)}
}

func dice(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return 2 * float64(n) / float64(len(a)+len(b))
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

// stopwords are words that say nothing about what is asked (English and Italian).
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of in on at to for from by with and or is are was were be been
	do does did what which who whom how many much there their this that these those it its i we you me my our
	please show tell give list find get can could would should any all per
	il lo la i gli le un una uno di da del della dei delle degli in su per con e o che chi come quanto quanti quante
	quale quali qual mi ci si è sono era`) {
		stopwords[w] = true
	}
}

// keywords folds case and diacritics, splits on anything but letters and digits, and
// drops stopwords and a plural s.
func keywords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(data.Fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopwords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		out[w] = true
	}
	return out
}

// known consults the known answers (seed 004's context cache) as a call of
// KnownAnswersTool that the tools policy decides. A close match is the answer (done); a
// similar one only informs the model.
func (r *run) known(ctx context.Context) (done bool, err *Error) {
	if r.e.Known == nil || r.e.Known.Len() == 0 {
		return false, nil
	}
	m := r.e.Known.Best(r.q.Text)
	if m == nil || m.Similarity < r.e.Opts.KnownAnswerMin/2 {
		return false, nil
	}
	args, _ := json.Marshal(map[string]string{"question": r.q.Text})
	r.reads++
	rd := &read{kind: "known", call: llm.ToolCall{ID: fmt.Sprintf("weir_read_%d", r.reads), Name: KnownAnswersTool, Arguments: string(args)}}
	ok, err := r.authorize(ctx, []*read{rd})
	if err != nil || !ok[0] {
		return false, err
	}
	r.ran(rd, 1, nil)
	if m.Similarity >= r.e.Opts.KnownAnswerMin {
		if why := r.sameQuestion(m.Question); why != "" {
			r.warn("a known answer to a similar question was not used: " + why)
			r.resp.Known = m // it only informs the model
			return false, nil
		}
		m.Used = true
		r.resp.Known, r.resp.Answer, r.md.Route = m, m.Answer, "known"
		return true, nil
	}
	r.resp.Known = m // a similar question: the model sees its answer as a template
	return false, nil
}

// sameQuestion says why a known question is not the same as the one asked, or "" when it
// is: words in common are not enough when one negates or narrows the other ("how many
// serious AEs" is not "how many non-serious AEs in the placebo arm"). Where the semantic
// layer reads both questions completely, their semantic queries must be equal; otherwise
// their negations and their numbers must match.
func (r *run) sameQuestion(known string) string {
	p := r.parserFor()
	a, b := r.understand(), p.Parse(known, r.now)
	if len(a.Uncovered) == 0 && len(b.Uncovered) == 0 {
		if canonical(a) != canonical(b) {
			return "it asks for something else (" + diffWhat(a, b) + ")"
		}
		return ""
	}
	if nl.Negated(r.q.Text) != nl.Negated(known) {
		return "one of the two questions is negated"
	}
	if !sameNumbers(r.q.Text, known) {
		return "the questions name different numbers"
	}
	return ""
}

// canonical is a semantic query without its notes, as JSON.
func canonical(q *semantic.Query) string {
	c := *q
	c.Notes = nil
	b, _ := json.Marshal(c)
	return string(b)
}

func diffWhat(a, b *semantic.Query) string {
	switch {
	case canonical(&semantic.Query{Filters: a.Filters, Time: a.Time, Exists: a.Exists}) != canonical(&semantic.Query{Filters: b.Filters, Time: b.Time, Exists: b.Exists}):
		return "other conditions"
	case canonical(&semantic.Query{Measures: a.Measures}) != canonical(&semantic.Query{Measures: b.Measures}):
		return "another measure"
	}
	return "another shape"
}

// sameNumbers reports whether two texts name the same numbers.
func sameNumbers(a, b string) bool {
	return strings.Join(numbersIn(a), ",") == strings.Join(numbersIn(b), ",")
}

func numbersIn(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' }) {
		if strings.Trim(w, ".") != "" {
			out = append(out, strings.Trim(w, "."))
		}
	}
	sort.Strings(out)
	return out
}
