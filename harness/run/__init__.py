"""Judging scenarios against an engine: the runner, one scenario's play, grouped runs, plans, verdicts."""
