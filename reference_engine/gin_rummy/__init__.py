"""Gin Rummy 1.0.0: the game, its actions, its deadwood solver, its setups and its three computer players."""
