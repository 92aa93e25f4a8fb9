package strictjson

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
)

func mustParse(t testing.TB, doc string) *Doc {
	t.Helper()
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatalf("Parse(%q): %v", doc, err)
	}
	return d
}

// TestNumbers checks that numbers keep their literal and convert as strconv does.
func TestNumbers(t *testing.T) {
	cases := []struct {
		lit     string
		float   float64
		floatOK bool
		intOK   bool
	}{
		{"0", 0, true, true},
		{"-0", math.Copysign(0, -1), true, true},
		{"1e400", math.Inf(1), false, false},
		{"-1e400", math.Inf(-1), false, false},
		{"0.1e-2", 0.001, true, false},
		{"1E+2", 100, true, false},
		{"12345678901234567890123", 12345678901234567890123, true, false},
		{"9223372036854775807", 9223372036854775807, true, true},
		{"-9223372036854775808", -9223372036854775808, true, true},
		{"1.5", 1.5, true, false},
		{"4.9e-324", 4.9e-324, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.lit, func(t *testing.T) {
			v := mustParse(t, `{"n":`+tc.lit+`}`).Root().Get("n")
			if v.Kind() != Number || string(v.Number()) != tc.lit || string(v.Raw()) != tc.lit {
				t.Fatalf("kind %s literal %q raw %q, want the number %s", v.Kind(), v.Number(), v.Raw(), tc.lit)
			}
			f, err := v.Float()
			if (err == nil) != tc.floatOK || f != tc.float || math.Signbit(f) != math.Signbit(tc.float) {
				t.Errorf("Float() = %v, %v; want %v, ok %v", f, err, tc.float, tc.floatOK)
			}
			if !tc.floatOK && !errors.Is(err, strconv.ErrRange) {
				t.Errorf("Float() error %v, want ErrRange", err)
			}
			if _, err := v.Int(); (err == nil) != tc.intOK {
				t.Errorf("Int() error %v, want ok %v", err, tc.intOK)
			}
			if got := AppendValue(nil, v); string(got) != tc.lit {
				t.Errorf("AppendValue = %s, want the literal %s", got, tc.lit)
			}
		})
	}
}

// TestStrings checks decoding of escapes and surrogate pairs.
func TestStrings(t *testing.T) {
	cases := []struct{ src, want string }{
		{`"plain"`, "plain"},
		{`"tab\there"`, "tab\there"},
		{`"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{`"\u0041\u00e9\u20AC"`, "Aé€"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\uD83D\uDE00 and \udbff\udfff"`, "😀 and \U0010FFFF"},
		{`"\u0000"`, "\x00"},
		{`"é😀 raw"`, "é😀 raw"},
		{`"` + "\u2028" + `"`, "\u2028"},
		{`""`, ""},
		{`"a long string of more than sixty-four bytes, with one escape\n at the end"`, "a long string of more than sixty-four bytes, with one escape\n at the end"},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			v := mustParse(t, tc.src).Root()
			if v.Kind() != String || v.Str() != tc.want {
				t.Fatalf("Str() = %q (%s), want %q", v.Str(), v.Kind(), tc.want)
			}
			if !v.IsStr(tc.want) || v.IsStr(tc.want+"x") {
				t.Errorf("IsStr disagrees with Str")
			}
			if got := v.AppendStr([]byte(">")); string(got) != ">"+tc.want {
				t.Errorf("AppendStr = %q", got)
			}
			if string(v.Raw()) != tc.src || v.Offset() != 0 {
				t.Errorf("Raw() = %q, Offset() = %d", v.Raw(), v.Offset())
			}
		})
	}
}

// TestNavigation walks a chat completion with every accessor.
func TestNavigation(t *testing.T) {
	d := mustParse(t, ` {"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":null,
		"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"custom","custom":{"name":"g","input":"x"}}]},
		"finish_reason":"tool_calls","logprobs":false}],"usage":{},"\u0063reated":1} `)
	root := d.Root()
	if root.Kind() != Object || root.Len() != 4 || root.Offset() != 1 {
		t.Fatalf("root: %s, %d members, offset %d", root.Kind(), root.Len(), root.Offset())
	}
	var keys []string
	for k := range root.Members() {
		keys = append(keys, k)
	}
	if want := []string{"id", "choices", "usage", "created"}; !slices.Equal(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	if n, _ := root.Get("created").Int(); n != 1 {
		t.Errorf("escaped key: created = %d", n)
	}
	call := root.Get("choices").Index(0).Get("message").Get("tool_calls").Index(1)
	if got := call.Get("custom").Get("input"); got.Str() != "x" || got.Path() != "choices[0].message.tool_calls[1].custom.input" {
		t.Errorf("input %q at %q", got.Str(), got.Path())
	}
	choice := root.Get("choices").Index(0)
	if choice.Get("message").Get("content").Kind() != Null || choice.Get("logprobs").Bool() || choice.Get("logprobs").Kind() != Bool {
		t.Errorf("null and false not read")
	}
	var ids []string
	for i, c := range choice.Get("message").Get("tool_calls").Elems() {
		ids = append(ids, strconv.Itoa(i)+c.Get("id").Str())
	}
	if !slices.Equal(ids, []string{"0a", "1b"}) {
		t.Errorf("Elems: %q", ids)
	}
	if root.Get("usage").Len() != 0 || root.Get("usage").Kind() != Object || root.Path() != "" {
		t.Errorf("empty object or root path wrong")
	}
}

// TestMissing checks that every accessor is safe on absent values and wrong kinds.
func TestMissing(t *testing.T) {
	root := mustParse(t, `{"a":[1],"s":"x"}`).Root()
	for _, v := range []Value{{}, root.Get("nope"), root.Get("a").Index(1), root.Get("a").Index(-1), root.Get("s").Get("x"), root.Get("a").Get("0")} {
		if v.Kind() != Missing || v.Str() != "" || v.Bool() || v.Len() != 0 || v.Raw() != nil ||
			v.Number() != nil || v.Path() != "" || v.Offset() != -1 || len(AppendValue(nil, v)) != 0 {
			t.Errorf("%+v is not an inert Missing value", v)
		}
		if _, err := v.Float(); !errors.Is(err, ErrNotNumber) {
			t.Errorf("Float on Missing: %v", err)
		}
		for range v.Members() {
			t.Errorf("Members on Missing yields")
		}
		for range v.Elems() {
			t.Errorf("Elems on Missing yields")
		}
	}
	if root.Get("s").Len() != 0 || root.Get("a").Str() != "" || root.Get("a").IsStr("") {
		t.Errorf("wrong-kind accessors return something")
	}
}

// TestPathsAgree checks Value.Path against the path the parser puts in an error for the
// same place: each string value is made invalid in turn.
func TestPathsAgree(t *testing.T) {
	doc := `{"a":{"b":[0,{"c.d":"x","e":["x"]}]},"f":"x","":{"g":"x"}}`
	d := mustParse(t, doc)
	var walk func(v Value)
	walk = func(v Value) {
		for _, m := range v.Members() {
			walk(m)
		}
		for _, e := range v.Elems() {
			walk(e)
		}
		if v.Kind() != String {
			return
		}
		bad := doc[:v.Offset()+1] + `\ud800` + doc[v.Offset()+2:]
		_, err := Parse([]byte(bad))
		var e *Error
		if !errors.As(err, &e) || e.Path != v.Path() {
			t.Errorf("Path() %q, error path %v", v.Path(), err)
		}
	}
	walk(d.Root())
}
