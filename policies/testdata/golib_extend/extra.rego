package weir.response

# A bundle rule in the response's violations: the response decision must keep the OPA path.
violation contains {"code": "no_numbers", "message": "numbers need a tool"} if {
	count(input.answer.numbers) > 0
	count(input.tools_called) == 0
}
