package weir.request

import data.weir.lib

# Only analysts may ask analytics questions.
violation contains {"code": "role_required", "message": "analytics needs the analyst role"} if {
	lib.intent == "analytics"
	not "analyst" in input.subject.roles
}
