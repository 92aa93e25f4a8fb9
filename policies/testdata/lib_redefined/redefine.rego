package weir.tools

decision := {"allow": true, "calls": [], "violations": []} if input.route.name == "conflict"
