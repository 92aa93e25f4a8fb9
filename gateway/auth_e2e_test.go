package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/weirgw/weir/gateway/audit"
	"github.com/weirgw/weir/gateway/auth"
	"github.com/weirgw/weir/gateway/auth/authtest"
)

// acmeBundle is the example tenant bundle whose roles.rego gates filter_data on the
// analyst role.
func acmeBundle() string {
	root, _ := filepath.Abs("..")
	return filepath.Join(root, "examples/analytics/tenants/acme/policies")
}

// previewBody asks for raw rows (intent data_preview, whose only tool is filter_data) as
// the end user alice.
const previewBody = `{"model":"m","user":"alice@example.com","messages":[{"role":"user","content":"Mostrami le prime 10 righe"}],` +
	`"tools":[{"type":"function","function":{"name":"filter_data","parameters":{"type":"object"}}}]}`

// keyedGateway serves the analytics example with two API keys of tenant acme — an analyst
// and a viewer — on a route that requires credentials; the upstream proposes filter_data.
func keyedGateway(t *testing.T, extra string) (e *testEnv, analyst, viewer string) {
	t.Helper()
	analyst, ad, _ := auth.NewKey()
	viewer, vd, _ := auth.NewKey()
	e = startGateway(t, gwParams{routeAuth: "required", extra: fmt.Sprintf(`auth:
  api_keys:
    - {id: svc-analyst, sha256: %s, roles: [analyst], tenant: acme}
    - {id: svc-viewer, sha256: %s, roles: [viewer], tenant: acme}
tenants:
  acme: {policies: %s}
%s`, ad, vd, acmeBundle(), extra)})
	e.up.set(reply("", call{"filter_data", `{"limit":10}`}))
	return e, analyst, viewer
}

// TestAPIKeyAuth is the acceptance for keys: no key → 401, a wrong key → 401, a
// valid key → its roles reach the policy (the role-gated tool is allowed for one key and
// refused for the other), the record's subject is the key's id and the body's user is only
// end_user.
func TestAPIKeyAuth(t *testing.T) {
	e, analyst, viewer := keyedGateway(t, "")
	tests := []struct {
		name       string
		headers    [][2]string
		wantStatus int
		wantType   string
		wantCode   string
		wantID     string
	}{
		{"no key", nil, 401, "authentication_error", "missing_credentials", ""},
		{"wrong key", [][2]string{{"Authorization", "Bearer weir_not-a-key"}}, 401, "authentication_error", "invalid_api_key", ""},
		{"two keys", [][2]string{{"Authorization", "Bearer " + analyst}, {"X-Api-Key", viewer}}, 401, "authentication_error", "ambiguous_credentials", ""},
		{"analyst: the gated tool is allowed", [][2]string{{"Authorization", "Bearer " + analyst}}, 200, "", "", "svc-analyst"},
		{"analyst as x-api-key", [][2]string{{"X-Api-Key", analyst}}, 200, "", "", "svc-analyst"},
		{"viewer: the gated tool is refused", [][2]string{{"Authorization", "Bearer " + viewer}}, 403, "policy_violation", "role_required", "svc-viewer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, h := postWith(t, e, "/v1/chat/completions", []byte(previewBody), tc.headers)
			if status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", status, tc.wantStatus, body)
			}
			rec := e.lastRecord(t)
			if rec.DecisionID != string(h.Peek("X-Weir-Decision-Id")) || rec.Status != status {
				t.Errorf("record %s/%d, answer %s/%d", rec.DecisionID, rec.Status, h.Peek("X-Weir-Decision-Id"), status)
			}
			if rec.EndUser != "alice@example.com" || rec.Subject.ID == "alice@example.com" {
				t.Errorf("end_user %q, subject %+v: the body's user is only end_user", rec.EndUser, rec.Subject)
			}
			if tc.wantStatus != 200 {
				var eb errorBody
				if json.Unmarshal(body, &eb) != nil || eb.Error.Type != tc.wantType || eb.Error.Code != tc.wantCode || eb.Error.DecisionID != rec.DecisionID {
					t.Errorf("error body %s, want type %s code %s", body, tc.wantType, tc.wantCode)
				}
				if rec.Outcome != audit.OutcomeBlocked {
					t.Errorf("outcome %q", rec.Outcome)
				}
			}
			if status == 401 {
				if got := string(h.Peek("WWW-Authenticate")); !strings.HasPrefix(got, "Bearer") {
					t.Errorf("WWW-Authenticate %q", got)
				}
				if rec.Subject.AuthMethod != "none" || rec.Subject.ID != "" || rec.Error != tc.wantCode {
					t.Errorf("a refused caller's record: subject %+v error %q", rec.Subject, rec.Error)
				}
				return
			}
			want := audit.Subject{ID: tc.wantID, Roles: []string{strings.TrimPrefix(tc.wantID, "svc-")}, Tenant: "acme", AuthMethod: "api_key"}
			if rec.Subject.ID != want.ID || !slices.Equal(rec.Subject.Roles, want.Roles) || rec.Subject.Tenant != "acme" || rec.Subject.AuthMethod != "api_key" {
				t.Errorf("subject %+v, want %+v", rec.Subject, want)
			}
			if rec.PolicyRevision != e.g.Snapshot().routes[0].sets["acme"].Bundle.Revision() || rec.PolicyRevision == e.g.Snapshot().Bundle.Revision() {
				t.Errorf("policy revision %s: want the tenant bundle's", rec.PolicyRevision)
			}
			if status == 200 && (len(rec.ToolCalls) != 1 || !rec.ToolCalls[0].Allowed || !strings.Contains(string(body), "filter_data")) {
				t.Errorf("the analyst's call: %+v %s", rec.ToolCalls, body)
			}
		})
	}
	// The keys never left Weir: not upstream, not in the logs, not in the trail.
	e.up.mu.Lock()
	header := e.up.header
	e.up.mu.Unlock()
	trail, _ := json.Marshal(e.records(t))
	for where, text := range map[string]string{"upstream request": header, "logs": e.logs.String(), "audit trail": string(trail)} {
		for _, key := range []string{analyst, viewer} {
			if strings.Contains(text, key) || strings.Contains(text, auth.Digest(key)) {
				t.Errorf("the %s holds a client key", where)
			}
		}
	}
	if !strings.Contains(header, "Authorization: Bearer upstream-key") {
		t.Errorf("the upstream did not get the route's key:\n%s", header)
	}
}

// TestJWTAuth is the same acceptance with tokens from a JWKS file, plus the tokens that
// must be refused.
func TestJWTAuth(t *testing.T) {
	is := authtest.NewIssuer(t)
	dir := t.TempDir()
	e := startGateway(t, gwParams{dir: dir, routeAuth: "required", extra: fmt.Sprintf(`auth:
  jwt: {jwks_file: %s, issuer: %q, audience: %s, tenant_claim: org}
tenants:
  acme: {policies: %s}
`, is.WriteJWKS(t, dir), is.URL, is.Audience, acmeBundle())})
	e.up.set(reply("", call{"filter_data", `{"limit":10}`}))
	claims := func(sub, role string, extra authtest.Claims) authtest.Claims {
		c := authtest.Claims{"sub": sub, "roles": []string{role}, "org": "acme"}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	forger := authtest.NewIssuer(t)
	tests := []struct {
		name       string
		token      string
		wantStatus int
		wantCode   string
	}{
		{"analyst RS256", is.Token(t, authtest.KidRSA, claims("ana", "analyst", nil)), 200, ""},
		{"analyst EdDSA", is.Token(t, authtest.KidEd, claims("ana", "analyst", nil)), 200, ""},
		{"viewer ES256", is.Token(t, authtest.KidEC, claims("vic", "viewer", nil)), 403, "role_required"},
		{"expired", is.Token(t, authtest.KidRSA, claims("ana", "analyst", authtest.Claims{"exp": 1_600_000_000})), 401, "token_expired"},
		{"wrong audience", is.Token(t, authtest.KidRSA, claims("ana", "analyst", authtest.Claims{"aud": "other"})), 401, "invalid_audience"},
		{"wrong signature", forger.Token(t, authtest.KidRSA, claims("ana", "analyst", nil)), 401, "invalid_token"},
		{"alg none", is.Unsigned(claims("ana", "analyst", nil)), 401, "unsupported_token_algorithm"},
		{"HS256 with the public key", is.HMACWithPublicKey(t, claims("ana", "analyst", nil)), 401, "unsupported_token_algorithm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body, _ := postWith(t, e, "/v1/chat/completions", []byte(previewBody), [][2]string{{"Authorization", "Bearer " + tc.token}})
			if status != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", status, tc.wantStatus, body)
			}
			rec := e.lastRecord(t)
			if status != 200 {
				var eb errorBody
				if json.Unmarshal(body, &eb) != nil || eb.Error.Code != tc.wantCode || eb.Error.DecisionID != rec.DecisionID {
					t.Errorf("error body %s, want code %s", body, tc.wantCode)
				}
			}
			if status == 401 {
				return
			}
			if rec.Subject.AuthMethod != "jwt" || rec.Subject.Tenant != "acme" || rec.EndUser != "alice@example.com" {
				t.Errorf("record subject %+v end_user %q", rec.Subject, rec.EndUser)
			}
			trail, _ := json.Marshal(e.records(t))
			e.up.mu.Lock()
			header := e.up.header
			e.up.mu.Unlock()
			if strings.Contains(string(trail), tc.token) || strings.Contains(e.logs.String(), tc.token) || strings.Contains(header, tc.token) {
				t.Error("the token is in the trail, the logs or the upstream request")
			}
		})
	}
}

// TestAuthModes: optional serves callers without credentials anonymously but still refuses
// wrong ones; trusted headers are believed from the proxy's address only; the query surface
// answers 401 in seed 000's format.
func TestAuthModes(t *testing.T) {
	key, digest, _ := auth.NewKey()
	keys := fmt.Sprintf("auth:\n  api_keys: [{id: svc, sha256: %s}]\n", digest)
	t.Run("optional", func(t *testing.T) {
		e := startGateway(t, gwParams{routeAuth: "optional", extra: keys})
		for _, tc := range []struct {
			headers    [][2]string
			wantStatus int
			wantMethod string
		}{
			{nil, 200, "none"},
			{[][2]string{{"X-Api-Key", key}}, 200, "api_key"},
			{[][2]string{{"X-Api-Key", "weir_wrong"}}, 401, "none"},
		} {
			status, _, _ := postWith(t, e, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", "")), tc.headers)
			if rec := e.lastRecord(t); status != tc.wantStatus || rec.Subject.AuthMethod != tc.wantMethod {
				t.Errorf("%v: status %d method %q, want %d %q", tc.headers, status, rec.Subject.AuthMethod, tc.wantStatus, tc.wantMethod)
			}
		}
	})
	t.Run("trusted headers", func(t *testing.T) {
		for _, tc := range []struct {
			sources, wantID, wantMethod string
			wantStatus                  int
		}{
			{"[127.0.0.0/8]", "carol", "header", 200},
			{"[10.9.0.0/16]", "", "", 401}, // the test client is not the proxy: the header is not read
		} {
			e := startGateway(t, gwParams{routeAuth: "required", extra: "auth:\n  trusted_headers: {sources: " + tc.sources + ", tenant: X-Tenant}\n"})
			status, _, _ := postWith(t, e, "/v1/chat/completions", []byte(chatBody("Ciao, grazie!", "")),
				[][2]string{{"X-Forwarded-User", "carol"}, {"X-Forwarded-Groups", "analyst,ops"}, {"X-Tenant", "acme"}})
			rec := e.lastRecord(t)
			if status != tc.wantStatus || rec.Subject.ID != tc.wantID || (status == 200 && (rec.Subject.Tenant != "acme" || len(rec.Subject.Roles) != 2)) {
				t.Errorf("sources %s: status %d subject %+v", tc.sources, status, rec.Subject)
			}
			e.up.mu.Lock()
			header := e.up.header
			e.up.mu.Unlock()
			if strings.Contains(header, "carol") {
				t.Errorf("an identity header went upstream:\n%s", header)
			}
		}
	})
	t.Run("query surface", func(t *testing.T) {
		e := startQueryGateway(t, queryParams{example: "analytics", auth: "required", extra: keys})
		status, _, eb, _ := e.ask(t, `{"query":"Qual è il fatturato totale?"}`)
		if status != 401 || eb.Error.Code != "AUTHENTICATION_ERROR" || eb.Error.DecisionID == "" {
			t.Errorf("no key: %d %+v", status, eb.Error)
		}
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		defer fasthttp.ReleaseRequest(req)
		defer fasthttp.ReleaseResponse(resp)
		req.SetRequestURI("http://" + e.g.Addr() + "/v1/query")
		req.Header.SetMethod("POST")
		req.Header.Set("Authorization", "Bearer "+key)
		req.SetBodyString(`{"query":"Qual è il fatturato totale?"}`)
		if err := fasthttp.Do(req, resp); err != nil || resp.StatusCode() != 200 {
			t.Errorf("with the key: %d %s %v", resp.StatusCode(), resp.Body(), err)
		}
	})
}

// TestTenantBundleReloads: a tenant's own bundle is reloaded with the snapshot — an edit of
// its data changes the decisions of that tenant's callers — and the watcher sees its
// directory and the JWKS file.
func TestTenantBundleReloads(t *testing.T) {
	dir := t.TempDir()
	bundle := filepath.Join(dir, "acme")
	copyDir(t, acmeBundle(), bundle)
	viewer, vd, _ := auth.NewKey()
	is := authtest.NewIssuer(t)
	jwks := is.WriteJWKS(t, t.TempDir())
	e := startGateway(t, gwParams{dir: dir, routeAuth: "required", extra: fmt.Sprintf(`auth:
  api_keys: [{id: svc-viewer, sha256: %s, roles: [viewer], tenant: acme}]
  jwt: {jwks_file: %s, issuer: %q, audience: %s}
tenants:
  acme: {policies: %s}
`, vd, jwks, is.URL, is.Audience, bundle)})
	e.up.set(reply("", call{"filter_data", `{"limit":10}`}))
	if status, _, _ := postWith(t, e, "/v1/chat/completions", []byte(previewBody), keyed(viewer)); status != 403 {
		t.Fatalf("before the edit: %d", status)
	}
	data := filepath.Join(bundle, "data.yaml")
	b, _ := os.ReadFile(data)
	os.WriteFile(data, []byte(strings.Replace(string(b), "filter_data: [analyst]", "filter_data: [analyst, viewer]", 1)), 0o600)
	if err := e.g.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	if status, body, _ := postWith(t, e, "/v1/chat/completions", []byte(previewBody), keyed(viewer)); status != 200 {
		t.Errorf("after the edit: %d %s", status, body)
	}
	for _, p := range []string{data, jwks} {
		if !e.g.relevant(p) {
			t.Errorf("the watcher ignores %s", p)
		}
	}
	if e.g.relevant(filepath.Join(filepath.Dir(jwks), "other.json")) {
		t.Error("the watcher reloads for any file beside the JWKS")
	}
}
