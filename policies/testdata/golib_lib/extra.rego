package weir.lib

# A bundle rule in a library function the response's violations use: the response
# decision must keep the OPA path.
number_grounded(n) if n.text == "42"
