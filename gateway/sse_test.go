package gateway

import (
	"reflect"
	"testing"
)

func parseAll(t testing.TB, parts ...[]byte) ([]sseEvent, error) {
	var p sseParser
	var out []sseEvent
	for _, b := range parts {
		evs, err := p.feed(b)
		out = append(out, evs...)
		if err != nil {
			return out, err
		}
	}
	evs, err := p.end()
	return append(out, evs...), err
}

func TestSSEParser(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sseEvent
	}{
		{"one event", "data: {\"a\":1}\n\n", []sseEvent{{data: []byte(`{"a":1}`)}}},
		{"crlf", "data: x\r\n\r\ndata: y\r\n\r\n", []sseEvent{{data: []byte("x")}, {data: []byte("y")}}},
		{"cr only", "data: x\r\rdata: y\r\r", []sseEvent{{data: []byte("x")}, {data: []byte("y")}}},
		{"comments and keep-alives", ": ping\n\ndata: x\n: mid\n\n", []sseEvent{{data: []byte("x")}}},
		{"multi-line data", "data: {\"a\":\ndata: 1}\n\n", []sseEvent{{data: []byte("{\"a\":\n1}")}}},
		{"no space after colon", "data:x\n\n", []sseEvent{{data: []byte("x")}}},
		{"only one space stripped", "data:  x\n\n", []sseEvent{{data: []byte(" x")}}},
		{"event name", "event: error\ndata: boom\n\n", []sseEvent{{name: "error", data: []byte("boom")}}},
		{"unknown fields ignored", "id: 3\nretry: 10\ndata: x\n\n", []sseEvent{{data: []byte("x")}}},
		{"empty data field", "data\n\n", []sseEvent{{data: []byte("")}}},
		{"event without data is dropped", "event: x\n\ndata: y\n\n", []sseEvent{{data: []byte("y")}}},
		{"missing final blank line", "data: x\n\ndata: [DONE]", []sseEvent{{data: []byte("x")}, {data: []byte("[DONE]")}}},
		{"missing final newline after data line", "data: y\n", []sseEvent{{data: []byte("y")}}},
		{"trailing CR at end", "data: y\r", []sseEvent{{data: []byte("y")}}},
		{"blank lines only", "\n\n\r\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAll(t, []byte(tc.in))
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("events = %#v, %v; want %#v", got, err, tc.want)
			}
			// Byte by byte gives the same events.
			parts := make([][]byte, len(tc.in))
			for i := range tc.in {
				parts[i] = []byte{tc.in[i]}
			}
			if got, _ := parseAll(t, parts...); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("byte by byte: events = %#v; want %#v", got, tc.want)
			}
		})
	}
}

func TestSSEParserTooLong(t *testing.T) {
	long := make([]byte, maxSSELine+10)
	for i := range long {
		long[i] = 'a'
	}
	if _, err := parseAll(t, []byte("data: "), long); err == nil {
		t.Fatal("an endless line must be refused")
	}
}

// FuzzSSE checks that arbitrary bytes never panic the parser and that splitting the
// input anywhere yields the events of the unsplit input.
func FuzzSSE(f *testing.F) {
	f.Add([]byte("data: {\"a\":1}\r\n\r\ndata: [DONE]\n\n"), []byte{3, 1, 7})
	f.Add([]byte(": c\rdata: x\r\n\rdata:y\n"), []byte{1, 1, 1, 1})
	f.Add([]byte("data: a\ndata: b\n\nevent: e\n"), []byte{0, 5})
	f.Fuzz(func(t *testing.T, in []byte, cuts []byte) {
		want, werr := parseAll(t, in)
		var parts [][]byte
		rest := in
		for _, c := range cuts {
			n := int(c) % (len(rest) + 1)
			parts = append(parts, rest[:n])
			rest = rest[n:]
		}
		parts = append(parts, rest)
		got, gerr := parseAll(t, parts...)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("errors differ: unsplit %v, split %v", werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("split %q into %q: events %#v, want %#v", in, parts, got, want)
		}
	})
}

func TestSentenceEnd(t *testing.T) {
	tests := []struct {
		in   string
		want int // length of the first sentence, -1 for none yet
	}{
		{"Il fatturato è 21.956,62 €. Poi", len("Il fatturato è 21.956,62 €. ")},
		{"Il fatturato è 21.", -1},
		{"Il fatturato è 21.956", -1},
		{"Vedi e.g. questo. Fine", len("Vedi e.g. questo. ")},
		{"Il dott. Rossi dice sì! Ok", len("Il dott. Rossi dice sì! ")},
		{"Davvero?! Sì", len("Davvero?! ")},
		{"Aspetta… poi", len("Aspetta… ")},
		{"Riga uno\nRiga due", len("Riga uno\n")},
		{"Disse \"basta.\" Poi", len("Disse \"basta.\" ")},
		{"J. Smith arrived. Then", len("J. Smith arrived. ")},
		{"Crescita del 3.5% annua", -1},
		{"Fine.", -1},
		{"", -1},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got, _ := sentenceEnd([]byte(tc.in), 0); got != tc.want {
				t.Errorf("sentenceEnd(%q) = %d, want %d", tc.in, got, tc.want)
			}
		})
	}
}

func BenchmarkSSEParser(b *testing.B) {
	var in []byte
	for i := 0; i < 100; i++ {
		in = append(in, textChunk("Il fatturato totale è 21.956,62 €. ")...)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		var p sseParser
		for i := 0; i < len(in); i += 64 {
			_, _ = p.feed(in[i:min(i+64, len(in))])
		}
		_, _ = p.end()
	}
}

func BenchmarkSentenceEnd(b *testing.B) {
	s := []byte("Il fatturato totale è 21.956,62 € (e.g. nel 2025), in crescita del 3,5% rispetto al mese scorso. Poi")
	b.ReportAllocs()
	for b.Loop() {
		_, _ = sentenceEnd(s, 0)
	}
}
