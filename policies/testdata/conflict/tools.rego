package weir.tools

# Two complete definitions with different values: an evaluation conflict.
decision := {"allow": true, "calls": [], "violations": []} if count(input.tool_calls) >= 0

decision := {"allow": false, "calls": [], "violations": []} if count(input.tool_calls) >= 0
