# A bundle whose request decision fails to evaluate for small talk: the gateway's tests use
# it to check that policy errors deny (enforce) and are recorded (monitor).
package weir.request

violation contains v if {
	input.classification.intent == "conversational"
	to_number(input.classification.intent) > 0
	v := {"code": "unreachable", "message": "never produced"}
}
