package weir.tools

violation contains v if {
	some call in input.tool_calls
	undefined_helper(call)
	v := {"code": "x", "message": "y"}
}
