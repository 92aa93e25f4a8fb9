package semantic

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/weirgw/weir/adapters/data"
)

// TestRankedRows: rows ordered by a number and asked as a ranking are each row's key with
// that number, ties at the cut kept; ordered by a quantity, they must share one unit.
func TestRankedRows(t *testing.T) {
	mm := openExample(t, "trade", [3]string{"transactions", "schema.yaml", "transactions.csv"})
	q := &Query{Source: "transactions", Rows: true, Order: &Order{Field: "totalValueUSD", Desc: true, Ranked: true}, Limit: 2}
	res, err := Execute(context.Background(), mm.m, q, mm.read)
	if err != nil || res.Shape != ShapeGroups || res.Dimension != "declarationNumber" || len(res.Groups) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	if res.Groups[0].Label != "DEC-2024-037" || res.Groups[0].Values[0] != 11722300.0 || res.Units[0] != "USD" {
		t.Fatalf("%+v", res.Groups)
	}
	q.Order.Ranked = false // "which declaration had the highest value": the rows themselves
	if res, err := Execute(context.Background(), mm.m, q, mm.read); err != nil || res.Shape != ShapeRows {
		t.Fatalf("%+v %v", res, err)
	}
	byQty := &Query{Source: "transactions", Rows: true, Order: &Order{Field: "quantity", Ranked: true}, Limit: 2}
	_, err = Execute(context.Background(), mm.m, byQty, mm.read)
	var un *Unanswerable
	if !errors.As(err, &un) || !strings.Contains(un.Reason, "different units") {
		t.Fatalf("rows ranked by quantities in kg and pcs: %v", err)
	}
	byQty.Filters = []Filter{{Source: "transactions", Field: "goodsName", Op: data.OpIn, Values: []any{"Frozen shrimp"}}}
	res, err = Execute(context.Background(), mm.m, byQty, mm.read)
	if err != nil || res.Units[0] != "kg" || len(res.Groups) < 2 || res.Groups[0].Values[0] != 500.0 {
		t.Fatalf("%+v %v", res, err)
	}
}

// TestRatioUnits: a metric over a field recorded in several units (value per quantity) is
// computed only over rows of one unit, and named per that unit.
func TestRatioUnits(t *testing.T) {
	mm := openExample(t, "trade", [3]string{"transactions", "schema.yaml", "transactions.csv"})
	price := []Measure{{Metric: "average_unit_price", Unit: "USD"}}
	_, err := Execute(context.Background(), mm.m, &Query{Source: "transactions", Measures: price}, mm.read)
	var un *Unanswerable
	if !errors.As(err, &un) || !strings.Contains(un.Reason, "different units") {
		t.Fatalf("a price per kg and per piece at once: %v", err)
	}
	shrimp := []Filter{{Source: "transactions", Field: "goodsName", Op: data.OpIn, Values: []any{"Frozen shrimp"}}}
	res, err := Execute(context.Background(), mm.m, &Query{Source: "transactions", Measures: []Measure{{Metric: "average_unit_price", Unit: "USD"}}, Filters: shrimp}, mm.read)
	if err != nil || res.Units[0] != "USD per kg" {
		t.Fatalf("%+v %v", res, err)
	}
}
