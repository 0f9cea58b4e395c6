"""Fixtures in: the scenario model (data only), loading, lint, the YAML reader, the cache, the loader process, discovery."""
