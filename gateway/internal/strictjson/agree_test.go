package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readersDiffer are the reasons for which Parse refuses documents encoding/json accepts:
// each is a place where readers disagree (Go replaces invalid UTF-8 and lone surrogates,
// Python keeps them; duplicates and case twins are read differently; deep nesting
// overflows some readers). Any other refusal of a document encoding/json accepts is a bug.
var readersDiffer = map[Reason]bool{
	InvalidUTF8: true, BadSurrogate: true, DuplicateKey: true, CaseTwin: true, TooDeep: true,
}

// decodeAny reads one JSON document the way openai-python and openai-node do (objects as
// maps, last duplicate wins), through encoding/json with numbers kept as literals.
func decodeAny(doc []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the document")
	}
	return v, nil
}

// checkAgreement checks Parse against encoding/json on one document: Parse refuses all
// that encoding/json refuses and, of the rest, only for a readersDiffer reason; what it
// accepts reads back, after AppendValue, as the same value; and the canonical form is a
// fixed point.
func checkAgreement(t testing.TB, doc []byte) {
	t.Helper()
	d, err := Parse(doc)
	valid := json.Valid(doc)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Parse(%q) returned %T, want *Error", doc, err)
		}
		if valid && !readersDiffer[e.Reason] {
			t.Fatalf("Parse(%q): %v (%s); encoding/json accepts it and no two readers differ on it", doc, err, e.Reason)
		}
		return
	}
	if !valid {
		t.Fatalf("Parse accepts %q, encoding/json refuses it", doc)
	}
	out := AppendValue(nil, d.Root())
	want, err1 := decodeAny(doc)
	got, err2 := decodeAny(out)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse(%q) re-encoded as %q reads %#v (%v), the source %#v (%v)", doc, out, got, err2, want, err1)
	}
	d2, err := Parse(out)
	if err != nil {
		t.Fatalf("canonical form %q refused: %v", out, err)
	}
	if again := AppendValue(nil, d2.Root()); !bytes.Equal(again, out) {
		t.Fatalf("canonical form not a fixed point: %q then %q", out, again)
	}
}

// TestAgreementCorpus runs the benchmark documents and the fuzz seeds.
func TestAgreementCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzParse/*")
	if len(files) == 0 || len(seeds) == 0 {
		t.Fatal("no corpus in testdata")
	}
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(doc); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		checkAgreement(t, doc)
	}
	for _, f := range seeds {
		checkAgreement(t, readSeed(t, f))
	}
}

// TestAgreementGenerated runs documents built from tricky pieces (case twins, escaped
// keys, surrogates, invalid bytes, odd numbers and literals), and mutations of them.
func TestAgreementGenerated(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range n {
		var b strings.Builder
		g := gen{rng: rng, b: &b}
		g.document()
		doc := []byte(b.String())
		checkAgreement(t, doc)
		checkAgreement(t, mutate(rng, doc))
	}
}

// mutate changes one byte of doc, inserts one, or deletes one.
func mutate(rng *rand.Rand, doc []byte) []byte {
	if len(doc) == 0 {
		return doc
	}
	out := bytes.Clone(doc)
	i := rng.IntN(len(out))
	special := []byte{'"', '\\', '{', '}', '[', ']', ',', ':', 'u', '0', 0xff, 0x80, 0x1f, ' '}
	switch rng.IntN(3) {
	case 0:
		out[i] = special[rng.IntN(len(special))]
	case 1:
		out = append(out[:i], append([]byte{special[rng.IntN(len(special))]}, out[i:]...)...)
	default:
		out = append(out[:i], out[i+1:]...)
	}
	return out
}

// gen writes random documents from pools of pieces chosen to hit readers' differences.
type gen struct {
	rng   *rand.Rand
	b     *strings.Builder
	depth int
}

var (
	genKeys = []string{`"content"`, `"Content"`, `"role"`, `"s"`, `"S"`, `"ſ"`, `"\u017f"`, `"k"`,
		"\"\u212a\"", `"\u212a"`, `"\u0063ontent"`, `"a"`, `"b"`, `"é"`, `"É"`, `"\u00e9"`, `""`, `"ß"`,
		`"ss"`, `"tool_calls"`, `"Tool_calls"`, `"x\ud800"`, "\"\xff\"", `"😀"`, `"\ud83d\ude00"`}
	genStrings = []string{`""`, `"text"`, `"a\nb\t\"q\"\\"`, `"\u00e9\u20ac"`, `"\ud83d\ude00"`,
		`"\ud800"`, `"\udc00x"`, `"\ud800\ud800"`, `"\/"`, `"\x"`, "\"\u2028\"", `"\u2028"`,
		"\"\x01\"", "\"é\"", "\"\xc3\"", "\"\xed\xa0\x80\"", `"<&>"`, `"\u0000"`, `"\uD834\uDD1E"`,
		`"a long string that is longer than eight bytes\u0041 with an escape"`}
	genNumbers = []string{"0", "-0", "1", "-1.5", "1e400", "0.1e-2", "1E+2", "12345678901234567890123",
		"01", "1.", ".5", "+1", "1e", "-", "0x1", "9007199254740993"}
	genLiterals = []string{"true", "false", "null", "NaN", "Infinity", "True", "None", "nul"}
	genSpaces   = []string{"", "", "", " ", "\n\t", "\r\n  ", "\v", "\u00a0"}
)

func (g *gen) pick(pool []string) string { return pool[g.rng.IntN(len(pool))] }

func (g *gen) document() {
	switch g.rng.IntN(40) {
	case 0:
		g.b.WriteString("\xef\xbb\xbf")
	case 1:
		g.nest(126 + g.rng.IntN(4))
		return
	}
	g.b.WriteString(g.pick(genSpaces))
	g.value()
	g.b.WriteString(g.pick(genSpaces))
	if g.rng.IntN(30) == 0 {
		g.b.WriteString(g.pick([]string{"x", "{}", "1", ","}))
	}
}

// nest writes n nested arrays around a number.
func (g *gen) nest(n int) {
	g.b.WriteString(strings.Repeat("[", n) + "1" + strings.Repeat("]", n))
}

func (g *gen) value() {
	limit := 8
	if g.depth > 4 {
		limit = 5 // scalars only
	}
	switch g.rng.IntN(limit) {
	case 0, 1:
		g.b.WriteString(g.pick(genStrings))
	case 2, 3:
		g.b.WriteString(g.pick(genNumbers))
	case 4:
		g.b.WriteString(g.pick(genLiterals))
	case 5:
		g.array()
	default:
		g.object()
	}
}

func (g *gen) array() {
	g.depth++
	g.b.WriteString("[")
	for i := range g.rng.IntN(4) {
		if i > 0 {
			g.b.WriteString(",")
		}
		g.b.WriteString(g.pick(genSpaces))
		g.value()
	}
	g.b.WriteString("]")
	g.depth--
}

func (g *gen) object() {
	g.depth++
	g.b.WriteString("{")
	n := g.rng.IntN(5)
	if g.rng.IntN(10) == 0 {
		n = 20 // a big object: twins are found through the map
	}
	for i := range n {
		if i > 0 {
			g.b.WriteString(",")
		}
		g.b.WriteString(g.pick(genSpaces) + g.pick(genKeys) + g.pick(genSpaces) + ":")
		g.value()
	}
	g.b.WriteString("}")
	g.depth--
}
