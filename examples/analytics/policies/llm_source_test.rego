# Tests of llm_source.rego: the LLM fallback cannot widen what a request may do.
package weir.analytics_llm_test

import data.weir.request

classified(intent, source) := {"classification": {"intent": intent, "source": source, "confidence": 0.9}}

test_llm_alone_cannot_choose_data_preview if {
	d := request.decision with input as classified("data_preview", "llm")
	not d.allow
	some v in d.violations
	v.code == "intent_needs_rules"
}

test_rules_may_choose_data_preview if {
	d := request.decision with input as classified("data_preview", "rules")
	d.allow
	d.obligations.allowed_tools == ["filter_data"]
}

test_llm_may_choose_strategy_which_has_no_tools if {
	d := request.decision with input as classified("strategy", "llm")
	d.allow
	d.obligations.allowed_tools == []
}

test_default_intent_is_admitted if {
	d := request.decision with input as classified("strategy", "default")
	d.allow
}
