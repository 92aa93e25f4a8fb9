// Package query is the engine of the query surface (POST /v1/query): Weir answers a
// classified, admitted question itself instead of proxying it.
//
// The intent's route in the rule pack (rules.Route.Kind) picks the path. A client's
// options.mode can only narrow it (mode.go): simple takes the data route where the intent's
// route reads data, complex the llm route where it has a model, hybrid both; anything else
// is refused with POLICY_DENIED. The paths:
//
//   - data (mode simple): the question is read into a semantic query (nl, against the
//     semantic layer each dataset declares in its schema: adapters/data/semantic) and run
//     as structured queries on the intent's sources; no model is asked. Whatever the
//     question asks that the query cannot express makes the answer "cannot answer from the
//     data: …" — never a number for something nearby;
//   - llm (complex): the rows the question's conditions select — at most 20, at most
//     10,000 estimated tokens — are the model's context;
//   - data+llm (hybrid): the data answer, and the model's analysis of it as a separate section;
//   - agent: the bounded tool loop of seed 003 (agent.go) — the model gets one query tool
//     per source, each call is decided by the tools policy and audited, an invalid query goes
//     back to the model to correct, a system error ends the loop as DATABASE_ERROR.
//
// Every data read Weir makes itself — the data route's query, the rows given to a model,
// the known answers — is a tool call (reads.go) that Guard.Tools decides before it runs,
// named by what it returns (config.ReadTools: rows, metric, group, compare) with the data
// query as its arguments. A denied read does not run; it is recorded in Metadata.ToolCalls
// (origin weir, allow false) and the answer says the data was not read by policy.
//
// Known question/answer pairs (known.go, seed 004's context cache) are consulted first.
// Which sources a question reads follows from the semantic layer: the source of what it
// measures, joined on declared entities to the sources of its conditions. Every answer a
// model writes passes Guard.Answer — grounding and the response
// policy — before it is returned; without a model, model routes answer from the data with
// seed 000's "AI analysis unavailable. Showing database results only."
//
// The package knows nothing of HTTP or OPA: the gateway decodes the request, classifies,
// admits, implements Guard with its policy bundle, writes the response and the audit record
// (gateway/query.go), and weir query runs the same path in process.
package query
