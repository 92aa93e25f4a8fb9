package replay

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/policies"
)

func codes(vs []policies.Violation) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, v.Code)
	}
	return out
}

// recordedCodes are the recorded violations of the decisions replay re-runs: those of the
// request and tools decisions (by the rule that raised them).
func recordedCodes(rec *audit.Record) []string {
	var out []string
	for _, v := range rec.Violations {
		if strings.HasPrefix(v.Rule, "weir.request.") || strings.HasPrefix(v.Rule, "weir.tools.") {
			out = append(out, v.Code)
		}
	}
	return out
}

// diff returns the codes only in now (added) and only in was (removed), sorted, once each.
func diff(was, now []string) (added, removed []string) {
	w, n := set(was), set(now)
	for _, c := range sortedKeys(n) {
		if !w[c] {
			added = append(added, c)
		}
	}
	for _, c := range sortedKeys(w) {
		if !n[c] {
			removed = append(removed, c)
		}
	}
	return added, removed
}

func set(ss []string) map[string]bool {
	m := make(map[string]bool, len(ss))
	for _, s := range ss {
		m[s] = true
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func unquote(s string) string {
	var out string
	if json.Unmarshal([]byte(s), &out) != nil {
		return s
	}
	return out
}
