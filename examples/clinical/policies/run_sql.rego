# run_sql lets SQL through only when it is a single read-only SELECT (or WITH ... SELECT).
# The check is deliberately coarse and fails closed: a forbidden keyword anywhere — also
# inside a string literal — refuses the query; so do comments, which could hide a second
# statement from a reader, and any ";" but one trailing.
package weir.tools

import data.weir.lib

call_violation contains v if {
	some i, call in lib.tool_calls
	call.name == "run_sql"
	object.get(call, "arguments_error", "") == ""
	some msg in sql_problems(call.arguments)
	v := {
		"call": i,
		"code": "tool_arguments_invalid",
		"message": sprintf("run_sql: %s", [msg]),
		"rule": "weir.tools.call_violation[run_sql]",
	}
}

# sql_problems returns why the arguments of run_sql are refused; empty when allowed.
sql_problems(args) := {"arguments must be {\"query\": \"SELECT ...\"}"} if not sql_text(args)

else := sql_text_problems(sql_text(args))

sql_text(args) := q if {
	is_object(args)
	q := args.query
	is_string(q)
}

sql_text_problems(q) := {"query is empty"} if trim_space(q) == ""

else := {sprintf("query is %d bytes, over the limit of %d", [count(q), data.weir.run_sql.max_query_bytes])} if {
	count(q) > data.weir.run_sql.max_query_bytes
} else := {msg |
	some msg in statement_problems(lower(q))
}

statement_problems(s) := {"only a single SELECT (or WITH ... SELECT) is allowed" |
	not regex.match(`^\s*(select|with)\b`, s)
} | {"comments are not allowed (--, /*, */, #)" |
	regex.match(`--|/\*|\*/|#`, s)
} | {"only one statement is allowed: \";\" may only end the query" |
	contains(trim_suffix(trim_space(s), ";"), ";")
} | {sprintf("keyword %q is not allowed in a read-only query", [k]) |
	some k in data.weir.run_sql.forbidden_keywords
	regex.match(sprintf(`\b%s\b`, [k]), without_replace_function(s))
}

# without_replace_function removes the string function replace(...) so that the
# statement REPLACE stays forbidden while SELECT replace(name, 'a', 'b') passes.
without_replace_function(s) := regex.replace(s, `\breplace\s*\(`, "(")
