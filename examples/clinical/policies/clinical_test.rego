# Unit tests of the clinical bundle: tool allowlists per source and the run_sql guard.
package weir.clinical_test

import data.weir.response
import data.weir.tools

sql(q) := {"classification": {"intent": "sas"}, "tool_calls": [{"id": "c1", "name": "run_sql", "arguments": {"query": q}, "arguments_error": ""}]}

allowed_sql(q) if tools.decision.allow with input as sql(q)

test_select_allowed if {
	allowed_sql("SELECT COUNT(*) FROM events WHERE aeterm LIKE '%immune%'")
	allowed_sql("select count(*) from ae;")
	allowed_sql("  \n\tSeLeCt usubjid\nFROM dm  ;  ")
	allowed_sql("WITH s AS (SELECT usubjid FROM ae) SELECT COUNT(*) FROM s")
	allowed_sql("SELECT replace(aeterm, 'x', 'y') FROM ae")
	allowed_sql("SELECT updated_at, created_by FROM ae")
}

test_second_statement_refused if not allowed_sql("SELECT 1; DROP TABLE x")

test_two_selects_refused if not allowed_sql("SELECT 1; SELECT 2")

test_double_semicolon_refused if not allowed_sql("SELECT 1;;")

test_line_comment_refused if not allowed_sql("select * from ae -- ; delete")

test_block_comment_refused if not allowed_sql("/* */ drop table ae")

test_hash_comment_refused if not allowed_sql("SELECT 1 # comment")

test_dml_in_cte_refused if not allowed_sql("WITH x AS (DELETE FROM ae RETURNING *) SELECT * FROM x")

test_dml_refused if {
	not allowed_sql("DELETE FROM ae")
	not allowed_sql("update ae set aeterm = 'x'")
	not allowed_sql("INSERT INTO ae VALUES (1)")
	not allowed_sql("SELECT * INTO backup FROM ae")
	not allowed_sql("REPLACE INTO ae VALUES (1)")
	not allowed_sql("PRAGMA table_info(ae)")
	not allowed_sql("SELECT * FROM ae WHERE 1=1\nUNION SELECT * FROM x; ATTACH DATABASE 'y' AS z")
}

test_keywords_case_and_whitespace if {
	not allowed_sql("SELECT 1 FROM ae WHERE x IN (SELECT 1)\n\tDrOp\n TABLE ae")
	not allowed_sql("select\tload_extension('x')")
}

test_bad_arguments_refused if {
	not tools.decision.allow with input as {"classification": {"intent": "sas"}, "tool_calls": [{"id": "c", "name": "run_sql", "arguments": {"sql": "SELECT 1"}, "arguments_error": ""}]}
	not tools.decision.allow with input as {"classification": {"intent": "sas"}, "tool_calls": [{"id": "c", "name": "run_sql", "arguments": {"query": 42}, "arguments_error": ""}]}
	not allowed_sql("   ")
}

test_pdf_cannot_run_sql if {
	d := tools.decision with input as {"classification": {"intent": "pdf"}, "tool_calls": [{"id": "c", "name": "run_sql", "arguments": {"query": "SELECT 1"}, "arguments_error": ""}]}
	not d.allow
	d.calls[0].violations[0].code == "tool_not_allowed"
}

test_pdf_tools if {
	d := tools.decision with input as {"classification": {"intent": "pdf"}, "tool_calls": [
		{"id": "a", "name": "lookup_known_answers", "arguments": {"question": "q"}, "arguments_error": ""},
		{"id": "b", "name": "search_protocol", "arguments": {"query": "dose"}, "arguments_error": ""},
	]}
	d.allow
}

test_both_all_tools if {
	d := tools.decision with input as {"classification": {"intent": "both"}, "tool_calls": [
		{"id": "a", "name": "search_protocol", "arguments": {}, "arguments_error": ""},
		{"id": "b", "name": "run_sql", "arguments": {"query": "SELECT 1"}, "arguments_error": ""},
		{"id": "c", "name": "lookup_known_answers", "arguments": {}, "arguments_error": ""},
	]}
	d.allow
}

test_sas_numbers_grounded if {
	no := response.decision with input as {
		"classification": {"intent": "sas"}, "tools_called": ["run_sql"],
		"answer": {"numbers": [{"text": "17", "value": 17, "grounded": false, "source": "", "source_kind": "", "derivation": ""}]},
	}
	not no.allow
	ok := response.decision with input as {
		"classification": {"intent": "sas"}, "tools_called": ["run_sql"],
		"answer": {"numbers": [{"text": "17", "value": 17, "grounded": true, "source": "tool:run_sql", "source_kind": "tool", "derivation": ""}]},
	}
	ok.allow
}
