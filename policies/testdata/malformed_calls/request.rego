package weir.request

decision := {"allow": true, "violations": [], "obligations": {}}
