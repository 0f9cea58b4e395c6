"""The spec's seeded deal (spec/seeded-deal.md): SplitMix64 and an unbiased Fisher-Yates shuffle."""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """The generator of a seeded game: one per game, so later rounds continue its sequence."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not 0 <= seed <= MASK:
            raise ValueError(f"a seed is an integer from 0 to 2^64-1, not {seed}")
        self.state = seed

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): outputs at or above the largest multiple of n are redrawn."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self.next()
            if value < limit:
                return value % n

    def shuffle(self, deck: list[int]) -> None:
        """Fisher-Yates in place: for i from len-1 down to 1, swap deck[i] and deck[below(i + 1)]."""
        for i in range(len(deck) - 1, 0, -1):
            j = self.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]

    def copy(self) -> SplitMix64:
        """An independent generator at the same point of the sequence."""
        twin = SplitMix64(0)
        twin.state = self.state
        return twin
