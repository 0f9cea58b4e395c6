"""The rules as data, loaded: the game files, card notation, semver ranges, where the bundled spec is."""
