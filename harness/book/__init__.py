"""The rule book and the conformance report: static sites made from the spec, the fixtures and runs."""
