"""The game files the reference engine reads its numbers and defaults from, and the rule versions they make playable."""
