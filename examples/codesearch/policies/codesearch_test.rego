# Unit tests of the codesearch bundle: primary and fallback tools per intent (seed 001).
package weir.codesearch_test

import data.weir.response
import data.weir.tools

allowed(intent, tool) if {
	d := tools.decision with input as {"classification": {"intent": intent}, "tool_calls": [{"id": "c", "name": tool, "arguments": {}, "arguments_error": ""}]}
	d.allow
}

test_exact if {
	allowed("exact", "grep_search")
	allowed("exact", "lsp_workspace_symbols")
	allowed("exact", "lsp_find_references")
	not allowed("exact", "semantic_search")
	not allowed("exact", "ast_grep_search")
}

test_structural if {
	allowed("structural", "ast_grep_search")
	allowed("structural", "grep_search")
	not allowed("structural", "semantic_search")
}

test_semantic if {
	allowed("semantic", "semantic_search")
	allowed("semantic", "ast_grep_search")
	not allowed("semantic", "lsp_goto_definition")
}

test_hybrid if {
	allowed("hybrid", "lsp_goto_definition")
	allowed("hybrid", "glob_files")
	allowed("hybrid", "semantic_search")
	not allowed("hybrid", "grep_search")
}

test_lsp if {
	allowed("lsp", "lsp_goto_definition")
	allowed("lsp", "lsp_find_references")
	allowed("lsp", "semantic_search")
	not allowed("lsp", "glob_files")
}

test_unknown_tool if not allowed("exact", "run_shell")

test_search_required if {
	d := response.decision with input as {"classification": {"intent": "semantic"}, "tools_called": [], "answer": {"numbers": []}}
	not d.allow
	d.violations[0].code == "tool_call_required"
}

test_numbers_free if {
	d := response.decision with input as {
		"classification": {"intent": "exact"}, "tools_called": ["grep_search"],
		"answer": {"numbers": [{"text": "42", "value": 42, "grounded": false, "source": "", "source_kind": "", "derivation": ""}]},
	}
	d.allow
}
