"""The sequential test of the ladder: a generalized SPRT on deal scores, and a mean's 95% interval.

Each deal gives A a score of 1 (A won the deal on points), 1/2 (level) or 0 (B won). H0 says A's
expected score is that of an Elo difference ``elo0``, H1 that of ``elo1``. As engine testers do
(fishtest's GSPRT), the log-likelihood ratio is taken from a normal approximation with the variance
measured on the deals so far (plus one won and one lost): LLR = n (s1 - s0) (2 m - s0 - s1) / (2 v). The test stops when the
LLR leaves the bounds of Wald's test: below log(beta / (1 - alpha)) H0 is accepted, above
log((1 - beta) / alpha) H1 is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95% normal quantile

ACCEPT_H1, ACCEPT_H0, UNDECIDED = "H1", "H0", None

# The normal approximation of the GSPRT is poor on a handful of non-level deals (3 wins and 33
# levels look like a certain edge): H1 is not accepted before this many deals were won or lost,
# H0 not before this many deals.
MIN_DECISIVE = 20


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (the logistic Elo curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Bounds:
    """The hypotheses and error rates of one test."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def lower(self) -> float:
        """At or below this LLR, H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """At or above this LLR, H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)


@dataclass
class Tally:
    """Running sums of a sample: enough for its mean, variance and the LLR."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        """Count one more observation."""
        self.n += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        """The sample mean (0 when empty)."""
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The (biased, as in the GSPRT) sample variance."""
        return max(self.squares / self.n - self.mean ** 2, 0.0) if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        """The mean's 95% confidence interval (normal approximation, unbiased variance)."""
        if self.n < 2:
            return (-math.inf, math.inf)
        half = Z95 * math.sqrt(self.variance * self.n / (self.n - 1) / self.n)
        return (self.mean - half, self.mean + half)


def llr(scores: Tally, bounds: Bounds) -> float:
    """The GSPRT log-likelihood ratio of H1 against H0."""
    if scores.n == 0:
        return 0.0
    # The variance is measured as if one more deal had been won and one lost: a sample of wins
    # only (or levels only) has no spread, and would otherwise never stop the test.
    spread = Tally(scores.n + 2, scores.total + 1.0, scores.squares + 1.0).variance
    s0, s1 = expected_score(bounds.elo0), expected_score(bounds.elo1)
    return scores.n * (s1 - s0) * (2.0 * scores.mean - s0 - s1) / (2.0 * spread)


def decide(scores: Tally, bounds: Bounds, decisive: int) -> str | None:
    """ACCEPT_H1, ACCEPT_H0 or UNDECIDED for the scores so far, ``decisive`` of them won or lost.

    Only H1 waits for MIN_DECISIVE won or lost deals: a few wins among levels look like an edge.
    Level deals are evidence for H0 (equal players draw every deal), so H0 needs only that many deals.
    """
    ratio = llr(scores, bounds)
    if ratio <= bounds.lower and scores.n >= MIN_DECISIVE:
        return ACCEPT_H0
    if decisive >= MIN_DECISIVE and ratio >= bounds.upper:
        return ACCEPT_H1
    return UNDECIDED


def elo_of(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (clamped away from 0 and 1)."""
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(scores: Tally) -> tuple[float, float]:
    """The Elo difference's 95% interval: the mean deal score's, through the Elo curve (unbounded past 0 or 1)."""
    if scores.n < 2:
        return (-math.inf, math.inf)
    # The spread as the LLR takes it (one more deal won and one lost): deals all won would otherwise
    # give an interval of one point, at the clamp of the Elo curve.
    spread = Tally(scores.n + 2, scores.total + 1.0, scores.squares + 1.0).variance
    half = Z95 * math.sqrt(spread / scores.n)
    low, high = scores.mean - half, scores.mean + half
    return (elo_of(low) if low > 0 else -math.inf, elo_of(high) if high < 1 else math.inf)
