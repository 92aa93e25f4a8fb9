# llm_source refuses privileged intents that only the LLM fallback chose. The question is
# untrusted input, and a model can be talked into an intent; the rules cannot. The policy
# input carries the classification's source (rules, default, llm), so the bundle decides
# which intents need the rules' own confidence: data.weir.rules_only_intents.
package weir.request

violation contains v if {
	input.classification.source == "llm"
	some intent in data.weir.rules_only_intents
	input.classification.intent == intent
	v := {
		"code": "intent_needs_rules",
		"message": sprintf("intent %q was chosen by the LLM fallback alone; it must be decided by the rules", [intent]),
		"rule": "weir.request.violation[intent_needs_rules]",
	}
}
