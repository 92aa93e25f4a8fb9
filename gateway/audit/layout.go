package audit

import (
	"fmt"
	"reflect"
	"strings"
)

// layoutKnown reports whether Record and the structs in it have exactly the fields, types
// and JSON tags this encoder writes. A field added to Record without teaching the encoder
// about it sends every record through sealJSON (correct, slower) instead of leaving the
// field out of the hash; encode_test.go fails until the encoder is updated.
var layoutKnown = layout() == knownLayout

const knownLayout = `Record{Seq uint64 "seq";Prev string "prev";Hash string "hash,omitempty";` +
	`Time time.Time "time";DecisionID string "decision_id";RequestID string "request_id,omitempty";` +
	`Surface string "surface";Route string "route";RouteKind string "route_kind,omitempty";` +
	`Subject audit.Subject "subject,omitzero";EndUser string "end_user,omitempty";Mode string "mode,omitempty";` +
	`RequestedMode string "requested_mode,omitempty";` +
	`Intent string "intent,omitempty";Confidence float64 "confidence";Source string "source,omitempty";` +
	`Rules []string "rules";Reason string "reason,omitempty";Fallback *audit.Fallback "fallback,omitempty";` +
	`PolicyRevision string "policy_revision,omitempty";PackRevision string "pack_revision,omitempty";` +
	`Sources []audit.Source "sources,omitempty";` +
	`ToolCalls []audit.ToolCall "tool_calls";ToolsRemoved []string "tools_removed,omitempty";` +
	`Violations []audit.Violation "violations";Outcome string "outcome";Status int "status";` +
	`UpstreamStatus int "upstream_status,omitempty";Error string "error,omitempty";` +
	`LatencyUS map[string]int64 "latency_us";Content *audit.Content "content,omitempty";}` +
	`Fallback{Model string "model,omitempty";LatencyUS int64 "latency_us";Tokens int "tokens,omitempty";` +
	`Cached bool "cached,omitempty";Intent string "intent,omitempty";Error string "error,omitempty";}` +
	`ToolCall{Choice int "choice,omitempty";ID string "id,omitempty";Type string "type,omitempty";Name string "name";` +
	`Origin string "origin,omitempty";Allowed bool "allowed";Reason string "reason,omitempty";` +
	`Action string "action,omitempty";Rows *int "rows,omitempty";Arguments json.RawMessage "arguments,omitempty";}` +
	`Violation{Code string "code";Message string "message,omitempty";Rule string "rule,omitempty";}` +
	`Content{Prompt string "prompt,omitempty";Answer string "answer,omitempty";Choices []audit.Choice "choices,omitempty";}` +
	`Subject{ID string "id";Roles []string "roles,omitempty";Tenant string "tenant,omitempty";AuthMethod string "auth_method,omitempty";}` +
	`Source{Name string "name";Tool string "tool,omitempty";Rows int "rows";Used bool "used";Error string "error,omitempty";}` +
	`Choice{Index int "index";Content string "content,omitempty";Refusal string "refusal,omitempty";Reasoning string "reasoning,omitempty";}`

// layout describes the fields of Record and the structs in it, in knownLayout's form.
func layout() string {
	var b strings.Builder
	for _, t := range []reflect.Type{reflect.TypeFor[Record](), reflect.TypeFor[Fallback](),
		reflect.TypeFor[ToolCall](), reflect.TypeFor[Violation](), reflect.TypeFor[Content](),
		reflect.TypeFor[Subject](), reflect.TypeFor[Source](), reflect.TypeFor[Choice]()} {
		b.WriteString(t.Name() + "{")
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fmt.Fprintf(&b, "%s %s %q;", f.Name, f.Type, f.Tag.Get("json"))
		}
		b.WriteString("}")
	}
	return b.String()
}
