package nl

import (
	"encoding/json"
	"testing"
)

// FuzzParse: any text reads into a semantic query without panicking, and a query is either
// complete (a source, and something to compute or list) or lists what it does not cover.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"fatturato di marzo", "top 3 piatti per fatturato", "between 10 and 20 January 2024",
		"Pizze vs Primi", "non pagati in contanti", "3 or more", "q4 2024 vs q1 2025", "IT it It", "più di 5 pezzi", "%", "da a tra",
		"¿qué?", "2025-13-45", "1,000,000.5 k", "Dell dell'ordine", "fino al 31 febbraio"} {
		f.Add(s)
	}
	p := exampleParser(f, "analytics")
	f.Fuzz(func(t *testing.T, text string) {
		sq := p.Parse(text, clock)
		if _, err := json.Marshal(sq); err != nil {
			t.Fatal(err)
		}
		if len(sq.Uncovered) == 0 && (sq.Source == "" || (len(sq.Measures) == 0 && !sq.Rows)) {
			t.Fatalf("%q: complete but empty: %+v", text, sq)
		}
	})
}
