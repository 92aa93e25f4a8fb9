package semantic

import "testing"

func TestJoinAnd(t *testing.T) {
	for _, c := range []struct {
		list []string
		sep  string
		want string
	}{
		{nil, ", ", ""},
		{[]string{"a"}, "; ", "a"},
		{[]string{"a", "b"}, ", ", "a and b"},
		{[]string{"a", "b", "c"}, ", ", "a, b and c"},
		{[]string{"a", "b"}, "; ", "a; and b"},
		{[]string{"a", "b", "c"}, "; ", "a; b; and c"},
	} {
		if got := JoinAnd(c.list, c.sep); got != c.want {
			t.Errorf("JoinAnd(%q, %q) = %q, want %q", c.list, c.sep, got, c.want)
		}
	}
}
