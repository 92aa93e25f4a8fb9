package weir.response

violation contains {"code": "resp", "message": "m", "text": "t"} if input.route.name == "response"

violation contains ["not", "an", "object"] if input.route.name == "response_array"
