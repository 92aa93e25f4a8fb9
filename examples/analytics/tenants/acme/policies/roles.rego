# roles.rego — tools that need a role. data.weir.tool_roles maps a tool name to the roles
# that may call it; a proposed call by a caller holding none of them is refused with
# role_required. subject.roles come from verified credentials only (an API key's roles, a
# token's roles claim, a trusted proxy's header): anonymous callers hold none.
package weir.tools

import data.weir.lib

call_violation contains v if {
	some i, call in lib.tool_calls
	needed := roles_for(call.name)
	count(needed) > 0
	not holds_any(needed)
	v := {
		"call": i,
		"code": "role_required",
		"message": sprintf("tool %q needs one of the roles %v", [call.name, needed]),
		"rule": "weir.tools.call_violation[role_required]",
	}
}

# roles_for is the tool's entry of data.weir.tool_roles, [] without one. (object.get over
# data.weir would read the tools decision itself: a recursion.)
default roles_for(_) := []

roles_for(name) := data.weir.tool_roles[name]

# holds_any is false when subject.roles is missing (offline, or an input without a
# subject): the call is refused, never allowed by omission.
holds_any(needed) if {
	some role in input.subject.roles
	role in needed
}
