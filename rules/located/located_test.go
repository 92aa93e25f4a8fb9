package located

import (
	"errors"
	"testing"
)

func TestError(t *testing.T) {
	for _, tc := range []struct {
		e    Error
		want string
	}{
		{Error{File: "rules/a.yaml", Line: 3, Code: "rule_regex_invalid", Message: "bad"}, "rules/a.yaml:3: rule_regex_invalid: bad"},
		{Error{File: "p/x.rego", Line: 3, Col: 7, Code: "rego_parse_error", Message: "m"}, "p/x.rego:3:7: rego_parse_error: m"},
		{Error{File: "weir.yaml", Code: "config_read_error", Message: "m"}, "weir.yaml: config_read_error: m"},
		{Error{Code: "policy_eval_error", Message: "m"}, "policy_eval_error: m"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}

func TestListSortedAndAs(t *testing.T) {
	var l List
	l.Add("b.yaml", 2, "c2", "two")
	l.Add("a.yaml", 9, "c1", "one")
	l.Add("b.yaml", 1, "c3", "%s", "three")
	err := l.Err()
	if err.Error() != "a.yaml:9: c1: one\nb.yaml:1: c3: three\nb.yaml:2: c2: two" {
		t.Errorf("%q", err)
	}
	var got List
	if !errors.As(err, &got) || len(got) != 3 {
		t.Errorf("errors.As: %v", got)
	}
	if (List{}).Err() != nil {
		t.Error("an empty list is an error")
	}
}
