"""Audit: the games a server really played, as game records (spec/records.md), judged move by move on the reference."""
