package weir.request

decision := {"allow": true, "violations": [], "obligations": {"allowed_tools": ["search"]}}
