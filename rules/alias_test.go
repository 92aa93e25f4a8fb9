package rules

import (
	"reflect"
	"testing"
)

// TestFindInMatchesFind checks that reading an alias table's terms off the prefilter's scan,
// by the literals seen or by the table's terms, finds what the table's own scan finds.
func TestFindInMatchesFind(t *testing.T) {
	checked := 0
	for dir, p := range condPacks(t) {
		if p.prefilter == nil {
			continue
		}
		var tables []*aliasMatcher
		for _, x := range p.extractors {
			if x.table != nil && x.table.lits != nil {
				tables = append(tables, x.table)
			}
		}
		qs := []string{"", question200}
		if dir != "synthetic" {
			qs = append(qs, corpus(p, dir)...)
		}
		c := NewClassifier(p)
		for _, q := range qs {
			s, norm, _ := c.begin(q)
			for _, m := range tables {
				want := m.find(norm.text, nil)
				for _, byFound := range []bool{true, false} {
					got := m.findInBy(byFound, norm.text, s.pf, nil)
					if len(got) != 0 || len(want) != 0 {
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("%s: table %s on %q (by literals seen: %v): got %v, want %v", dir, m.name, q, byFound, got, want)
						}
						checked++
					}
				}
			}
			s.release()
		}
	}
	if checked == 0 {
		t.Fatal("no table found anything")
	}
	t.Logf("%d non-empty results agree", checked)
}
