package weir.roles_test

import data.weir.tools

preview(roles) := d if {
	d := tools.decision with input as {
		"subject": {"id": "k", "roles": roles, "tenant": "acme", "auth_method": "api_key"},
		"classification": {"intent": "data_preview"},
		"tool_calls": [{"id": "c", "name": "filter_data", "arguments": {}, "arguments_error": ""}],
	}
}

test_analyst_may_list_rows if {
	preview(["analyst"]).allow
}

test_viewer_may_not if {
	d := preview(["viewer"])
	not d.allow
	d.calls[0].violations[0].code == "role_required"
}

test_anonymous_may_not if {
	not preview([]).allow
}

test_missing_subject_may_not if {
	d := tools.decision with input as {
		"classification": {"intent": "data_preview"},
		"tool_calls": [{"id": "c", "name": "filter_data", "arguments": {}, "arguments_error": ""}],
	}
	not d.allow
}

test_ungated_tools_unchanged if {
	d := tools.decision with input as {
		"subject": {"id": "k", "roles": ["viewer"]},
		"classification": {"intent": "analytics"},
		"tool_calls": [{"id": "c", "name": "execute_metric", "arguments": {}, "arguments_error": ""}],
	}
	d.allow
}
