package strictjson

import (
	"encoding/json"
	"math"
	"testing"
	"unicode/utf8"
)

// TestAppendString checks the canonical string form.
func TestAppendString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{"plain ascii", `"plain ascii"`},
		{`quote " backslash \ slash /`, `"quote \" backslash \\ slash /"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"<script>&amp;</script>", `"<script>&amp;</script>"`},
		{"line\u2028para\u2029", `"line\u2028para\u2029"`},
		{"é😀€", `"é😀€"`},
		{"bad \xff byte", "\"bad \ufffd byte\""},
		{"truncated \xe2\x82", "\"truncated \ufffd\ufffd\""},
		{"surrogate \xed\xa0\x80", "\"surrogate \ufffd\ufffd\ufffd\""},
		{"a long run of plain bytes before an escape\n and after", `"a long run of plain bytes before an escape\n and after"`},
		{"\ufffd kept", "\"\ufffd kept\""},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			if got := AppendString([]byte("x"), tc.in); string(got) != "x"+tc.want {
				t.Errorf("AppendString(%q) = %s, want %s", tc.in, got[1:], tc.want)
			}
			var back string
			err := json.Unmarshal([]byte(tc.want), &back)
			if err != nil || utf8.ValidString(tc.in) && back != tc.in {
				t.Errorf("encoding/json reads %s as %q (%v)", tc.want, back, err)
			}
		})
	}
}

// TestAppendValue checks the canonical form of whole documents: no white space, members in
// source order, strings re-encoded, numbers as written.
func TestAppendValue(t *testing.T) {
	cases := []struct{ in, want string }{
		{` { "b" : 1 , "a" : [ true , false , null ] } `, `{"b":1,"a":[true,false,null]}`},
		{`{"\u0062":"\u0041\/\u00e9"}`, `{"b":"A/é"}`},
		{`["\u001F","\u2028","` + "\u2028" + `","\ud83d\ude00"]`, `["\u001f","\u2028","\u2028","😀"]`},
		{`["<>&","\u003c"]`, `["<>&","<"]`},
		{`[1E+2,-0,0.1e-2,12345678901234567890123,1e400]`, `[1E+2,-0,0.1e-2,12345678901234567890123,1e400]`},
		{`{"text":"line one\nline \"two\"\ttab"}`, `{"text":"line one\nline \"two\"\ttab"}`},
		{`{"a\nb":{}}`, `{"a\nb":{}}`},
		{`[[],{},""]`, `[[],{},""]`},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			d := mustParse(t, tc.in)
			if got := AppendValue(nil, d.Root()); string(got) != tc.want {
				t.Errorf("AppendValue(%s) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// TestAppendValueSubtree checks that a member is encoded alone.
func TestAppendValueSubtree(t *testing.T) {
	d := mustParse(t, `{"a":{"x":[1, 2]},"b":"y"}`)
	if got := AppendValue(nil, d.Root().Get("a")); string(got) != `{"x":[1,2]}` {
		t.Errorf("got %s", got)
	}
}

// TestWriter builds a stream chunk field by field.
func TestWriter(t *testing.T) {
	args := mustParse(t, `{"city": "Paris"}`).Root()
	var w Writer
	w.Reset([]byte("data: "))
	w.ObjectStart()
	w.Key("id")
	w.String("c\"1")
	w.Key("created")
	w.Int(-7)
	w.Key("choices")
	w.ArrayStart()
	w.ObjectStart()
	w.Key("delta")
	w.ObjectStart()
	w.ObjectEnd()
	w.Key("args")
	w.Value(args)
	w.Key("missing")
	w.Value(Value{})
	w.ObjectEnd()
	w.Int(2)
	w.Float(0.5)
	w.Float(1e21)
	w.Float(1e-7)
	w.Bool(true)
	w.Null()
	w.Raw([]byte(`{"r":1}`))
	w.ArrayEnd()
	w.ObjectEnd()
	want := `data: {"id":"c\"1","created":-7,"choices":[{"delta":{},"args":{"city":"Paris"},"missing":null},2,0.5,1e+21,1e-7,true,null,{"r":1}]}`
	if got := string(w.Bytes()); got != want || w.Len() != len(want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !json.Valid(w.Bytes()[len("data: "):]) {
		t.Errorf("not valid JSON")
	}
}

// TestWriterFloat checks Writer.Float against encoding/json.
func TestWriterFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1.5, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, 5e-324, 1.7976931348623157e308} {
		var w Writer
		w.Float(f)
		want, _ := json.Marshal(f)
		if string(w.Bytes()) != string(want) {
			t.Errorf("Float(%v) = %s, encoding/json %s", f, w.Bytes(), want)
		}
	}
}
