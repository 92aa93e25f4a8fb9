package main

import (
	"strings"
	"testing"
)

// TestBenchCommandErrors: the bench command's usage and input errors exit before any
// server is started, with the reason. The harness itself is tested in cmd/weir/loadtest.
func TestBenchCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown flag", []string{"--nope"}, 2, "flag provided but not defined"},
		{"extra argument", []string{"extra"}, 2, "usage: weir bench"},
		{"missing stages file", []string{"--stages", "no-such-file.txt"}, 1, "no-such-file.txt"},
		{"unknown request", []string{"--requests", "tools9", "--config", "../../examples/analytics/weir.yaml"}, 1, `unknown request "tools9"`},
		{"missing config", []string{"--config", "nope.yaml"}, 1, "nope.yaml"},
		{"child without role", []string{"child"}, 2, "a role is required"},
		{"child with unknown role", []string{"child", "db"}, 1, `unknown role "db"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run(append([]string{"bench"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d with %q", code, stderr.String(), tc.code, tc.want)
			}
		})
	}
}
