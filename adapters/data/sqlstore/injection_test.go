package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/weirgw/weir/adapters/data"
)

var payloads = []string{
	`x'); DROP TABLE orders; --`,
	`'; DELETE FROM orders WHERE '1'='1`,
	`" OR 1=1 --`,
	`Marco' OR '1'='1`,
	`%' OR 1=1; UPDATE orders SET unit_price = 0; --`,
	`\'; DROP TABLE orders; --`,
	"Marco\x00; DROP TABLE orders",
	`$1; DROP TABLE orders`,
	`?1); DROP TABLE orders; --`,
}

// TestInjection sends SQL through every part of a query. Each attempt must either be
// rejected by validation (a *QueryError) or run harmlessly as a parameter; afterwards the
// table must still exist with unchanged rows.
func TestInjection(t *testing.T) {
	ds := analyticsDataset(t)
	for _, b := range backends(t) {
		st := loadAnalytics(t, b.dsn, 941)
		before := fingerprint(t, st, ds)
		for i, q := range injectionQueries() {
			t.Run(fmt.Sprintf("%s/%d", b.name, i), func(t *testing.T) {
				res, err := run(t, st, ds, q.json)
				switch {
				case q.rejected && !data.IsInvalidQuery(err):
					t.Errorf("%s: want a validation error, got %v (%v)", q.json, err, res)
				case !q.rejected && err != nil:
					t.Errorf("%s: want a harmless query, got %v", q.json, err)
				case !q.rejected && len(res.Rows) > 0 && res.Rows[0].Get("count") != nil && res.Rows[0].Get("count") != int64(0):
					t.Errorf("%s: matched %v rows", q.json, res.Rows[0].Get("count"))
				}
			})
		}
		if after := fingerprint(t, st, ds); after != before {
			t.Errorf("%s: data changed: %s -> %s", b.name, before, after)
		}
	}
}

type injection struct {
	json     string
	rejected bool
}

func injectionQueries() []injection {
	var qs []injection
	agg := `{"type":"aggregation","filters":[%s],"aggregations":[{"operation":"count"}]}`
	for _, p := range payloads {
		v := jsonString(p)
		nul := strings.ContainsRune(p, 0) // NUL is not text: rejected by validation
		for _, op := range []string{"equals", "contains", "startsWith"} {
			for _, ms := range data.MatchStrategies {
				qs = append(qs, injection{fmt.Sprintf(agg, fmt.Sprintf(`{"field":"waiter","operator":%q,"value":%s,"matchStrategy":%q}`, op, v, ms)), nul})
			}
		}
		qs = append(qs,
			injection{fmt.Sprintf(agg, `{"field":"waiter","operator":"in","value":["Nobody",`+v+`]}`), nul},
			injection{fmt.Sprintf(agg, `{"field":"waiter","operator":"in","value":[`+v+`],"matchStrategy":"fuzzy"}`), nul},
			// Not a number or a date: rejected before any SQL exists.
			injection{fmt.Sprintf(agg, `{"field":"unit_price","operator":"greaterThan","value":`+v+`}`), true},
			injection{fmt.Sprintf(agg, `{"field":"order_date","operator":"between","value":["2025-01-01",`+v+`]}`), true},
			// Identifiers: only schema names are accepted.
			injection{fmt.Sprintf(agg, `{"field":`+v+`,"operator":"equals","value":"x"}`), true},
			injection{fmt.Sprintf(agg, `{"field":"waiter","operator":`+v+`,"value":"x"}`), true},
			injection{fmt.Sprintf(agg, `{"field":"waiter","operator":"equals","value":"x","matchStrategy":`+v+`}`), true},
			injection{fmt.Sprintf(agg, `{"field":"waiter","operator":"equals","value":"x","logicalOperator":`+v+`}`), true},
			injection{`{"type":"aggregation","filters":[],"aggregations":[{"operation":"count","groupBy":` + v + `}]}`, true},
			injection{`{"type":"aggregation","filters":[],"aggregations":[{"field":` + v + `,"operation":"sum"}]}`, true},
			injection{`{"type":"aggregation","filters":[],"aggregations":[{"operation":` + v + `,"field":"quantity"}]}`, true},
			injection{`{"type":"aggregation","filters":[],"aggregations":[{"metric":` + v + `}]}`, true},
			injection{`{"type":"detail","filters":[],"orderBy":` + v + `}`, true},
			injection{`{"type":` + v + `,"filters":[]}`, true},
		)
	}
	for _, id := range []string{`waiter"`, `waiter" --`, `"waiter"`, "waiter`", `waiter; DROP TABLE orders`, `unit_price desc, (SELECT 1)`, `unit_price desc; DROP TABLE orders`} {
		v := jsonString(id)
		qs = append(qs,
			injection{fmt.Sprintf(agg, `{"field":`+v+`,"operator":"equals","value":"x"}`), true},
			injection{`{"type":"detail","filters":[],"orderBy":` + v + `}`, true},
			injection{`{"type":"aggregation","filters":[],"aggregations":[{"operation":"count","groupBy":` + v + `}]}`, true},
		)
	}
	return qs
}

func jsonString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\x00", `\u0000`)
	return `"` + r.Replace(s) + `"`
}

// fingerprint summarises the table so that any change shows.
func fingerprint(t *testing.T, st *Store, ds *data.Dataset) string {
	t.Helper()
	res := mustRun(t, st, ds, `{"type":"aggregation","filters":[],"aggregations":[{"metric":"revenue"},{"metric":"food_cost"},{"metric":"order_count"},{"field":"waiter","operation":"count"},{"field":"order_date","operation":"max"}]}`)
	return fmt.Sprint(res.Rows[0].Values)
}

// TestReadOnly checks that the store's connections refuse writes.
func TestReadOnly(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := loadAnalytics(t, b.dsn, 20)
			ctx := context.Background()
			tx, err := st.db.BeginTx(ctx, nil)
			if b.name == "postgres" {
				tx, err = st.db.BeginTx(ctx, readOnlyTx)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, "DELETE FROM orders"); err == nil {
				t.Fatal("DELETE succeeded on a read-only store")
			}
		})
	}
}

// TestTimeout checks that a query past its deadline is a system error, not an invalid query.
func TestTimeout(t *testing.T) {
	b := backends(t)[0]
	loadAnalytics(t, b.dsn, 20)
	st, err := Open(context.Background(), b.dsn, Options{Timeout: time.Nanosecond})
	if err == nil {
		defer st.Close()
		_, err = run(t, st, analyticsDataset(t), `{"type":"detail","filters":[]}`)
	}
	if !errors.Is(err, context.DeadlineExceeded) || data.IsInvalidQuery(err) {
		t.Fatalf("err = %v, want a deadline error", err)
	}
}

// TestOpenMissingSQLite checks that a read-only open never creates a database file.
func TestOpenMissingSQLite(t *testing.T) {
	if _, err := Open(context.Background(), "sqlite://"+t.TempDir()+"/missing.db", Options{}); err == nil {
		t.Fatal("opened a missing database")
	}
}
