package weir.tools

# to_number fails on a non-numeric name; strict builtin errors turn that into an error.
decision := {"allow": to_number(input.tool_calls[0].name) > 0, "calls": [], "violations": []}
