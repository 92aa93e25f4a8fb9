package weir.response

decision := {"allow": true, "violations": []} if false
