package weir.lib

allowed_set := {"u"} if input.route.name == "conflict"
