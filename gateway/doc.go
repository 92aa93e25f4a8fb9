// Package gateway is Weir's server: a fasthttp listener that runs every request through one
// pipeline, reading one immutable Snapshot (config, rule pack, policy bundle, upstream
// clients, data sources, document indexes) that hot reload replaces as a whole.
//
// The pipeline (pipeline.go, the only place the order is declared):
//
//	client ─► decode ─► identify ─► limit ─► classify ─► admit ─► route ─► upstream ─► inspect ─► validate ─► encode ─► client
//	          codec     subject,    budgets  rules,      request   model,   the call   tools      answer      codec:
//	          400/404   tenant's    429      LLM tier    decision  data API, 502/504    check      check       Weir's own
//	                    set 401                          403       engine               403        422         bytes
//	          └──────────────────────────── audit record (record.go: always, also on error) ◄──────────────────┘
//
// Identify (stage_identify.go) verifies the caller's credentials with gateway/auth (API keys,
// JWTs, a trusted proxy's headers) under the route's auth setting, and picks the rule pack
// and policy bundle of the caller's tenant (policyset.go); every later stage reads that set.
// Limit (limit.go) spends the caller's and its tenant's budgets (gateway/limits: memory, or
// Redis shared by replicas); the answer's tokens are charged after it.
//
// A surface is a codec and an upstream (exchange.go: surface): openai chat completions
// (surface_openai.go, with the wire format in gateway/openai), the models list and unknown
// paths (surface_misc.go), the query surface (surface_query.go, Weir's own engine in
// gateway/query) and the data surface (surface_data.go, a reverse proxy in front of a data
// API). A codec translates its wire format into the protocol-neutral exchange (gateway/chat)
// and back; it owns nothing else. The tools check (check_calls.go) and the answer check
// (check_text.go) exist once: a plain answer runs them in the inspect and validate stages; a
// stream runs the stages from inspect on, once per released segment (stream.go,
// stream_segment.go: a sentence of text, or a choice's end with its complete tool calls);
// the query engine calls them through its Guard for its own data reads and the model's calls
// and answers.
//
// Forwarding: Weir sends only what it encoded from the values it parsed and judged. Requests
// and answers are parsed strictly (gateway/internal/strictjson refuses duplicate keys, keys
// equal under case folding, invalid UTF-8 and lone surrogates; gateway/openai reads each
// object against an allowlist of its keys and refuses a lone case variant of a known one):
// an ambiguous client request is a 400, an ambiguous upstream answer a 502. Every 2xx answer
// is inspected. Headers go through allowlists both ways (headers.go): a client's credentials
// never reach an upstream, an upstream never sets X-Weir-* headers. Logs and audit records
// carry codes, never request bytes, credentials or an upstream's words.
//
// Errors: a stage returns an error to stop the chain; statusOf (errors.go) is the one place
// an error gets its HTTP status; the surface writes it in its own format (OpenAI errors, seed
// 000's for the query surface) with the decision id, which also appears in the
// X-Weir-Decision-Id header, the log line and the audit record.
//
// Modes are per route and per intent: enforce blocks (on_violation error: 403 for a blocked
// tool call, 422 for a rejected answer) or repairs (on_violation rewrite: blocked calls
// removed and named, ungrounded numbers replaced by UnverifiedMarker, an answer with other
// violations withheld); monitor forwards what it judged unchanged and records what would
// have been blocked. Policy errors deny in enforce mode and are recorded in monitor mode.
//
// Operation: Reload compiles a new snapshot and swaps it in with an atomic pointer, or keeps
// the running one when anything fails to load; Watch triggers it from fsnotify events on the
// config, rule-pack and policy-bundle directories (debounced) and from SIGHUP. The admin
// listener serves /metrics, /healthz, /readyz, /admin/status and the reviewers' web view /ui.
package gateway
