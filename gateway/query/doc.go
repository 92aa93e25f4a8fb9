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
// Documents (seed 004's protocol PDFs) are a source kind of their own, DocSource (docs.go):
// an intent whose route names a document source searches it with the question — a read
// like any other, the tool call {"query", "limit"} decided by the tools policy before it
// runs — alongside its data reads (the both route: PDF and SQL retrieval in parallel). The
// passages, with file and page, are listed in the metadata's sources and grounding for a
// model's answer; without a model the answer quotes the best of them with their citations
// (docs_answer.go). In the agent loop the model also gets the search tool (docs_agent.go).
//
// DocIndex (docindex.go), the DocSource of a configured `documents:` entry, is an adapter
// of adapters/docs, and it lives here rather than in adapters/docs because the adapter
// must speak this package's types (Passage, the DocSource contract): adapters/docs
// importing gateway/query would make an adapter depend on the gateway — and a cycle, since
// gateway/config already imports adapters/docs for its settings. The same holds for the
// data sources, opened here from adapters/data (sources.go). Either way this package names
// no database driver: those stay behind the adapters, and the engine itself sees only the
// DocSource interface, so it is tested with a fake.
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
