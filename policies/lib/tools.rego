package weir.tools

import data.weir.lib

# The library's per-call checks. The allowed and blocked sets are computed once per
# evaluation (lib.allowed_set, lib.blocked_set, always defined) and each call is decided by
# a set lookup; messages are formatted only for the violations emitted.
call_violation contains v if {
	some i, call in input.tool_calls
	not call.name in lib.allowed_set
	v := {
		"call": i,
		"code": "tool_not_allowed",
		"message": not_allowed_message(call.name),
		"rule": "weir.tools.call_violation[tool_not_allowed]",
	}
}

not_allowed_message(name) := sprintf("tool %q is blocked for intent %q", [name, lib.intent]) if {
	name in lib.blocked_set
} else := sprintf("tool %q is not allowed for intent %q", [name, lib.intent])

call_violation contains v if {
	some i, call in input.tool_calls
	call.arguments_error != ""
	v := {
		"call": i,
		"code": "tool_arguments_invalid",
		"message": sprintf("arguments of tool %q: %s", [call.name, call.arguments_error]),
		"rule": "weir.tools.call_violation[tool_arguments_invalid]",
	}
}

violation contains v if some v in data.weir.request.violation

calls := [c |
	some i, call in input.tool_calls
	vs := [v | some v in call_violation; v.call == i]
	c := {"id": call.id, "name": call.name, "allow": count(vs) == 0, "violations": vs}
]

violations := array.concat([v | some v in violation], [v | some v in call_violation])

decision := {
	"allow": count(violations) == 0,
	"calls": calls,
	"violations": violations,
}
