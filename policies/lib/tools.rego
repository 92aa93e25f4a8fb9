package weir.tools

import data.weir.lib

call_violation contains v if {
	some i, call in input.tool_calls
	not lib.tool_allowed(call.name)
	v := {
		"call": i,
		"code": "tool_not_allowed",
		"message": not_allowed_message(call.name),
		"rule": "weir.tools.call_violation[tool_not_allowed]",
	}
}

not_allowed_message(name) := sprintf("tool %q is blocked for intent %q", [name, lib.intent]) if {
	lib.tool_blocked(name)
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
