package query

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/weirgw/weir/adapters/data"
	"github.com/weirgw/weir/adapters/llm"
)

// The kinds of read Weir makes on a source; each has its own tool name (config.ReadTools),
// so that the policy can allow a metric and refuse raw rows.
const (
	ReadRows    = "rows"
	ReadMetric  = "metric"
	ReadGroup   = "group"
	ReadCompare = "compare"
)

// OriginWeir and OriginModel tell who proposed a call: Weir's own data read, or the model
// in the agent loop.
const (
	OriginWeir  = "weir"
	OriginModel = "model"
)

// ReadTool is the tool name of a read of the given kind on this source.
func (s *Source) ReadTool(kind string) string {
	t := s.cfg.Tools
	name := map[string]string{ReadRows: t.Rows, ReadMetric: t.Metric, ReadGroup: t.Group, ReadCompare: t.Compare}[kind]
	if name == "" {
		return s.Tool
	}
	return name
}

// read is one data read Weir wants to make: a tool call with the query as its arguments.
type read struct {
	src   *Source
	kind  string
	query *data.Query
	call  llm.ToolCall
}

// newRead names a read of q on src as a tool call.
func (r *run) newRead(src *Source, kind string, q *data.Query) *read {
	if q.Filters == nil {
		q.Filters = []data.Filter{} // "filters": [] as a model would send it, never null
	}
	args, err := json.Marshal(q)
	if err != nil {
		args = []byte("{}")
	}
	r.reads++
	return &read{src: src, kind: kind, query: q, call: llm.ToolCall{ID: fmt.Sprintf("weir_read_%d", r.reads), Name: src.ReadTool(kind), Arguments: string(args)}}
}

// authorize asks the tools policy about Weir's own reads before any runs. Every read is
// recorded as a call of origin weir; the denied ones with their reason. It returns which
// reads may run.
func (r *run) authorize(ctx context.Context, reads []*read) ([]bool, *Error) {
	if len(reads) == 0 {
		return nil, nil
	}
	calls := make([]llm.ToolCall, len(reads))
	for i, rd := range reads {
		calls[i] = rd.call
	}
	verdicts, err := r.q.Guard.Tools(ctx, calls)
	if err != nil {
		return nil, &Error{Status: http.StatusInternalServerError, Code: CodePolicy, Message: "the tools decision failed; the question is refused", Err: err}
	}
	ok := make([]bool, len(reads))
	for i, rd := range reads {
		v := Verdict{}
		if i < len(verdicts) {
			v = verdicts[i]
		}
		ok[i] = v.Allow
		rec := CallRecord{ID: rd.call.ID, Name: rd.call.Name, Origin: OriginWeir, Allow: v.Allow, Reason: v.Reason, Arguments: rd.call.Arguments}
		if !v.Allow {
			rec.Outcome = "denied"
		}
		r.md.ToolCalls = append(r.md.ToolCalls, rec)
	}
	return ok, nil
}

// ran records the outcome of an authorized read.
func (r *run) ran(rd *read, rows int, err error) {
	for i := range r.md.ToolCalls {
		c := &r.md.ToolCalls[i]
		if c.ID != rd.call.ID {
			continue
		}
		c.Rows = rows
		switch {
		case err != nil:
			c.Outcome = "error"
		case rows == 0:
			c.Outcome = "empty"
		default:
			c.Outcome = "rows"
		}
	}
}

func callOf(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

// notRead is the answer when the policy refused every read the question needed.
func (r *run) notRead(denied []*read) string {
	var names []string
	for _, rd := range denied {
		if !containsStr(names, rd.call.Name) {
			names = append(names, rd.call.Name)
		}
	}
	msg := fmt.Sprintf("The data was not read: the policy does not allow %s for intent %s.", strings.Join(names, ", "), r.q.Class.Intent)
	r.warn(msg)
	return msg
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
