package auth

import (
	"context"
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/weirgw/weir/gateway/config"
)

// fakeRequest is a request with headers (every copy) and a peer address.
type fakeRequest struct {
	h    [][2]string
	addr netip.Addr
}

func req(addr string, kv ...string) *fakeRequest {
	r := &fakeRequest{addr: netip.MustParseAddr(addr)}
	for i := 0; i+1 < len(kv); i += 2 {
		r.h = append(r.h, [2]string{kv[i], kv[i+1]})
	}
	return r
}

func (r *fakeRequest) Header(name string) [][]byte {
	var out [][]byte
	for _, kv := range r.h {
		if strings.EqualFold(kv[0], name) {
			out = append(out, []byte(kv[1]))
		}
	}
	return out
}

func (r *fakeRequest) RemoteAddr() netip.Addr { return r.addr }

var ctx = context.Background()

func TestAPIKeys(t *testing.T) {
	key, digest, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	other, otherDigest, _ := NewKey()
	if !strings.HasPrefix(key, KeyPrefix) || len(key) != len(KeyPrefix)+43 || Digest(key) != digest || len(digest) != 64 {
		t.Fatalf("NewKey = %q %q", key, digest)
	}
	a, err := New(ctx, config.Auth{APIKeys: []config.APIKey{
		{ID: "svc-reports", SHA256: digest, Roles: []string{"analyst"}, Tenant: "acme"},
		{ID: "svc-other", SHA256: otherDigest},
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		r        *fakeRequest
		wantID   string
		wantCode string
	}{
		{"bearer", req("10.0.0.1", "Authorization", "Bearer "+key), "svc-reports", ""},
		{"bearer, scheme in lower case", req("10.0.0.1", "authorization", "bearer "+key), "svc-reports", ""},
		{"x-api-key", req("10.0.0.1", "x-api-key", key), "svc-reports", ""},
		{"both, the same key", req("10.0.0.1", "Authorization", "Bearer "+key, "X-Api-Key", key), "svc-reports", ""},
		{"the other key", req("10.0.0.1", "x-api-key", other), "svc-other", ""},
		{"no credentials", req("10.0.0.1"), "", CodeMissing},
		{"empty bearer", req("10.0.0.1", "Authorization", "Bearer "), "", CodeMissing},
		{"wrong key", req("10.0.0.1", "Authorization", "Bearer "+key+"x"), "", CodeAPIKey},
		{"the digest as a key", req("10.0.0.1", "x-api-key", digest), "", CodeAPIKey},
		{"basic scheme", req("10.0.0.1", "Authorization", "Basic dXNlcjpwYXNz"), "", CodeAPIKey},
		{"two different keys", req("10.0.0.1", "Authorization", "Bearer "+key, "X-Api-Key", other), "", CodeAmbiguous},
		{"two Authorization copies", req("10.0.0.1", "Authorization", "Bearer "+other, "Authorization", "Bearer "+key), "", CodeAmbiguous},
		{"api-key is not read", req("10.0.0.1", "api-key", key), "", CodeMissing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Identify(ctx, tc.r)
			if code := codeOf(err); code != tc.wantCode {
				t.Fatalf("code = %q (%v), want %q", code, err, tc.wantCode)
			}
			if err != nil {
				if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), other) {
					t.Errorf("the error quotes the key: %v", err)
				}
				return
			}
			if id.ID != tc.wantID || id.Method != MethodAPIKey {
				t.Errorf("identity = %+v", id)
			}
			if tc.wantID == "svc-reports" && (!slices.Equal(id.Roles, []string{"analyst"}) || id.Tenant != "acme") {
				t.Errorf("identity = %+v", id)
			}
		})
	}
	// A caller extending the roles it got does not change the configured ones.
	id, _ := a.Identify(ctx, req("10.0.0.1", "x-api-key", key))
	id.Roles = append(id.Roles[:0], "admin")
	if id2, _ := a.Identify(ctx, req("10.0.0.1", "x-api-key", key)); id2.Roles[0] != "analyst" {
		t.Errorf("roles shared: %v", id2.Roles)
	}
}

func TestTrustedHeaders(t *testing.T) {
	key, digest, _ := NewKey()
	a, err := New(ctx, config.Auth{
		APIKeys:        []config.APIKey{{ID: "svc", SHA256: digest}},
		TrustedHeaders: &config.TrustedHeaders{Sources: []string{"10.1.0.0/16", "::1"}, Subject: "X-Forwarded-User", Roles: "X-Forwarded-Groups", Tenant: "X-Tenant"},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name                 string
		r                    *fakeRequest
		wantID, wantTenant   string
		wantRoles            []string
		wantMethod, wantCode string
	}{
		{"from the proxy", req("10.1.2.3", "X-Forwarded-User", "alice", "X-Forwarded-Groups", "analyst, finance", "X-Tenant", "acme"),
			"alice", "acme", []string{"analyst", "finance"}, MethodHeader, ""},
		{"from the proxy, IPv6 loopback", req("::1", "X-Forwarded-User", "bob"), "bob", "", []string{}, MethodHeader, ""},
		{"from the proxy as IPv4-mapped", req("::ffff:10.1.0.9", "X-Forwarded-User", "carol"), "carol", "", []string{}, MethodHeader, ""},
		{"from elsewhere: the headers are not read", req("10.2.0.1", "X-Forwarded-User", "alice"), "", "", nil, "", CodeMissing},
		{"from elsewhere with a key: the key decides", req("10.2.0.1", "X-Forwarded-User", "alice", "X-Forwarded-Groups", "admin", "x-api-key", key),
			"svc", "", []string{}, MethodAPIKey, ""},
		{"from the proxy without the header: other credentials", req("10.1.2.3", "x-api-key", key), "svc", "", []string{}, MethodAPIKey, ""},
		{"subject twice", req("10.1.2.3", "X-Forwarded-User", "alice", "X-Forwarded-User", "admin"), "", "", nil, "", CodeHeaders},
		{"empty subject", req("10.1.2.3", "X-Forwarded-User", " "), "", "", nil, "", CodeHeaders},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := a.Identify(ctx, tc.r)
			if code := codeOf(err); code != tc.wantCode {
				t.Fatalf("code = %q (%v), want %q", code, err, tc.wantCode)
			}
			if err == nil && (id.ID != tc.wantID || id.Tenant != tc.wantTenant || id.Method != tc.wantMethod || !slices.Equal(id.Roles, tc.wantRoles)) {
				t.Errorf("identity = %+v", id)
			}
		})
	}
}

func codeOf(err error) string {
	if err == nil {
		return ""
	}
	return err.(*Error).Code
}
