package weir.tools

import data.weir.lib

calls := [{"id": c.id, "name": c.name, "allow": ok, "violations": vs} |
	some c in lib.tool_calls
	ok := c.name in data.weir.my_allowlist
	vs := [{"code": "tool_not_allowed", "message": c.name} | not ok]
]

decision := {"allow": every_allowed, "calls": calls, "violations": [v | some c in calls; some v in c.violations]}

default every_allowed := false

every_allowed if every c in calls { c.allow }
