package gateway

import (
	"context"
	"time"
)

// stage is one step of the request path. It reads the exchange's snapshot, writes its
// result into the exchange and returns an error to stop the chain.
type stage struct {
	name string
	run  func(x *exchange, ctx context.Context) error
}

// chatStages is the request path of POST /v1/chat/completions, in order. This list is the
// only place the order is declared.
var chatStages = []stage{
	{"decode", (*exchange).decode},     // body → chat request (400, 413)
	{"classify", (*exchange).classify}, // last user message → intent (rules, fallback)
	{"admit", (*exchange).admit},       // request decision; narrow the offered tools (403)
	{"upstream", (*exchange).forward},  // the LLM (502, 504)
	{"inspect", (*exchange).inspect},   // tools decision per proposed tool call
	{"validate", (*exchange).validate}, // grounding of the answer's numbers + response decision
	{"enforce", (*exchange).enforce},   // mode and on_violation: error (403, 422), rewrite or monitor
}

// streamStages is the request path of a stream: true request: the same decode, classify
// and admit, then the stream is opened; inspect, validate and enforce run on the stream as
// it is relayed (stream.go), per tool call and per sentence.
var streamStages = []stage{
	{"decode", (*exchange).decode},
	{"classify", (*exchange).classify},
	{"admit", (*exchange).admit},
	{"upstream", (*exchange).openStream}, // the LLM with stream: true (502, 504)
}

// runStages executes the stages in order, timing each; the first error stops the chain.
// One clock reading ends a stage and starts the next.
func (x *exchange) runStages(ctx context.Context, stages []stage) error {
	start := time.Now()
	for _, s := range stages {
		err := s.run(x, ctx)
		end := time.Now()
		d := end.Sub(start)
		start = end
		x.latency = append(x.latency, stageTime{s.name, d})
		x.g.metrics.observeStage(s.name, d)
		if err != nil {
			return err
		}
	}
	return nil
}

type stageTime struct {
	name string
	d    time.Duration
}
