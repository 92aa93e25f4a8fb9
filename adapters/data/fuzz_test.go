package data

import (
	"testing"
)

// FuzzPlan feeds arbitrary JSON to ParseQuery and Plan: they must never panic, and every
// error must be a *QueryError (a malformed query is never a system error).
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		`{"type":"detail","filters":[{"field":"importCountry","operator":"equals","value":"China","matchStrategy":"fuzzy","fuzzyThreshold":3}]}`,
		`{"type":"aggregation","filters":[{"field":"date","operator":"between","value":["2024-01-01","2024-02-01"]}],"aggregations":[{"metric":"total_value","groupBy":"month"}],"orderBy":"total_value desc","limit":5}`,
		`{"type":"detail","filters":[{"field":"quantity","operator":"in","value":[1,"2",null,true,{}]}]}`,
		`{"type":"ranking","filters":[],"aggregations":[{"field":"quantity","operation":"max","groupBy":"year"},{"operation":"count"}]}`,
		`{"type":"detail","filters":[{"field":"goodsName","operator":"contains","value":"","logicalOperator":"OR"}]}`,
	} {
		f.Add([]byte(s))
	}
	ds := tradeDataset(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := ParseQuery(b)
		if err != nil {
			if !IsInvalidQuery(err) {
				t.Fatalf("parse error is not a QueryError: %v", err)
			}
			return
		}
		p, err := ds.Plan(q)
		if err != nil {
			if !IsInvalidQuery(err) {
				t.Fatalf("plan error is not a QueryError: %v", err)
			}
			return
		}
		if p.Limit < 1 || p.Limit > ds.Schema().MaxLimit {
			t.Fatalf("limit %d", p.Limit)
		}
		Eval(p, nil)
	})
}
