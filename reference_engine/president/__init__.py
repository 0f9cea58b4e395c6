"""President 1.1.0: the game, its card order and plays, its setups and its three computer players."""
