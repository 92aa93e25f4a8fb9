package gateway

import (
	"context"
	"time"
)

// pipeline is the request path of every surface, in order: the only place the order of
// Weir's stages is declared. A surface (openai plain and stream, query, data, models) is a
// codec: its decode and encode translate the wire format into the protocol-neutral exchange
// and back, and its upstream calls what the route routes to. Everything between — who is
// asking, the intent, the request decision, the tools check on every proposed call, the
// answer check on every readable text — is the same code for every surface.
//
// A stream runs the table up to upstream, which opens the stream; the relay then runs the
// table's segment stages (inspect, validate, encode) once per released segment: a sentence
// of text, or a choice's complete tool calls (stream.go). The audit record is written after
// the table in every case, also when a stage failed (record.go).
var pipeline = []stage{
	{"decode", (*exchange).decode},       // surface codec: the request's wire format → exchange (400, 404, 413)
	{"identify", (*exchange).identify},   // who is asking: verified credentials → subject, tenant's pack and bundle (401)
	{"limit", (*exchange).limit},         // the caller's and its tenant's budgets per minute (429)
	{"classify", (*exchange).classify},   // the question → intent and filters (rules, LLM fallback)
	{"admit", (*exchange).admit},         // request decision; the offered tools narrowed (403)
	{"route", (*exchange).chooseRoute},   // where the answer comes from: a model, a data API, Weir's own data
	{"upstream", (*exchange).upstream},   // surface: call it (502, 504); a stream is opened here
	{"inspect", (*exchange).inspect},     // the tools check on every proposed call (403 in error mode)
	{"validate", (*exchange).validate},   // the answer check on every readable text (422 in error mode)
	{"encode", (*exchange).encodeAnswer}, // surface codec: exchange → the answer's wire format
}

// segmentStages are the stages a stream runs per released segment, in the table's order.
var segmentStages = stagesFrom("inspect")

// stage is one step of the request path. It reads the exchange's snapshot, writes its result
// into the exchange and returns an error to stop the chain.
type stage struct {
	name string
	run  func(x *exchange, ctx context.Context) error
}

// stagesFrom returns the stages of pipeline from the one named name to the end.
func stagesFrom(name string) []stage {
	for i, s := range pipeline {
		if s.name == name {
			return pipeline[i:]
		}
	}
	panic("gateway: no stage " + name)
}

// run executes stages in order, timing each; the first error stops the chain. A stream
// stops after upstream: the relay runs the rest per segment.
func (x *exchange) run(ctx context.Context, stages []stage) error {
	start := time.Now()
	for _, s := range stages {
		err := s.run(x, ctx)
		end := time.Now()
		x.observeStage(s.name, end.Sub(start))
		start = end
		if err != nil || (x.stream != nil && s.name == "upstream") {
			return err
		}
	}
	return nil
}

// runSegment runs the segment stages on one released segment of a stream; their time is
// added to the stage's total for the record.
func (x *exchange) runSegment(ctx context.Context) error {
	start := time.Now()
	for _, s := range segmentStages {
		err := s.run(x, ctx)
		end := time.Now()
		x.addStage(s.name, end.Sub(start))
		start = end
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

// observeStage records one stage's time in the exchange and the metrics.
func (x *exchange) observeStage(name string, d time.Duration) {
	x.latency = append(x.latency, stageTime{name, d})
	x.g.metrics.observeStage(name, d)
}

// addStage adds d to the stage's recorded time (a stream's segments), observing the metric
// once when the stream ends (stream.go).
func (x *exchange) addStage(name string, d time.Duration) {
	for i := range x.latency {
		if x.latency[i].name == name {
			x.latency[i].d += d
			return
		}
	}
	x.latency = append(x.latency, stageTime{name, d})
}
