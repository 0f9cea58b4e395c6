"""Rummy 1.1.0: the game, its melds, its setups and its three computer players."""
