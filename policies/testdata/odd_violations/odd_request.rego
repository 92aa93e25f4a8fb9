package weir.request

violation contains {"message": "no code"} if input.route.name == "request_no_code"

violation contains {"code": "late", "message": "m", "text": 1} if input.route.name == "request_bad_text"
