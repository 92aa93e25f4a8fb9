// Package loadtest is Weir's load harness (`weir bench`): it measures what the gateway
// costs against the physical limit of one proxy hop on the same machine.
//
// It starts three servers on loopback, each as a child process of its own (ChildMain,
// `weir bench child ROLE`), so that each one's CPU time is its own:
//
//	load generator ──► passthrough (gateway.Options.Passthrough: every stage off) ──► canned
//	(this process,  └─► gateway (the config, every stage on, audit to a file)   ──► upstream
//	 fasthttp client)
//
// The canned upstream answers at once with pre-encoded OpenAI bodies chosen by the
// request's user field ("weir-bench:tools1"), so the model costs nothing and the numbers are the
// proxies'. The gateway and the passthrough load the same config, whose upstreams take
// their URL from WEIR_LLM_URL (set to the canned server); a probe before the load refuses a
// config that reaches anything else, and an answer the gateway blocks or rewrites.
//
// The requests (Scenarios) come from the analytics example: answers with 0, 1 and 3 tool
// calls, a streamed answer, and a question to the query surface (gateway only; reported as
// not available when the config does not serve POST /v1/query). Each target is driven
// with each request for Options.Duration with Options.Conns connections in closed loop,
// split into Options.Rounds slices in which the targets take turns in alternating order,
// so drift in the machine's load affects both alike. Then both are driven at half of the
// passthrough's peak rate on the 1-tool-call request, where DESIGN.md budgets the added
// p99 latency (≤ 1 ms); the throughput budget is the gateway at ≥ 70% of the passthrough
// on the same request at peak.
//
// The report has requests/s, p50 and p99 latency, the proxy's CPU time per request
// (getrusage in the child, before and after each slice) and the gateway/passthrough ratios.
// WriteTable prints it together with the stage benchmarks (ParseStages reads `go test
// -bench -benchmem` output and attaches DESIGN.md's stage budgets), which is what `make
// bench` shows.
package loadtest
