"""The CardVerse conformance harness: loads fixtures, runs them against an engine, reports."""

__version__ = "0.1.0"
KIT_NAME = "cardverse-conformance"
