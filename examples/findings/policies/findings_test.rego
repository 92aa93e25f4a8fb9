# Unit tests of the findings bundle (seed 000).
package weir.findings_test

import data.weir.request
import data.weir.response
import data.weir.tools

call(intent, name) := {"classification": {"intent": intent}, "tool_calls": [{"id": "c", "name": name, "arguments": {"severity": ["Critical"]}, "arguments_error": ""}]}

num(grounded, derivation) := {"text": "12", "value": 12, "grounded": grounded, "source": "tool:query_findings", "source_kind": "tool", "derivation": derivation}

test_every_intent_may_query_findings if {
	every intent in ["simple", "complex", "hybrid"] {
		tools.decision.allow with input as call(intent, "query_findings")
	}
}

test_other_tools_refused if {
	not tools.decision.allow with input as call("complex", "web_search")
}

test_unknown_intent if {
	d := request.decision with input as {"classification": {"intent": "agentic"}}
	not d.allow
	d.violations[0].code == "intent_not_admitted"
	not tools.decision.allow with input as call("agentic", "query_findings")
}

test_simple_numbers_unchecked if {
	response.decision.allow with input as {"classification": {"intent": "simple"}, "answer": {"numbers": [num(false, "")]}}
}

test_complex_counts_from_data if {
	response.decision.allow with input as {"classification": {"intent": "complex"}, "answer": {"numbers": [num(true, "")]}}
	response.decision.allow with input as {"classification": {"intent": "complex"}, "answer": {"numbers": [num(true, "7 + 5")]}}
	not response.decision.allow with input as {"classification": {"intent": "complex"}, "answer": {"numbers": [num(false, "")]}}
}

test_hybrid_invented_percentage if {
	d := response.decision with input as {"classification": {"intent": "hybrid"}, "answer": {"numbers": [{"text": "80%", "value": 0.8, "grounded": false, "source": "", "source_kind": "", "derivation": ""}]}}
	not d.allow
	d.violations[0].text == "80%"
}
