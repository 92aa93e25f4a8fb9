package query

import (
	"testing"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/data/semantic"
)

// TestDescribeWeekday: a condition on the weekday of a date names the days, whether the
// reader (ints) or a model's tool call (JSON numbers) sent them.
func TestDescribeWeekday(t *testing.T) {
	for _, vals := range [][]any{{6, 0}, {6.0, 0.0}} {
		q := &semantic.Query{Filters: []semantic.Filter{{Field: "order_date", Part: data.GroupWeekday, Op: data.OpIn, Values: vals}}}
		if got, want := describeQuery(q), " where the weekday of order_date in [Saturday, Sunday]"; got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
