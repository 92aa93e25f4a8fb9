# query_data validates the arguments of the query_data tool (seed 003's QueryIntent)
# against data.weir.query_data. Every problem becomes a tool_arguments_invalid violation
# of that call, with a message precise enough for the model to correct its query.
package weir.tools

import data.weir.lib

schema := data.weir.query_data

call_violation contains v if {
	some i, call in lib.tool_calls
	call.name == "query_data"
	object.get(call, "arguments_error", "") == ""
	some msg in query_problems(call.arguments)
	v := {
		"call": i,
		"code": "tool_arguments_invalid",
		"message": sprintf("query_data: %s", [msg]),
		"rule": "weir.tools.call_violation[query_data]",
	}
}

# query_problems returns the set of problems of a QueryIntent; empty when it is valid.
query_problems(q) := {"arguments must be an object"} if not is_object(q)

else := top_problems(q) | filter_problems(q) | aggregation_problems(q)

top_problems(q) := {msg |
	some k, _ in q
	not k in schema.keys
	msg := sprintf("unknown key %q (known: %s)", [k, concat(", ", schema.keys)])
} | {msg |
	not object.get(q, "type", null) in schema.types
	msg := sprintf("type must be one of %s", [concat(", ", schema.types)])
} | {msg |
	some msg in limit_problems(q)
} | {msg |
	c := object.get(q, "confidence", 0)
	not valid_confidence(c)
	msg := "confidence must be a number between 0 and 1"
} | {msg |
	not is_string(object.get(q, "orderBy", ""))
	msg := "orderBy must be a string"
} | {msg |
	o := object.get(q, "offset", 0)
	not valid_offset(o)
	msg := "offset must be a non-negative integer"
}

valid_offset(o) if {
	is_number(o)
	o == round(o)
	o >= 0
}

valid_confidence(c) if {
	is_number(c)
	c >= 0
	c <= 1
}

limit_problems(q) := set() if not "limit" in object.keys(q)

else := {msg |
	l := q.limit
	not valid_limit(l)
	msg := sprintf("limit must be an integer between 1 and %d", [schema.max_limit])
}

valid_limit(l) if {
	is_number(l)
	l == round(l)
	l >= 1
	l <= schema.max_limit
}

filters(q) := f if {
	f := object.get(q, "filters", [])
	is_array(f)
}

filter_problems(q) := {"filters must be an array"} if not filters(q)

else := {msg |
	some j, f in filters(q)
	some msg in filter_problem(j, f)
}

filter_problem(j, f) := {sprintf("filters[%d] must be an object", [j])} if not is_object(f)

else := {sprintf("filters[%d]: unknown field %q (known: %s)", [j, field, concat(", ", object.keys(schema.fields))]) |
	field := object.get(f, "field", "")
	not schema.fields[field]
} | {sprintf("filters[%d]: operator %q is not valid for %s field %q (valid: %s)", [j, op, t, field, concat(", ", schema.operators[t])]) |
	field := object.get(f, "field", "")
	op := object.get(f, "operator", "")
	t := schema.fields[field]
	not op in schema.operators[t]
} | {sprintf("filters[%d]: a filter needs a value", [j]) |
	not "value" in object.keys(f)
} | {sprintf("filters[%d]: operator between needs a value [low, high]", [j]) |
	object.get(f, "operator", "") == "between"
	not two_values(object.get(f, "value", null))
} | {sprintf("filters[%d]: operator in needs a non-empty array value", [j]) |
	object.get(f, "operator", "") == "in"
	not non_empty_array(object.get(f, "value", null))
} | {sprintf("filters[%d]: matchStrategy must be one of %s", [j, concat(", ", schema.match_strategies)]) |
	"matchStrategy" in object.keys(f)
	not f.matchStrategy in schema.match_strategies
} | {sprintf("filters[%d]: fuzzyThreshold must be a number between 0 and 5", [j]) |
	"fuzzyThreshold" in object.keys(f)
	not fuzzy_ok(f.fuzzyThreshold)
} | {sprintf("filters[%d]: logicalOperator must be AND or OR", [j]) |
	"logicalOperator" in object.keys(f)
	not f.logicalOperator in schema.logical_operators
}

two_values(v) if {
	is_array(v)
	count(v) == 2
}

non_empty_array(v) if {
	is_array(v)
	count(v) > 0
}

fuzzy_ok(x) if {
	is_number(x)
	x >= 0
	x <= 5
}

aggregations(q) := a if {
	a := object.get(q, "aggregations", [])
	is_array(a)
}

aggregation_problems(q) := {"aggregations must be an array"} if not aggregations(q)

else := {msg |
	some j, a in aggregations(q)
	some msg in aggregation_problem(j, a)
}

aggregation_problem(j, a) := {sprintf("aggregations[%d] must be an object", [j])} if not is_object(a)

else := metric_problems(j, a) if "metric" in object.keys(a)

else := operation_problems(j, a) | group_problems(j, a)

# A named metric replaces field and operation.
metric_problems(j, a) := {sprintf("aggregations[%d]: metric must be one of %s", [j, concat(", ", schema.metrics)]) |
	not a.metric in schema.metrics
} | {sprintf("aggregations[%d]: a metric takes no field or operation", [j]) |
	some k in ["field", "operation"]
	k in object.keys(a)
} | group_problems(j, a)

operation_problems(j, a) := {sprintf("aggregations[%d]: operation must be one of %s", [j, concat(", ", object.keys(schema.operations))]) |
	not schema.operations[object.get(a, "operation", "")]
} | {sprintf("aggregations[%d]: unknown field %q", [j, field]) |
	field := object.get(a, "field", "")
	field != ""
	not schema.fields[field]
} | {sprintf("aggregations[%d]: %s needs a field", [j, a.operation]) |
	object.get(a, "field", "") == ""
	schema.operations[object.get(a, "operation", "")]
	a.operation != "count"
} | {sprintf("aggregations[%d]: %s needs a number field; %q is a %s field", [j, a.operation, a.field, t]) |
	schema.operations[object.get(a, "operation", "")] == "number"
	t := schema.fields[object.get(a, "field", "")]
	t != "number"
} | {sprintf("aggregations[%d]: %s needs a number or date field; %q is a %s field", [j, a.operation, a.field, t]) |
	schema.operations[object.get(a, "operation", "")] == "number_or_date"
	t := schema.fields[object.get(a, "field", "")]
	not t in {"number", "date"}
}

group_problems(j, a) := {sprintf("aggregations[%d]: groupBy must be one of %s", [j, concat(", ", schema.group_by)]) |
	"groupBy" in object.keys(a)
	not a.groupBy in schema.group_by
}
