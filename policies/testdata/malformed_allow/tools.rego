package weir.tools

decision := {"allow": "yes", "calls": [], "violations": []}
