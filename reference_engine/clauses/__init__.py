"""The clause trace shared by the three games: which spec clause decided which value."""
