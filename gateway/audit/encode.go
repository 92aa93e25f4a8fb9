package audit

import (
	"encoding/json"
	"errors"
	"hash"

	"github.com/gowebpki/jcs"
)

// The gateway writes one record per request, so a record's canonical form (RFC 8785,
// see jcs.go) is encoded here directly, in one pass and without reflection; the line
// written to the trail is made of the same bytes (seal.go). encode_test.go checks that the
// result is byte for byte what github.com/gowebpki/jcs makes of json.Marshal's record.
// A Record whose fields changed without this encoder learning them is sealed by sealJSON
// instead (layout.go).

// encoded is a record's canonical form without its chain members, which only the
// writer's lock knows: canon lacks "prev" and "seq", whose members go at prevAt and seqAt.
type encoded struct {
	canon         []byte
	prevAt, seqAt int
	latency       []latency // the record's LatencyUS in key order
	sum           hash.Hash // link's SHA-256, reused
	digest        [32]byte
	scratch       []byte
}

// errLatencyKey refuses a latency stage name that is not UTF-8: it could not be written
// as a distinct JSON key. Stage names are the gateway's constants.
var errLatencyKey = errors.New("audit: a latency_us stage name is not valid UTF-8")

// encode encodes r's canonical form; ok is false when r is one for sealJSON.
func (e *encoded) encode(r *Record) (ok bool, err error) {
	if !layoutKnown {
		return false, nil
	}
	if e.latency, err = sortedLatency(e.latency[:0], r.LatencyUS); err != nil {
		return false, err
	}
	e.canon, err = e.appendCanonical(e.canon[:0], r)
	return err == nil, err
}

// appendCanonical appends r's members in key order, noting where prev and seq go.
func (e *encoded) appendCanonical(b []byte, r *Record) ([]byte, error) {
	var err error
	b = append(b, `{"confidence":`...)
	if b, err = appendFloat(b, r.Confidence); err != nil {
		return nil, err
	}
	o := obj{b: b, n: 1}
	if r.Content != nil {
		o.key("content")
		o.b = appendContent(o.b, r.Content)
	}
	o.str("decision_id", r.DecisionID, false)
	o.str("end_user", r.EndUser, true)
	o.str("error", r.Error, true)
	if r.Fallback != nil {
		o.key("fallback")
		o.b = appendFallback(o.b, r.Fallback)
	}
	o.str("intent", r.Intent, true)
	o.key("latency_us")
	o.b = appendLatency(o.b, r.LatencyUS == nil, e.latency)
	o.str("mode", r.Mode, true)
	o.str("outcome", r.Outcome, false)
	o.str("pack_revision", r.PackRevision, true)
	o.str("policy_revision", r.PolicyRevision, true)
	e.prevAt = len(o.b)
	o.str("reason", r.Reason, true)
	o.str("request_id", r.RequestID, true)
	o.str("requested_mode", r.RequestedMode, true)
	o.str("route", r.Route, false)
	o.str("route_kind", r.RouteKind, true)
	o.key("rules")
	o.b = appendStrings(o.b, r.Rules)
	e.seqAt = len(o.b)
	return e.appendTail(o, r)
}

// appendTail appends the members after seq.
func (e *encoded) appendTail(o obj, r *Record) ([]byte, error) {
	var err error
	o.str("source", r.Source, true)
	if len(r.Sources) > 0 {
		o.key("sources")
		o.b = appendSources(o.b, r.Sources)
	}
	o.key("status")
	o.b = appendInt(o.b, int64(r.Status))
	if !r.Subject.IsZero() {
		o.key("subject")
		o.b = appendSubject(o.b, &r.Subject)
	}
	o.str("surface", r.Surface, false)
	o.key("time")
	if o.b, err = appendTime(o.b, r); err != nil {
		return nil, err
	}
	o.key("tool_calls")
	o.b = appendToolCalls(o.b, r.ToolCalls)
	if len(r.ToolsRemoved) > 0 {
		o.key("tools_removed")
		o.b = appendStrings(o.b, r.ToolsRemoved)
	}
	if r.UpstreamStatus != 0 {
		o.key("upstream_status")
		o.b = appendInt(o.b, int64(r.UpstreamStatus))
	}
	o.key("violations")
	o.b = appendViolations(o.b, r.Violations)
	return append(o.b, '}'), nil
}

// appendTime appends the record's time as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds, always ASCII).
func appendTime(b []byte, r *Record) ([]byte, error) {
	b = append(b, '"')
	b, err := r.Time.AppendText(b)
	if err != nil {
		return nil, err
	}
	return append(b, '"'), nil
}

// canonicalArguments returns a tool call's arguments in their JCS form. Arguments that
// are not I-JSON (a duplicate key, invalid UTF-8, a number beyond a double) are recorded
// as a JSON string holding their text, so that the record stays canonical.
func canonicalArguments(raw json.RawMessage) []byte {
	if c, err := jcs.Transform(raw); err == nil {
		return c
	}
	return appendString(nil, string(raw))
}
