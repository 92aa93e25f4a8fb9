// Package demo generates Weir's deterministic demo datasets.
package demo

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

// Golden values of seed 002 ("Golden Test Values"), which the default analytics dataset
// reproduces exactly.
const (
	GoldenRows          = 941
	GoldenRevenueCents  = 2195662 // revenue 21956.62
	GoldenFoodCostCents = 768961  // food_cost 7689.61
	// DefaultSeed is the seed of the shipped dataset.
	DefaultSeed = 2025
)

// AnalyticsColumns are the columns of the orders table, in order (issue 6).
var AnalyticsColumns = []string{"order_id", "order_date", "customer_id", "item_name", "category",
	"unit_price", "unit_cost", "quantity", "discount_percent", "payment_method", "table_id", "waiter", "tax_rate"}

// AnalyticsFields are the orders table's fields with their types.
func AnalyticsFields() []data.Field {
	types := []data.FieldType{data.TypeString, data.TypeDate, data.TypeString, data.TypeString, data.TypeString,
		data.TypeNumber, data.TypeNumber, data.TypeInt, data.TypeNumber, data.TypeString, data.TypeInt, data.TypeString, data.TypeNumber}
	fs := make([]data.Field, len(AnalyticsColumns))
	for i, c := range AnalyticsColumns {
		fs[i] = data.Field{Name: c, Column: c, Type: types[i]}
	}
	return fs
}

// item is a menu item with its price and ingredient cost in cents.
type item struct {
	name, category string
	price, cost    int
	maxQty         int
}

var menu = []item{
	{"Bruschetta al pomodoro", "Antipasti", 650, 180, 3}, {"Tagliere di salumi", "Antipasti", 1400, 560, 2},
	{"Caprese", "Antipasti", 900, 340, 2}, {"Arancini siciliani", "Antipasti", 750, 230, 3},
	{"Spaghetti alla carbonara", "Primi", 1200, 360, 3}, {"Cacio e pepe", "Primi", 1100, 310, 3},
	{"Lasagna alla bolognese", "Primi", 1300, 420, 2}, {"Risotto ai funghi porcini", "Primi", 1500, 540, 2},
	{"Tagliatelle al ragù", "Primi", 1250, 390, 3}, {"Gnocchi al pesto", "Primi", 1150, 330, 2},
	{"Tagliata di manzo", "Secondi", 2200, 950, 2}, {"Saltimbocca alla romana", "Secondi", 1800, 720, 2},
	{"Branzino al forno", "Secondi", 2100, 880, 2}, {"Pollo alla cacciatora", "Secondi", 1600, 590, 2},
	{"Frittura di calamari", "Secondi", 1700, 640, 2},
	{"Pizza Margherita", "Pizze", 800, 210, 4}, {"Pizza Diavola", "Pizze", 950, 290, 3},
	{"Pizza Quattro formaggi", "Pizze", 1050, 360, 3}, {"Pizza Capricciosa", "Pizze", 1000, 340, 3},
	{"Pizza Marinara", "Pizze", 650, 150, 3},
	{"Patate al forno", "Contorni", 450, 110, 3}, {"Insalata mista", "Contorni", 400, 100, 3},
	{"Verdure grigliate", "Contorni", 500, 160, 2},
	{"Tiramisù", "Dolci", 600, 180, 3}, {"Panna cotta", "Dolci", 550, 140, 3}, {"Cannolo siciliano", "Dolci", 500, 170, 3},
	{"Acqua minerale", "Bevande", 250, 40, 6}, {"Coca-Cola", "Bevande", 350, 90, 4}, {"Birra media", "Bevande", 550, 160, 4},
	{"Calice di Chianti", "Vini", 600, 200, 4}, {"Bottiglia di Montepulciano", "Vini", 2400, 900, 2},
	{"Prosecco al calice", "Vini", 650, 210, 4},
	{"Caffè espresso", "Caffetteria", 150, 25, 6}, {"Cappuccino", "Caffetteria", 200, 45, 4}, {"Amaro", "Caffetteria", 400, 120, 4},
}

// special is the daily special whose price and cost vary; in the default dataset its last
// occurrence carries the calibration that makes the totals equal seed 002's golden values.
const special = "Piatto del giorno"

var (
	waiters  = []string{"Marco", "Giulia", "Luca", "Sara", "Alessandro"}
	payments = []string{"Carta di credito", "Carta di credito", "Bancomat", "Bancomat", "Contanti", "Contanti", "Satispay"}
	start    = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	days     = 151 // January to May 2025
)

// line is one generated order line before formatting.
type line struct {
	day         int
	it          item
	qty         int
	discount    int
	payment     string
	table       int
	waiter      string
	customer    int
	seq         int
	price, cost int
}

// Analytics returns the restaurant orders dataset of seed 002: rows in AnalyticsColumns
// order. With rows == GoldenRows it is calibrated to the golden totals (for any seed); the
// shipped dataset is Analytics(GoldenRows, DefaultSeed).
func Analytics(rows int, seed uint64) [][]any {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	lines := make([]line, rows)
	for i := range lines {
		lines[i] = randomLine(rng, i)
	}
	if rows == GoldenRows {
		calibrate(rng, lines)
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].day < lines[j].day })
	out := make([][]any, rows)
	for i, l := range lines {
		out[i] = l.row(i + 1)
	}
	return out
}

func randomLine(rng *rand.Rand, seq int) line {
	it := menu[rng.IntN(len(menu))]
	l := line{
		day: rng.IntN(days), it: it, qty: 1 + rng.IntN(it.maxQty),
		payment: payments[rng.IntN(len(payments))], table: 1 + rng.IntN(20),
		waiter: waiters[rng.IntN(len(waiters))], customer: 1 + rng.IntN(240), seq: seq,
		price: it.price, cost: it.cost,
	}
	switch d := rng.IntN(20); {
	case d == 0:
		l.discount = 20
	case d <= 2:
		l.discount = 10
	}
	return l
}

func (l line) row(n int) []any {
	tax := 10.0
	if l.it.category == "Vini" || l.it.name == "Birra media" || l.it.name == "Amaro" {
		tax = 22
	}
	return []any{
		fmt.Sprintf("ORD-%05d", n), start.AddDate(0, 0, l.day).Format(time.DateOnly), fmt.Sprintf("CUST-%03d", l.customer),
		l.it.name, l.it.category, float64(l.price) / 100, float64(l.cost) / 100, int64(l.qty), float64(l.discount),
		l.payment, int64(l.table), l.waiter, tax,
	}
}

// calibrate makes the totals equal the golden values: a local search swaps items and
// quantities of random lines until the remainder fits one plausible daily special
// (15–30 €, 30–45% food cost), which the last line then becomes.
func calibrate(rng *rand.Rand, lines []line) {
	last := len(lines) - 1
	sumRev, sumCost := 0, 0
	for _, l := range lines[:last] {
		sumRev += l.price * l.qty
		sumCost += l.cost * l.qty
	}
	dist := func(rev, cost int) int {
		r, c := GoldenRevenueCents-rev, GoldenFoodCostCents-cost
		return outside(r, 1500, 3000) + outside(c*100, 30*r, 45*r)/100
	}
	// The search converges in a few hundred steps; the cap only guarantees termination (the
	// totals are exact either way, the special would merely be less plausible).
	for d, steps := dist(sumRev, sumCost), 0; d > 0 && steps < 1_000_000; steps++ {
		i := rng.IntN(last)
		cand := randomLine(rng, lines[i].seq)
		cand.day, cand.payment, cand.table, cand.waiter, cand.customer = lines[i].day, lines[i].payment, lines[i].table, lines[i].waiter, lines[i].customer
		rev := sumRev - lines[i].price*lines[i].qty + cand.price*cand.qty
		cost := sumCost - lines[i].cost*lines[i].qty + cand.cost*cand.qty
		if nd := dist(rev, cost); nd < d {
			lines[i], sumRev, sumCost, d = cand, rev, cost, nd
		}
	}
	sp := &lines[last]
	sp.it = item{name: special, category: "Secondi"}
	sp.qty, sp.discount = 1, 0
	sp.price, sp.cost = GoldenRevenueCents-sumRev, GoldenFoodCostCents-sumCost
}

func outside(v, lo, hi int) int {
	switch {
	case v < lo:
		return lo - v
	case v > hi:
		return v - hi
	}
	return 0
}
