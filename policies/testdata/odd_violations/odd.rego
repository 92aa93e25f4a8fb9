package weir.tools

# "call" as 1.0: Rego's 1.0 == 1 holds, so the violation belongs to call 1.
call_violation contains {"call": 1.0, "code": "float_index", "message": "m"} if input.route.name == "float"

# "call" as a string: "0" == 0 does not hold; the violation is in no call's verdict.
call_violation contains {"call": "0", "code": "string_index", "message": "m"} if input.route.name == "string"

# An index past the last call, and a negative one.
call_violation contains {"call": 7, "code": "out_of_range", "message": "m"} if input.route.name == "range"

call_violation contains {"call": -1, "code": "negative", "message": "m"} if input.route.name == "range"

# Several violations on one call, with and without a rule: the order is the set's.
call_violation contains {"call": 0, "code": "b_second", "message": "m2"} if input.route.name == "many"

call_violation contains {"call": 0, "code": "a_first", "message": "m1", "rule": "r"} if input.route.name == "many"

violation contains {"code": "tool_level", "message": "m"} if input.route.name == "many"

# Malformed: not an object; an object without a code; a code that is not a string.
call_violation contains "oops" if input.route.name == "string_violation"

call_violation contains {"call": 0, "message": "no code"} if input.route.name == "no_code"

violation contains {"code": 3, "message": "m"} if input.route.name == "number_code"

# A builtin error in an extension rule.
call_violation contains {"call": 0, "code": "x", "message": sprintf("%d", [to_number("x")])} if input.route.name == "builtin_error"

# A `with` opens a fresh cache frame: the memoized allowed_set of intent "a" must not leak
# into an evaluation for another intent.
violation contains {"code": "with_frame", "message": sprintf("%v", [s])} if {
	input.route.name == "with"
	s := data.weir.lib.allowed_set with input as {"classification": {"intent": "nope"}}
}
