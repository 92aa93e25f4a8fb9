// Package gateway is Weir's server: a fasthttp listener that runs every request through
// the stages of its surface, reading one immutable Snapshot (config, rule pack, policy
// bundle, upstream clients) that hot reload replaces as a whole.
//
// The request path of the openai surface (POST /v1/chat/completions):
//
//	client ─► decode ─► classify ─► admit ─► upstream ─► inspect ─► validate ─► enforce ─► client
//	           │ 400     │ rules      │ Rego    │ LLM       │ Rego per   │ grounding  │ error 403/422,
//	           │ 413     │            │ 403     │ 502/504   │ tool call  │ + Rego     │ rewrite, monitor
//	           └──────────────── audit record (always, also on error) ◄────────────────┘
//
// A data route (surface: data) is a reverse proxy in front of an existing data API; its
// stages, declared in dataStages (data.go), are decode (the route's natural-language
// parameter) → classify → admit (403) → upstream, which forwards the request with
// X-Weir-Intent and X-Weir-Filters (the extracted filters as JSON) and passes the answer on.
//
// The classify stage asks the snapshot's Fallback, the LLM tier the config's fallback
// section describes, when the rules are less confident than the pack's fallback.below. It
// is built once and handed from snapshot to snapshot while that section is unchanged, so
// its cache and circuit breaker survive reloads (fallback.go); its counters are read at
// scrape time (metrics_fallback.go).
//
// The stage order is declared once per surface, in chatStages (stages.go) and dataStages. A stage returns an *Error
// to stop the chain; statusOf (errors.go) is the one place an error gets its HTTP status,
// and every error answer is in the OpenAI format with the decision id, which also appears
// in the X-Weir-Decision-Id header, the log line and the audit record.
//
// Modes are per route and per intent: enforce blocks (on_violation error) or repairs
// (on_violation rewrite: blocked tool calls removed and named, ungrounded numbers replaced
// by UnverifiedMarker); monitor forwards unchanged and records what would have been
// blocked. Policy errors deny in enforce mode and are recorded in monitor mode.
//
// GET /v1/models is forwarded unchanged and not audited: it carries no model output and
// makes no decision. A stream: true request runs streamStages (decode, classify, admit,
// then the upstream stream is opened); a streamer (stream.go) relays the upstream's SSE
// after the handler returns, holding tool calls until the tools decision passed them and,
// when the intent requires grounding, text until its sentence passed grounding and the
// response decision. A blocked or failed stream ends with an error event and [DONE].
//
// Operation: Reload compiles a new snapshot and swaps it in with an atomic pointer, or
// keeps the running one when anything fails to load; Watch triggers it from fsnotify
// events on the config, rule-pack and policy-bundle directories (debounced) and from
// SIGHUP. The admin listener serves /metrics, /healthz, /readyz and /admin/status.
package gateway
