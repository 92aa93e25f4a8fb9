package weir.tools

# Says allow while listing a violation and a denied call: Weir denies.
decision := {
	"allow": true,
	"calls": [{"id": c.id, "name": c.name, "allow": true, "reason": "", "violations": [{"code": "x", "message": "m"}]} | some c in input.tool_calls],
	"violations": [],
}
