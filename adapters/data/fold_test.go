package data

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"  CÔNG  TY\tÁbc ": "cong ty abc",
		"Tiramisù":         "tiramisu",
		"Caffè":            "caffe",
		"Đà Nẵng":          "da nang",
		"Crème brûlée":     "creme brulee",
		"e\u0301te\u0301":  "ete",
		"Łódź":             "lodz",
		"Straße":           "straße",
		"":                 "",
		"ALREADY folded":   "already folded",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoldTable checks that the translate() table is one rune to one rune and agrees with
// Fold, so PostgreSQL and SQLite normalize alike.
func TestFoldTable(t *testing.T) {
	from, to := FoldTable()
	fr, tr := []rune(from), []rune(to)
	if len(fr) <= len(tr) || len(tr) < 300 {
		t.Fatalf("table sizes %d -> %d", len(fr), len(tr))
	}
	for i, r := range tr {
		if got := Fold(string(fr[i])); got != string(r) {
			t.Errorf("%q: table %q, Fold %q", fr[i], r, got)
		}
	}
	if !utf8.ValidString(from) || strings.ContainsRune(to, 0) {
		t.Error("invalid table")
	}
}

func TestFuzzyMatch(t *testing.T) {
	cases := []struct {
		op, hay, needle string
		k               int
		want            bool
	}{
		{OpEquals, "giulia", "giula", 1, true},
		{OpEquals, "giulia", "giula", 0, false},
		{OpEquals, "marco", "marco", 0, true},
		{OpEquals, "spaghetti alla carbonara", "carbonara", 2, false},
		{OpContains, "spaghetti alla carbonara", "carbonra", 1, true},
		{OpContains, "spaghetti alla carbonara", "amatriciana", 2, false},
		{OpStartsWith, "pizza diavola", "piza", 1, true},
		{OpStartsWith, "pizza diavola", "diavola", 1, false},
		{OpEquals, "", "ab", 2, true},
	}
	for _, tc := range cases {
		if got := FuzzyMatch(tc.op, tc.hay, tc.needle, tc.k); got != tc.want {
			t.Errorf("FuzzyMatch(%s, %q, %q, %d) = %v", tc.op, tc.hay, tc.needle, tc.k, got)
		}
	}
	if d := Levenshtein("kitten", "sitting"); d != 3 {
		t.Errorf("Levenshtein = %d", d)
	}
}
