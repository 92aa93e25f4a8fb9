package main

import (
	"bytes"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/config"
)

// TestKeysNew: the printed line is YAML that config reads back, with the key's digest.
func TestKeysNew(t *testing.T) {
	tests := []struct {
		name, id, roles, tenant string
	}{
		{"plain", "svc-reports", "analyst,finance", "acme"},
		{"no roles, no tenant", "ci", "", ""},
		{"names to quote", "team: a", " yes , x y", "on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := []string{"keys", "new", "--id", tc.id, "--roles", tc.roles}
			if tc.tenant != "" {
				args = append(args, "--tenant", tc.tenant)
			}
			if code := run(args, nil, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			lines := strings.Split(out.String(), "\n")
			key, ok := strings.CutPrefix(lines[0], "key: ")
			if !ok || !strings.HasPrefix(key, auth.KeyPrefix) {
				t.Fatalf("output:\n%s", out.String())
			}
			var entry string
			for _, l := range lines {
				if s, ok := strings.CutPrefix(l, "  - "); ok {
					entry = s
				}
			}
			var k config.APIKey
			if err := yaml.Unmarshal([]byte(entry), &k); err != nil {
				t.Fatalf("%q: %v", entry, err)
			}
			var roles []string
			for _, r := range strings.Split(tc.roles, ",") {
				if r = strings.TrimSpace(r); r != "" {
					roles = append(roles, r)
				}
			}
			if k.ID != tc.id || k.SHA256 != auth.Digest(key) || k.Tenant != tc.tenant || strings.Join(k.Roles, "|") != strings.Join(roles, "|") {
				t.Errorf("entry %q read as %+v", entry, k)
			}
			if strings.Contains(entry, key) {
				t.Errorf("the line holds the key")
			}
		})
	}
	var errb bytes.Buffer
	if code := run([]string{"keys", "new"}, nil, &bytes.Buffer{}, &errb); code != 2 {
		t.Errorf("keys new without --id: exit %d", code)
	}
}
