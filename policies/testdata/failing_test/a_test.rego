package weir.a_test

import data.weir.tools

test_passes if {
	tools.decision.allow with input as {"classification": {"intent": "a"}, "tool_calls": [{"id": "1", "name": "t", "arguments": {}, "arguments_error": ""}]}
}

test_fails if {
	tools.decision.allow with input as {"classification": {"intent": "a"}, "tool_calls": [{"id": "1", "name": "u", "arguments": {}, "arguments_error": ""}]}
}
