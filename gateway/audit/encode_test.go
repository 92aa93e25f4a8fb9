package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestLayoutKnown(t *testing.T) {
	if !layoutKnown {
		t.Fatalf("Record changed: teach encode.go the new fields (line and canonical order), then set knownLayout to\n%s", layout())
	}
}

// fullRecord has every field set, through reflection: a field the encoder does not write
// makes its line differ from json.Marshal's.
func fullRecord() *Record {
	r := &Record{}
	fill(reflect.ValueOf(r).Elem(), 1)
	return r
}

func fill(v reflect.Value, n int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strings.Repeat("x", n) + "<&>\u2028\"\\\n")
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(n * 7))
	case reflect.Uint64:
		v.SetUint(uint64(n * 3))
	case reflect.Float64:
		v.SetFloat(float64(n) / 3)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n+1)
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"b": [1, 2.50, "<x>"], "a": {"z": null, "y": true}}`))
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fill(v.Index(i), n+i+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("total"), reflect.ValueOf(int64(n)))
		v.SetMapIndex(reflect.ValueOf("admit"), reflect.ValueOf(int64(n+1)))
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 3, 4, 5, 6, 7, 890123000, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), n+i)
		}
	}
}

func encodeCases() map[string]func() *Record {
	return map[string]func() *Record{
		"test record": func() *Record { return record(3) },
		"every field": fullRecord,
		"zero":        func() *Record { return &Record{} },
		"empty slices and content": func() *Record {
			return &Record{Rules: []string{}, ToolCalls: []ToolCall{}, Violations: []Violation{}, ToolsRemoved: []string{},
				LatencyUS: map[string]int64{}, Content: &Content{}, Fallback: &Fallback{}}
		},
		"odd strings": func() *Record {
			r := record(1)
			r.DecisionID = "bad \xff\xfe utf8 \xe2\x80 cut"
			r.Subject.ID = "ctl \x00\x01\x1f\x7f \b\f\t\r\n"
			r.Reason = "\u2028\u2029 ok è 日本 😀 \ufffd"
			r.Content = &Content{Prompt: "<script>&amp;</script>", Answer: "\"quoted\" \\"}
			r.ToolCalls[0].Arguments = json.RawMessage(` {"x" : 1e3, "u":"\u00e8\u2028<", "n": -0.0, "arr": [ ] } `)
			return r
		},
		"floats": func() *Record {
			r := record(2)
			r.Confidence = 1e-7
			r.Fallback = &Fallback{LatencyUS: -5, Cached: true, Tokens: 12}
			return r
		},
		"big float":      func() *Record { r := record(2); r.Confidence = 1e21; return r },
		"negative float": func() *Record { r := record(2); r.Confidence = -0.000123456789; return r },
		"null arguments": func() *Record { r := record(2); r.ToolCalls[0].Arguments = json.RawMessage("null"); return r },
		"latency keys": func() *Record {
			r := record(2)
			r.LatencyUS = map[string]int64{"validate": 1, "a": 2, "B": 3, "total": 4, "upstream": 5, "up": 6,
				"é": 7, "decode": -8, "classify": 9, "z": 10, "": 11}
			return r
		},
	}
}

func TestSealMatchesJSON(t *testing.T) {
	for name, mk := range encodeCases() {
		t.Run(name, func(t *testing.T) {
			for _, prev := range []string{"", "4f2a", "we\"ird\xff"} {
				checkSeal(t, mk, 7, prev)
			}
		})
	}
}

// TestSealReusedEncoder seals every case with one encoded, as the writer's pool reuses
// them: nothing of a record may stay in the next one's line.
func TestSealReusedEncoder(t *testing.T) {
	cases := encodeCases()
	names := slices.Sorted(maps.Keys(cases))
	reversed := slices.Clone(names)
	slices.Reverse(reversed)
	var e encoded
	for _, name := range append(names, reversed...) {
		checkSealWith(t, &e, cases[name], 7, "4f2a")
	}
}

func checkSeal(t *testing.T, mk func() *Record, seq uint64, prev string) {
	t.Helper()
	checkSealWith(t, new(encoded), mk, seq, prev)
}

func checkSealWith(t *testing.T, e *encoded, mk func() *Record, seq uint64, prev string) {
	t.Helper()
	want, werr := sealJSON(mk(), seq, prev)
	r := mk()
	ok, err := e.encode(r)
	if !ok || err != nil {
		if werr == nil {
			t.Fatalf("direct encoding refused a record json.Marshal takes: ok %v, %v", ok, err)
		}
		return
	}
	if werr != nil {
		t.Fatalf("direct encoding took a record json.Marshal refuses: %v", werr)
	}
	got := e.link(nil, seq, prev, r)
	if !bytes.Equal(got, want) {
		t.Fatalf("line differs\ngot  %s\nwant %s", got, want)
	}
	// Any JCS implementation computes the same hash from the line.
	h, err := parseHead(got)
	if err != nil || h.hash != r.Hash || h.format != FormatJCS || h.seq != seq {
		t.Fatalf("the line does not verify: %+v, %v", h, err)
	}
}

func TestSealRefusesWhatJSONRefuses(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := record(1)
		r.Confidence = f
		if _, err := seal(r, 1, ""); err == nil {
			t.Errorf("confidence %v sealed", f)
		}
	}
	r := record(1)
	r.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := seal(r, 1, ""); err == nil {
		t.Error("year 10000 sealed")
	}
}

func TestSealRefusesInvalidLatencyKey(t *testing.T) {
	r := record(1)
	r.LatencyUS["a\xff"] = 1
	if _, err := seal(r, 2, "p"); err == nil {
		t.Fatal("a latency key that is not UTF-8 was sealed")
	}
}

// TestArgumentsNotIJSON records tool arguments that RFC 8785 cannot canonicalise as a
// JSON string holding their text: the record stays canonical and verifiable.
func TestArgumentsNotIJSON(t *testing.T) {
	for _, args := range []string{`{"a":1,"a":2}`, `{"x":`, "{\"s\":\"\xff\"}", `[1e400]`, `"\ud800"`} {
		mk := func() *Record { r := record(1); r.ToolCalls[0].Arguments = json.RawMessage(args); return r }
		checkSeal(t, mk, 1, "")
		line, err := seal(mk(), 1, "")
		if err != nil {
			t.Fatal(err)
		}
		var back Record
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatal(err)
		}
		var text string
		if err := json.Unmarshal(back.ToolCalls[0].Arguments, &text); err != nil || text != strings.ToValidUTF8(args, "\uFFFD") {
			t.Errorf("arguments %q recorded as %s", args, back.ToolCalls[0].Arguments)
		}
	}
}

func FuzzSealMatchesJSON(f *testing.F) {
	f.Add("d1", "x\xff<y>", "\u2028", 0.5, []byte(`{"a":1}`))
	f.Add("", "", "", 1e-9, []byte(nil))
	f.Fuzz(func(t *testing.T, id, subject, answer string, conf float64, args []byte) {
		mk := func() *Record {
			r := record(1)
			r.DecisionID, r.Subject.ID, r.Confidence = id, subject, conf
			r.Content = &Content{Answer: answer}
			if utf8.ValidString(subject) {
				r.LatencyUS[subject] = 3
			}
			if json.Valid(args) {
				r.ToolCalls[0].Arguments = args
			}
			return r
		}
		checkSeal(t, mk, 9, subject)
	})
}

func BenchmarkSeal(b *testing.B) {
	r := record(1)
	r.LatencyUS = map[string]int64{"decode": 10, "classify": 30, "admit": 40, "upstream": 200, "inspect": 30, "validate": 20, "enforce": 1, "total": 400}
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var e encoded
			if _, err := e.encode(r); err != nil {
				b.Fatal(err)
			}
			buf = e.link(buf[:0], 1, "prev", r)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sealJSON(r, 1, "prev"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestTrailContinuesOldTrail writes records in the legacy format, continues the file
// with the writer and verifies the whole trail, naming both formats.
func TestTrailContinuesOldTrail(t *testing.T) {
	p := t.TempDir() + "/audit.jsonl"
	var old []byte
	prev := ""
	for i := 1; i <= 3; i++ {
		r := fullRecord()
		r.DecisionID = fmt.Sprint("old-", i)
		line, err := legacySeal(r, uint64(i), prev)
		if err != nil {
			t.Fatal(err)
		}
		old, prev = append(old, line...), r.Hash
	}
	if err := os.WriteFile(p, old, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := 4; i <= 6; i++ {
		r := fullRecord()
		if err := w.Write(r); err != nil || r.Seq != uint64(i) {
			t.Fatalf("write %d: seq %d, %v", i, r.Seq, err)
		}
	}
	w.Close()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v := NewVerifier()
	if brk, err := v.Read(p, f); v.Records != 6 || brk != nil || err != nil {
		t.Fatalf("Verify = %d, %v, %v", v.Records, brk, err)
	}
	want := []Format{{FormatLegacy, 1, 3}, {FormatJCS, 4, 6}}
	if !reflect.DeepEqual(v.Formats, want) {
		t.Fatalf("formats = %v, want %v", v.Formats, want)
	}
}
