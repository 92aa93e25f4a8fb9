# Package weir.response computes the response decision (the validate stage): is the
# answer backed by a tool call where one is required, and are its numbers grounded.
package weir.response

import data.weir.lib

# violation is the set of response violations. Bundles add their own rules to it.
violation contains v if some v in data.weir.request.violation

violation contains v if {
	lib.require_tool_call
	not allowed_tool_used
	v := {
		"code": "tool_call_required",
		"message": sprintf("intent %q requires a call to one of %v before answering", [lib.intent, lib.allowed_tools]),
		"rule": "weir.response.violation[tool_call_required]",
	}
}

violation contains v if {
	lib.block_numeric_generation
	some n in lib.numbers
	not lib.number_grounded(n)
	v := {
		"code": "ungrounded_number",
		"message": ungrounded_message(n),
		"text": n.text,
		"rule": "weir.response.violation[ungrounded_number]",
	}
}

# allowed_tool_used holds when an allowed tool was called, or is being proposed.
allowed_tool_used if {
	some t in lib.tools_called
	lib.tool_allowed(t)
}

allowed_tool_used if {
	some call in lib.tool_calls
	lib.tool_allowed(call.name)
}

ungrounded_message(n) := sprintf("number %q is a derivation (%s); intent %q allows none", [n.text, n.derivation, lib.intent]) if {
	n.grounded == true
	n.source_kind in lib.number_sources
	not lib.derivation_ok(n)
} else := sprintf("number %q comes from a %s source; intent %q admits numbers from %v only", [n.text, n.source_kind, lib.intent, lib.number_sources]) if {
	n.grounded == true
} else := sprintf("number %q is not grounded in any source intent %q admits (%v)", [n.text, lib.intent, lib.number_sources])

violations := [v | some v in violation]

decision := {
	"allow": count(violations) == 0,
	"violations": violations,
}
