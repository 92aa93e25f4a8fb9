# Unit tests of the trade bundle: the query_data argument checks (seed 003).
package weir.trade_test

import data.weir.response
import data.weir.tools

query(args) := {"classification": {"intent": "aggregation"}, "tool_calls": [{"id": "c1", "name": "query_data", "arguments": args, "arguments_error": ""}]}

test_seed_example_allowed if {
	d := tools.decision with input as query({
		"type": "aggregation", "filters": [],
		"aggregations": [{"field": "totalValueUSD", "operation": "sum", "groupBy": "importCountry"}],
		"limit": 10, "confidence": 0.8,
	})
	d.allow
}

test_detail_filters_allowed if {
	d := tools.decision with input as query({
		"type": "detail",
		"filters": [
			{"field": "goodsName", "operator": "contains", "value": "Laptop", "matchStrategy": "case-insensitive"},
			{"field": "totalValueUSD", "operator": "greaterThan", "value": 50000},
			{"field": "date", "operator": "between", "value": ["2024-01-01", "2024-06-30"], "logicalOperator": "AND"},
		],
		"limit": 50, "confidence": 0.9,
	})
	d.allow
}

test_invalid_operator_for_number_field if {
	d := tools.decision with input as query({"type": "detail", "filters": [{"field": "quantity", "operator": "contains", "value": "10"}]})
	not d.allow
	d.calls[0].violations[0].code == "tool_arguments_invalid"
	contains(d.calls[0].violations[0].message, "operator \"contains\" is not valid for number field \"quantity\"")
}

test_startswith_on_date_refused if {
	d := tools.decision with input as query({"type": "detail", "filters": [{"field": "date", "operator": "startsWith", "value": "2024"}]})
	not d.allow
}

test_unknown_field if {
	d := tools.decision with input as query({"type": "detail", "filters": [{"field": "price", "operator": "equals", "value": 1}]})
	not d.allow
	some v in d.violations
	contains(v.message, "unknown field \"price\"")
}

test_limit_over_cap if {
	d := tools.decision with input as query({"type": "detail", "filters": [], "limit": 5000})
	not d.allow
	some v in d.violations
	contains(v.message, "limit must be an integer between 1 and 500")
}

test_limit_not_integer if {
	d := tools.decision with input as query({"type": "detail", "filters": [], "limit": 10.5})
	not d.allow
}

test_sum_of_string_field if {
	d := tools.decision with input as query({"type": "aggregation", "filters": [], "aggregations": [{"field": "goodsName", "operation": "sum"}]})
	not d.allow
}

test_count_of_any_field if {
	d := tools.decision with input as query({"type": "aggregation", "filters": [], "aggregations": [{"field": "importCompanyName", "operation": "count", "groupBy": "year"}]})
	d.allow
}

test_bad_group_by if {
	d := tools.decision with input as query({"type": "aggregation", "filters": [], "aggregations": [{"field": "quantity", "operation": "sum", "groupBy": "unitPriceUSD"}]})
	not d.allow
}

# Issue 16 (seed 003): what the tool schema advertises, the policy accepts — named
# metrics, count without a field, count_distinct, grouping by goods, negated and inclusive
# operators, quarters and pages.
test_tool_schema_features_allowed if {
	d := tools.decision with input as query({
		"type": "aggregation",
		"filters": [
			{"field": "importCountry", "operator": "notIn", "value": ["Vietnam"]},
			{"field": "totalValueUSD", "operator": "atLeast", "value": 1000},
		],
		"aggregations": [{"metric": "total_value", "groupBy": "goodsName"}, {"operation": "count"}, {"field": "importCompanyName", "operation": "count_distinct"}],
		"orderBy": "total_value desc", "limit": 5, "offset": 5,
	})
	d.allow
}

test_quarter_grouping_allowed if {
	d := tools.decision with input as query({"type": "trend", "filters": [], "aggregations": [{"metric": "declaration_count", "groupBy": "quarter"}]})
	d.allow
}

test_unknown_metric if {
	d := tools.decision with input as query({"type": "aggregation", "filters": [], "aggregations": [{"metric": "profit"}]})
	not d.allow
}

test_metric_with_operation if {
	d := tools.decision with input as query({"type": "aggregation", "filters": [], "aggregations": [{"metric": "total_value", "operation": "sum"}]})
	not d.allow
}

test_sum_needs_field if {
	d := tools.decision with input as query({"type": "aggregation", "filters": [], "aggregations": [{"operation": "sum"}]})
	not d.allow
}

test_between_needs_two_values if {
	d := tools.decision with input as query({"type": "detail", "filters": [{"field": "quantity", "operator": "between", "value": 3}]})
	not d.allow
}

test_unknown_key_and_bad_type if {
	d := tools.decision with input as query({"type": "everything", "filters": [], "sql": "DROP TABLE"})
	count(d.violations) == 2
}

test_arguments_not_an_object if {
	d := tools.decision with input as query([1, 2])
	not d.allow
}

test_filter_not_an_object if {
	d := tools.decision with input as query({"type": "detail", "filters": ["importCountry = China"]})
	not d.allow
}

test_other_tool_not_allowed if {
	d := tools.decision with input as {"classification": {"intent": "trend"}, "tool_calls": [{"id": "c", "name": "run_sql", "arguments": {}, "arguments_error": ""}]}
	not d.allow
}

test_analysis_numbers_grounded if {
	ok := response.decision with input as {
		"classification": {"intent": "comparison"}, "tools_called": ["query_data"],
		"answer": {"numbers": [{"text": "12.5%", "value": 0.125, "grounded": true, "source": "tool:query_data", "source_kind": "tool", "derivation": "a / b - 1"}]},
	}
	ok.allow
	no := response.decision with input as {
		"classification": {"intent": "comparison"}, "tools_called": ["query_data"],
		"answer": {"numbers": [{"text": "$3M", "value": 3000000, "grounded": false, "source": "", "source_kind": "", "derivation": ""}]},
	}
	not no.allow
}

test_missing_type if {
	d := tools.decision with input as query({"filters": []})
	not d.allow
	d.calls[0].violations[0].message == "query_data: type must be one of aggregation, detail, trend, comparison, recommendation, ranking"
}
