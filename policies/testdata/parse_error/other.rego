package weir.request

bad if {
	input.x ==
}
