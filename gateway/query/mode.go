package query

import (
	"fmt"
	"net/http"
)

// caps are what a route may do: answer from data Weir reads, have a model write the
// answer, let the model call tools. A client's options.mode asks for a set of them, and
// gets it only when the intent's route has every one (issue 12: the mode narrows the
// route, it never widens it).
type caps uint8

const (
	capData  caps = 1 << iota // Weir reads data sources (each read still passes the tools policy)
	capModel                  // a model writes (part of) the answer
	capTools                  // the model calls tools itself
)

// kindCaps are the capabilities of each route kind. An llm route reads data only when it
// names tools and has data sources: its rows are the model's context (seed 000's complex
// queries); a route without tools (advice, small talk) reads nothing.
func (r *run) routeCaps(kind string) caps {
	switch kind {
	case KindData:
		return capData
	case KindLLM:
		if r.readsData() {
			return capModel | capData
		}
		return capModel
	case KindDataLLM:
		return capData | capModel
	case KindAgent:
		return capData | capModel | capTools
	}
	return 0
}

// readsData reports whether an llm route gives the model rows: its route names tools and
// some configured source serves it.
func (r *run) readsData() bool {
	return len(r.q.Intent.Route.AllTools()) > 0 && (len(r.sources()) > 0 || len(r.docSources()) > 0)
}

// modeKinds are the route kinds the modes ask for.
var modeKinds = map[string]string{ModeSimple: KindData, ModeComplex: KindLLM, ModeHybrid: KindDataLLM}

// intentKind is the route kind of the intent: its route in the pack, data when it names none.
func intentKind(q *Question) string {
	switch k := q.Intent.Route.Kind; k {
	case KindData, KindLLM, KindDataLLM, KindAgent:
		return k
	}
	return KindData
}

// routeKind returns the route kind a question takes. Without a mode (or auto) it is the
// intent's. A mode takes its own kind when the intent's route has every capability that
// kind needs; otherwise the question is refused with POLICY_DENIED rather than answered
// in a way the intent does not allow:
//
//	simple  (data)     needs data        — refused on llm routes that read nothing
//	complex (llm)      needs a model     — refused on data routes
//	hybrid  (data+llm) needs both        — refused on data routes and reading-nothing llm routes
//
// So data ≤ data+llm ≤ agent and llm ≤ data+llm ≤ agent, and an llm route that gives its
// model rows counts as data+llm.
func (r *run) routeKind() (string, *Error) {
	own := intentKind(r.q)
	want, forced := modeKinds[r.q.Options.Mode]
	if !forced {
		return own, nil
	}
	need := map[string]caps{KindData: capData, KindLLM: capModel, KindDataLLM: capData | capModel}[want]
	if r.routeCaps(own)&need != need {
		return "", &Error{Status: http.StatusForbidden, Code: CodePolicy,
			Message: fmt.Sprintf("options.mode %s asks for a %s answer, which intent %s's route (%s) does not give; a mode can only narrow the route",
				r.q.Options.Mode, want, r.q.Class.Intent, own),
			Suggestion: "send the question without options.mode (or with auto)"}
	}
	return want, nil
}
