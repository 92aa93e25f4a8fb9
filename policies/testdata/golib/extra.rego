package weir.request

# A bundle rule in the request's violations: the tools and response decisions must carry
# them, whether evaluated in Go or in Rego.
violation contains {"code": "source_llm", "message": sprintf("source %q", [input.classification.source])} if {
	input.classification.source == "llm"
}
