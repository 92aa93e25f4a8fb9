# Unit tests of the analytics bundle (seed 002's matrix). Run: weir check --policies .
package weir.analytics_test

import data.weir.request
import data.weir.response
import data.weir.tools

call(name) := {"id": "c", "name": name, "arguments": {}, "arguments_error": ""}

num(text, value, grounded, kind, derivation) := {
	"text": text, "value": value, "grounded": grounded,
	"source": kind, "source_kind": kind, "derivation": derivation,
}

# --- request ---

test_analytics_obligations if {
	d := request.decision with input as {"classification": {"intent": "analytics"}}
	d.allow
	d.obligations.allowed_tools == ["aggregate_group", "compare_periods", "execute_metric"]
	d.obligations.require_tool_call
	d.obligations.block_numeric_generation
	d.obligations.allow_derivations
}

test_strategy_numbers_from_user_only if {
	d := request.decision with input as {"classification": {"intent": "strategy"}}
	d.obligations.allowed_tools == []
	d.obligations.number_sources == ["user"]
	not d.obligations.allow_derivations
}

test_unknown_intent_not_admitted if {
	d := request.decision with input as {"classification": {"intent": "sales"}}
	not d.allow
	d.violations[0].code == "intent_not_admitted"
}

# --- tools ---

test_analytics_metric_allowed if {
	d := tools.decision with input as {"classification": {"intent": "analytics"}, "tool_calls": [call("execute_metric")]}
	d.allow
	d.calls[0].allow
}

test_analytics_filter_data_blocked if {
	d := tools.decision with input as {"classification": {"intent": "analytics"}, "tool_calls": [call("execute_metric"), call("filter_data")]}
	not d.allow
	d.calls[0].allow
	not d.calls[1].allow
	d.calls[1].violations[0].code == "tool_not_allowed"
}

test_tool_names_are_case_sensitive if {
	d := tools.decision with input as {"classification": {"intent": "analytics"}, "tool_calls": [call("Execute_Metric")]}
	not d.allow
}

test_strategy_no_tools if {
	d := tools.decision with input as {"classification": {"intent": "strategy"}, "tool_calls": [call("execute_metric")]}
	not d.allow
}

test_data_preview_only_filter_data if {
	ok := tools.decision with input as {"classification": {"intent": "data_preview"}, "tool_calls": [call("filter_data")]}
	ok.allow
	no := tools.decision with input as {"classification": {"intent": "data_preview"}, "tool_calls": [call("aggregate_group")]}
	not no.allow
}

test_conversational_unknown_tool_denied if {
	d := tools.decision with input as {"classification": {"intent": "conversational"}, "tool_calls": [call("send_email")]}
	not d.allow
}

# --- response ---

test_analytics_requires_tool_call if {
	d := response.decision with input as {"classification": {"intent": "analytics"}, "tools_called": [], "answer": {"numbers": []}}
	not d.allow
	d.violations[0].code == "tool_call_required"
}

test_analytics_blocked_tool_does_not_count if {
	d := response.decision with input as {"classification": {"intent": "analytics"}, "tools_called": ["filter_data"], "answer": {"numbers": []}}
	not d.allow
}

test_analytics_grounded_number if {
	d := response.decision with input as {
		"classification": {"intent": "analytics"}, "tools_called": ["execute_metric"],
		"answer": {"numbers": [num("21.956,62 €", 21956.62, true, "tool", "")]},
	}
	d.allow
}

# Seed 002, test 5: "+50% of 21956.62 is 32934.93" is arithmetic, not invention.
test_analytics_plus_50_percent_is_a_derivation if {
	d := response.decision with input as {
		"classification": {"intent": "analytics"}, "tools_called": ["execute_metric"],
		"answer": {"numbers": [
			num("21956.62", 21956.62, true, "tool", ""),
			num("50%", 0.5, true, "user", ""),
			num("32934.93", 32934.93, true, "tool", "21956.62 * (1 + 50%)"),
		]},
	}
	d.allow
}

test_analytics_invented_number if {
	d := response.decision with input as {
		"classification": {"intent": "analytics"}, "tools_called": ["execute_metric"],
		"answer": {"numbers": [num("25.000 €", 25000, false, "", "")]},
	}
	not d.allow
	d.violations[0].code == "ungrounded_number"
	d.violations[0].text == "25.000 €"
}

test_strategy_user_number_allowed if {
	d := response.decision with input as {
		"classification": {"intent": "strategy"},
		"answer": {"numbers": [num("50%", 0.5, true, "user", "")]},
	}
	d.allow
}

test_strategy_invented_number_denied if {
	d := response.decision with input as {
		"classification": {"intent": "strategy"},
		"answer": {"numbers": [num("12 mesi", 12, false, "", ""), num("21956.62", 21956.62, true, "tool", "")]},
	}
	not d.allow
	count(d.violations) == 2
}

test_data_preview_no_derivations if {
	d := response.decision with input as {
		"classification": {"intent": "data_preview"}, "tools_called": ["filter_data"],
		"answer": {"numbers": [num("43.90", 43.9, true, "tool", "21.95 + 21.95")]},
	}
	not d.allow
}

test_conversational_numbers_free if {
	d := response.decision with input as {
		"classification": {"intent": "conversational"},
		"answer": {"numbers": [num("10", 10, false, "", "")]},
	}
	d.allow
}

test_strategy_small_integers_ignored if {
	d := response.decision with input as {
		"classification": {"intent": "strategy"},
		"answer": {"numbers": [object.union(num("3", 3, false, "", ""), {"trivial": true})]},
	}
	d.allow
	no := response.decision with input as {
		"classification": {"intent": "data_preview"}, "tools_called": ["filter_data"],
		"answer": {"numbers": [object.union(num("3", 3, false, "", ""), {"trivial": true})]},
	}
	not no.allow
}
