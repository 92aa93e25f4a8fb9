package weir.request

# The admin route needs the admin role; the message shows the rules and the confidence.
violation contains v if {
	input.route.name == "admin"
	not "admin" in input.subject.roles
	v := {
		"code": "role_required",
		"message": sprintf("route %s needs the admin role (rules %v, confidence %v)", [input.route.name, input.classification.rules, input.classification.confidence]),
		"rule": "weir.request.violation[role_required]",
	}
}

# Subjects "n<number>" above 5 are refused; "n" followed by anything else is a builtin
# error (to_number), which denies the whole decision.
violation contains v if {
	startswith(input.subject.id, "n")
	to_number(substring(input.subject.id, 1, -1)) > 5
	v := {"code": "id_too_high", "message": input.subject.id}
}

# A blocked tenant is refused; the admin route refuses anonymous callers.
violation contains v if {
	input.subject.tenant == "blocked"
	v := {"code": "tenant_blocked", "message": sprintf("tenant %s is blocked", [input.subject.tenant])}
}

violation contains v if {
	input.route.name == "admin"
	input.subject.auth_method in {"", "none"}
	v := {"code": "authentication_required", "message": "the admin route needs a verified caller"}
}
