"""Perft: the number of positions reached by every line of legal play to a fixed depth, and divide down to the wrong one."""
