package gateway

import (
	"crypto/rand"
	"strings"
	"testing"
)

// TestNewDecisionIDFormat pins the id format to crypto/rand.Text's (26 characters of the
// standard base32 alphabet), which the ids had before, and checks that ids do not repeat and
// that every character of every position is used (a stuck or short bit source would not).
func TestNewDecisionIDFormat(t *testing.T) {
	want := rand.Text()
	seen := map[string]bool{}
	var used [26]map[byte]bool
	for i := range used {
		used[i] = map[byte]bool{}
	}
	for range 20000 {
		id := newDecisionID()
		if len(id) != len(want) {
			t.Fatalf("id %q has %d characters, want %d like rand.Text", id, len(id), len(want))
		}
		for i := range len(id) {
			if !strings.ContainsRune(base32Alphabet, rune(id[i])) {
				t.Fatalf("id %q: character %q is not base32", id, id[i])
			}
			used[i][id[i]] = true
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
	for i, u := range used {
		if len(u) != 32 {
			t.Errorf("position %d used %d of the 32 characters", i, len(u))
		}
	}
}

func BenchmarkDecisionID(b *testing.B) {
	b.Run("newDecisionID", func(b *testing.B) {
		for b.Loop() {
			_ = newDecisionID()
		}
	})
	b.Run("rand.Text", func(b *testing.B) {
		for b.Loop() {
			_ = rand.Text()
		}
	})
}
