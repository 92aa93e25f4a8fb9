// Package config reads the gateway's one YAML file: listeners, upstreams, routes, the rule
// pack and the policy bundle, callers' credentials and tenants, limits and the audit sink.
//
// Loading is strict. `${VAR}` and `${VAR:-default}` in scalar values are expanded from the
// environment before decoding (a value is never parsed as YAML, so a secret cannot change
// the document's structure, and error messages never show an expanded value); unknown keys,
// wrong types and invalid values are errors with file:line, all reported together.
//
//	listen: 127.0.0.1:8080
//	admin_listen: 127.0.0.1:9090
//	rules: rules           # relative to this file
//	policies: policies
//	upstreams:
//	  - name: llm
//	    base_url: ${WEIR_LLM_URL:-http://127.0.0.1:8081/v1}
//	    api_key: ${WEIR_LLM_API_KEY:-}
//	routes:
//	  - {name: chat, surface: openai, path: /v1, upstream: llm, mode: enforce, on_violation: error}
//	auth:                  # routes require credentials unless they say auth: none
//	  api_keys: [{id: svc-reports, sha256: 9b74c9…, roles: [analyst], tenant: acme}]
//	tenants: {acme: {policies: tenants/acme/policies}}
//	limits: {per_subject: {requests_per_minute: 120}, redis: ${WEIR_REDIS_URL}}
//	audit: {path: audit.jsonl, include_content: false, on_error: fail_closed, ui: {token: ${WEIR_ADMIN_TOKEN}}}
//	fallback:              # optional: the LLM tier of the classifier
//	  llm: {provider: openai, base_url: "http://127.0.0.1:8081/v1", model: gpt-4o-mini, api_key_env: WEIR_LLM_API_KEY}
//	  timeout: 2s
package config

import "time"

// Config is a decoded and validated gateway configuration. Paths are absolute.
type Config struct {
	// File is the absolute path of the file the config was read from.
	File string `yaml:"-"`
	// Listen is the address of the data-plane listener. Default 127.0.0.1:8080.
	Listen string `yaml:"listen"`
	// AdminListen is the address of the admin listener (/metrics, /healthz, /readyz,
	// /admin/status). Default 127.0.0.1:9090: keep it off public interfaces.
	AdminListen string `yaml:"admin_listen"`
	// Rules is the rule-pack directory, relative to the config file. Required.
	Rules string `yaml:"rules"`
	// Policies is the policy-bundle directory, relative to the config file. Required.
	Policies string `yaml:"policies"`
	// Upstreams are the services routes forward to.
	Upstreams []Upstream `yaml:"upstreams"`
	// Routes map path prefixes to surfaces and upstreams; the longest matching prefix wins.
	Routes []Route `yaml:"routes"`
	// Limits bound what a client may send, and how often callers and tenants may ask.
	Limits Limits `yaml:"limits"`
	// Auth configures the credentials Weir verifies (API keys, JWTs, trusted headers).
	Auth Auth `yaml:"auth"`
	// Tenants give a tenant's callers their own rule pack, policy bundle and limits.
	Tenants map[string]Tenant `yaml:"tenants"`
	// Audit configures the audit trail.
	Audit Audit `yaml:"audit"`
	// Fallback configures the LLM tier of the classifier, asked when the rules are less
	// confident than the pack's fallback.below. Absent: rules only, the pack default below
	// the threshold.
	Fallback *Fallback `yaml:"fallback"`
	// Data are the datasets query routes answer from.
	Data []DataSource `yaml:"data"`
	// Documents are the document sets (protocols, manuals) query routes search.
	Documents []DocumentSource `yaml:"documents"`
}

// Upstream is a service the gateway forwards to.
type Upstream struct {
	// Name identifies the upstream in routes. Required, unique.
	Name string `yaml:"name"`
	// BaseURL is the upstream's base URL, e.g. http://127.0.0.1:8081/v1; request paths
	// below the route's prefix are appended to it. Required, http or https.
	BaseURL string `yaml:"base_url"`
	// APIKey is sent as "Authorization: Bearer <key>" when set. Write it as ${ENV_VAR}.
	APIKey string `yaml:"api_key"`
	// ForwardClientAuthorization is no longer supported: a client's credentials never reach
	// an upstream, which gets APIKey. Setting it true is a config error that says so.
	ForwardClientAuthorization bool `yaml:"forward_client_authorization"`
	// ForwardHeaders names client request headers to pass on besides the few Weir forwards
	// by default (User-Agent, Accept-Language, X-Request-Id, X-Stainless-*). Credential
	// headers (Authorization, Api-Key, X-Api-Key, Proxy-Authorization, Cookie) and X-Weir-*
	// headers cannot be named.
	ForwardHeaders []string `yaml:"forward_headers"`
	// ConnectTimeout bounds dialing. Default 5s.
	ConnectTimeout Duration `yaml:"connect_timeout"`
	// Timeout bounds one upstream exchange (write the request, read the whole response).
	// Default 60s. Exceeding it answers 504.
	Timeout Duration `yaml:"timeout"`
	// IdleTimeout closes idle keep-alive connections. Default 90s.
	IdleTimeout Duration `yaml:"idle_timeout"`
	// MaxConns caps connections to the upstream. Default 512.
	MaxConns int `yaml:"max_conns"`
}

// Route binds a path prefix to a surface.
type Route struct {
	// Name identifies the route in metrics, audit records and policies. Required, unique.
	Name string `yaml:"name"`
	// Surface is openai (OpenAI-compatible chat proxy), data (data API passthrough) or
	// query (Weir answers from data and models itself). Default openai.
	Surface string `yaml:"surface"`
	// Path is the prefix the route serves, e.g. /v1. Default /v1 for openai, required for data.
	Path string `yaml:"path"`
	// Upstream names the upstream. Required but for query routes.
	Upstream string `yaml:"upstream"`
	// Mode is enforce (violations are blocked) or monitor (recorded, forwarded unchanged).
	// Default enforce.
	Mode string `yaml:"mode"`
	// IntentModes overrides Mode per intent, e.g. {strategy: monitor}.
	IntentModes map[string]string `yaml:"intent_modes"`
	// OnViolation is what enforce mode does with a violating response: error (an
	// OpenAI-format error) or rewrite (blocked tool calls removed, ungrounded numbers
	// replaced by a marker). Default error.
	OnViolation string `yaml:"on_violation"`
	// Param names the natural-language parameter of a data route: a query parameter, or a
	// top-level JSON body field. Required for data routes.
	Param string `yaml:"param"`
	// Auth is required (a request without valid credentials gets 401), optional (callers
	// without credentials are anonymous; wrong credentials still get 401) or none (no
	// credentials are read: every caller is anonymous). Default required, which needs a
	// credential source under auth:.
	Auth string `yaml:"auth"`
	// Rules and Policies give the route its own rule pack and policy bundle (relative to
	// this config); a caller's tenant's own win over them. Default: the top-level ones.
	Rules    string `yaml:"rules"`
	Policies string `yaml:"policies"`
	// Query holds the settings of a query route (surface: query), written inline.
	QueryOptions `yaml:",inline"`
}

// Audit configures the audit trail.
type Audit struct {
	// Path is the JSON-lines file records are appended to (relative to the config file),
	// or "stdout". Default stdout.
	Path string `yaml:"path"`
	// IncludeContent records prompts, answers and tool arguments. Default false.
	IncludeContent bool `yaml:"include_content"`
	// OnError is what happens when a record cannot be written: fail_closed (the request
	// gets 503) or log (counted in a metric and logged). Default fail_closed.
	OnError string `yaml:"on_error"`
	// Rotate rotates the trail file by size or age; the chain continues across files.
	// Absent: the file grows. Ignored with path: stdout.
	Rotate AuditRotate `yaml:"rotate"`
	// Checkpoint writes signed checkpoints, so that removing the trail's last records is
	// detected. Absent: no checkpoints.
	Checkpoint *AuditCheckpoint `yaml:"checkpoint"`
	// HTTP also ships every record to an HTTP endpoint. Absent: no shipping.
	HTTP *AuditHTTP `yaml:"http"`
	// UI configures the reviewers' web view on the admin listener (/ui).
	UI AuditUI `yaml:"ui"`
}

// The accepted values of the enumerated fields.
const (
	SurfaceOpenAI = "openai"
	SurfaceData   = "data"

	ModeEnforce = "enforce"
	ModeMonitor = "monitor"

	OnViolationError   = "error"
	OnViolationRewrite = "rewrite"

	OnErrorFailClosed = "fail_closed"
	OnErrorLog        = "log"

	AuditStdout = "stdout"
)

// Duration is a time.Duration written as a Go duration string ("30s", "1m30s").
type Duration time.Duration

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// ModeFor returns the mode that applies to intent on r.
func (r *Route) ModeFor(intent string) string {
	if m, ok := r.IntentModes[intent]; ok {
		return m
	}
	return r.Mode
}
