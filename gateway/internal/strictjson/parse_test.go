package strictjson

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestParseRefuses runs one document per way two readers could disagree, or per way a
// document is not JSON, and checks the reason, the path and the offset of the refusal.
func TestParseRefuses(t *testing.T) {
	cases := []struct {
		name, doc string
		reason    Reason
		path      string
		offset    int
	}{
		{"empty", ``, Syntax, "", 0},
		{"only white space", " \n\t", Syntax, "", 3},
		{"trailing comma in object", `{"a":1,}`, Syntax, "", 7},
		{"trailing comma in array", `{"a":[1,]}`, Syntax, "a[1]", 8},
		{"missing colon", `{"a" 1}`, Syntax, "", 5},
		{"single quotes", `{'a':1}`, Syntax, "", 1},
		{"missing comma", `{"a":[1 2]}`, Syntax, "a", 8},
		{"unterminated object", `{"a":1`, Syntax, "", 6},
		{"unterminated string", `{"a":"bc`, Syntax, "a", 5},
		{"lone closing bracket", `]`, Syntax, "", 0},
		{"mismatched bracket", `{"a":[1}`, Syntax, "a", 7},
		{"comment", `{"a":1 /* x */}`, Syntax, "", 7},

		{"invalid UTF-8 in a value", "{\"a\":\"x\xffy\"}", InvalidUTF8, "a", 7},
		{"invalid UTF-8 in a key", "{\"choices\":[{\"\xc3\":1}]}", InvalidUTF8, "choices[0]", 14},
		{"overlong encoding", "[\"\xc0\xaf\"]", InvalidUTF8, "[0]", 2},
		{"UTF-8 encoded surrogate", "[\"\xed\xa0\x80\"]", InvalidUTF8, "[0]", 2},
		{"truncated rune", "[\"\xe2\x82\"]", InvalidUTF8, "[0]", 2},

		{"unknown escape", `["\x"]`, BadEscape, "[0]", 2},
		{"escaped single quote", `["\'"]`, BadEscape, "[0]", 2},
		{"upper-case U escape", `["\U0041"]`, BadEscape, "[0]", 2},
		{"short u escape", `["\u12"]`, BadEscape, "[0]", 2},
		{"non-hex u escape", `["\u12G4"]`, BadEscape, "[0]", 2},
		{"escape in a key", `{"messages":[{"r\ole":1}]}`, BadEscape, "messages[0]", 16},
		{"malformed low half", `["\ud800\uZZZZ"]`, BadEscape, "[0]", 8},

		{"lone high surrogate", `{"content":"\ud800"}`, BadSurrogate, "content", 12},
		{"lone low surrogate", `{"content":"a\udc00"}`, BadSurrogate, "content", 13},
		{"misordered pair", `["\udc00\ud800"]`, BadSurrogate, "[0]", 2},
		{"high then letter escape", `["\ud800\u0041"]`, BadSurrogate, "[0]", 2},
		{"high then raw letter", `["\ud800x"]`, BadSurrogate, "[0]", 2},
		{"two highs", `["\ud83d\ud83d"]`, BadSurrogate, "[0]", 2},
		{"lone surrogate in a key", `{"\ud800":1}`, BadSurrogate, "", 2},

		{"raw tab", "[\"a\tb\"]", ControlChar, "[0]", 3},
		{"raw newline in a key", "{\"a\nb\":1}", ControlChar, "", 3},
		{"raw NUL", "[\"\x00\"]", ControlChar, "[0]", 2},

		{"leading zero", `{"n":01}`, BadNumber, "n", 5},
		{"negative leading zero", `[-01]`, BadNumber, "[0]", 1},
		{"bare minus", `[-]`, BadNumber, "[0]", 1},
		{"no fraction digits", `[1.]`, BadNumber, "[0]", 1},
		{"no integer digits", `[.5]`, BadNumber, "[0]", 1},
		{"plus sign", `[+1]`, BadNumber, "[0]", 1},
		{"no exponent digits", `[1e]`, BadNumber, "[0]", 1},
		{"signed exponent without digits", `[1e+]`, BadNumber, "[0]", 1},
		{"hexadecimal", `[0x10]`, BadNumber, "[0]", 1},
		{"two points", `[1.2.3]`, BadNumber, "[0]", 1},

		{"NaN", `{"t":NaN}`, BadLiteral, "t", 5},
		{"Infinity", `[Infinity]`, BadLiteral, "[0]", 1},
		{"minus Infinity", `[-Infinity]`, BadLiteral, "[0]", 1},
		{"Python True", `[True]`, BadLiteral, "[0]", 1},
		{"Python None", `{"a":None}`, BadLiteral, "a", 5},
		{"undefined", `[undefined]`, BadLiteral, "[0]", 1},
		{"truncated null", `[nul]`, BadLiteral, "[0]", 1},

		{"duplicate key", `{"a":1,"a":2}`, DuplicateKey, "", 7},
		{"escaped duplicate key", `{"content":"x","\u0063ontent":"y"}`, DuplicateKey, "", 15},
		{"duplicate escaped both ways", `{"\u0061":1,"\u0061":2}`, DuplicateKey, "", 12},
		{"duplicate with a surrogate pair", `{"😀":1,"\ud83d\ude00":2}`, DuplicateKey, "", 10},
		{"nested duplicate", `{"choices":[{"message":{"role":"assistant","role":"tool"}}]}`, DuplicateKey, "choices[0].message", 43},
		{"duplicate in a big object", bigObjectDoc(40, `"k7"`), DuplicateKey, "", 341},

		{"case twin", `{"choices":[{"message":{"content":"a","Content":"b"}}]}`, CaseTwin, "choices[0].message", 38},
		{"case twin tool_calls", `{"tool_calls":[],"Tool_calls":[]}`, CaseTwin, "", 17},
		{"long s folds to s", `{"ſtream":true,"stream":false}`, CaseTwin, "", 16},
		{"Kelvin folds to k", "{\"\u212aind\":1,\"kind\":2}", CaseTwin, "", 12},
		{"Kelvin and upper K", "{\"\u212a\":1,\"K\":2}", CaseTwin, "", 9},
		{"escaped long s", `{"s":1,"\u017f":2}`, CaseTwin, "", 7},
		{"escaped upper case", `{"content":1,"\u0043ontent":2}`, CaseTwin, "", 13},
		{"accented twin", `{"é":1,"É":2}`, CaseTwin, "", 8},
		{"case twin in a big object", bigObjectDoc(40, `"K30"`), CaseTwin, "", 341},

		{"too deep", strings.Repeat("[", 129) + strings.Repeat("]", 129), TooDeep, strings.Repeat("[0]", 128), 128},
		{"too deep in objects", strings.Repeat(`{"a":`, 129) + "1" + strings.Repeat("}", 129), TooDeep, strings.TrimPrefix(strings.Repeat(".a", 128), "."), 5 * 128},

		{"byte order mark", "\xef\xbb\xbf{}", BOM, "", 0},

		{"two documents", `{} {}`, Trailing, "", 3},
		{"trailing word", `{"a":1}x`, Trailing, "", 7},
		{"trailing NUL", "1 \x00", Trailing, "", 2},
		{"extra closing brace", `{"a":1}}`, Trailing, "", 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) = %v, want an *Error", tc.doc, err)
			}
			if e.Reason != tc.reason || e.Path != tc.path || e.Offset != tc.offset {
				t.Errorf("Parse(%q): %v\n got  reason %s path %q offset %d\n want reason %s path %q offset %d",
					tc.doc, err, e.Reason, e.Path, e.Offset, tc.reason, tc.path, tc.offset)
			}
		})
	}
}

// bigObjectDoc returns an object of n members "k0".."k<n-1>" and one more key last, so
// that the twin is found through the map of a big object.
func bigObjectDoc(n int, last string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		b.WriteString(`"k` + itoa(i) + `":` + itoa(i) + ",")
	}
	b.WriteString(last + ":0}")
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestErrorMessage checks the wording the lead's error replies show to a client.
func TestErrorMessage(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`{"choices":[{"message":{"content":"a","Content":"b"}}]}`, `choices[0].message: key "Content" differs only in case from "content"`},
		{`{"a":{"b":1,"b":2}}`, `a: duplicate key "b"`},
		{`{"a.b":{"c":"\ud800"}}`, `["a.b"].c: \ud800 is a high surrogate without a low one`},
		{`{"tools":[{"function":{"name":"x","ſ":1,"s":2}}]}`, `tools[0].function: key "s" differs only in case from "\u017f"`},
		{`{"a":1} 2`, `data after the document`},
		{`{"` + strings.Repeat("k", 70) + `":{"x":1,"x":2}}`, `["` + strings.Repeat("k", 64) + `..."]: duplicate key "x"`},
		{`{"` + strings.Repeat("é", 40) + `":1,"` + strings.Repeat("É", 40) + `":2}`,
			`key "` + strings.Repeat(`\u00c9`, 32) + `..." differs only in case from "` + strings.Repeat(`\u00e9`, 32) + `..."`},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			if err == nil || err.Error() != tc.want {
				t.Errorf("Parse(%q) = %v, want %q", tc.doc, err, tc.want)
			}
		})
	}
}

// TestDepthLimit checks nesting at the limit and one past it, with the default and a
// configured limit.
func TestDepthLimit(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + "1" + strings.Repeat("]", n))
	}
	cases := []struct {
		name  string
		opts  Options
		depth int
		ok    bool
	}{
		{"default at the limit", Options{}, DefaultMaxDepth, true},
		{"default past the limit", Options{}, DefaultMaxDepth + 1, false},
		{"limit 3 at the limit", Options{MaxDepth: 3}, 3, true},
		{"limit 3 past the limit", Options{MaxDepth: 3}, 4, false},
		{"limit 1000", Options{MaxDepth: 1000}, 1000, true},
		{"scalar under limit 1", Options{MaxDepth: 1}, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.opts.Parse(nest(tc.depth))
			if (err == nil) != tc.ok {
				t.Fatalf("depth %d: err %v, want ok %v", tc.depth, err, tc.ok)
			}
			if e := (*Error)(nil); err != nil && (!errors.As(err, &e) || e.Reason != TooDeep) {
				t.Errorf("depth %d: %v, want %s", tc.depth, err, TooDeep)
			}
		})
	}
}
