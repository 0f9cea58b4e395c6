"""Verdicts out: the console summary, JSON lines and JUnit, the ratchet, safe text, coverage, explain."""
