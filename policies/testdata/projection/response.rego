package weir.response

violation contains v if {
	input.route.surface == "query"
	input.classification.source == "llm"
	v := {"code": "llm_on_query", "message": "the query surface needs the rules"}
}
