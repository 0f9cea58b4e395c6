"""Computer players: the view they decide from, the Player interface, and the checks they must pass."""

from harness.adapters.players import Player, SeatPlayers, ViewPlayers

__all__ = ["Player", "SeatPlayers", "ViewPlayers"]
