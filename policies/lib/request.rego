# Package weir.request computes the request decision (the admit stage): is the intent
# admitted, and what obligations bind the rest of the exchange.
package weir.request

import data.weir.lib

# violation is the set of request violations. Bundles add their own rules to it.
violation contains v if {
	not lib.admitted
	v := {
		"code": "intent_not_admitted",
		"message": sprintf("intent %q has no entry in data.weir.intents", [lib.intent]),
		"rule": "weir.request.violation[intent_not_admitted]",
	}
}

violations := [v | some v in violation]

# obligations tell the gateway how to treat the rest of the exchange.
obligations := {
	"allowed_tools": lib.allowed_tools,
	"blocked_tools": lib.blocked_tools,
	"require_tool_call": lib.require_tool_call,
	"block_numeric_generation": lib.block_numeric_generation,
	"allow_derivations": lib.allow_derivations,
	"number_sources": sort(lib.number_sources),
}

decision := {
	"allow": count(violations) == 0,
	"violations": violations,
	"obligations": obligations,
}
