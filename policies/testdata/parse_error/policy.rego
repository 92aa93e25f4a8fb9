package weir.tools

violation contains v if {
	v := {"code": "x", "message": "y"
}
