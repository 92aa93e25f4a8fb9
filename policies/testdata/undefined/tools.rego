package weir.tools

# decision is undefined unless the input says otherwise: the gateway must deny.
decision := {"allow": true, "calls": [], "violations": []} if input.route.name == "never"
