"""Rule versions guarded: what changed between two game files, new versions, runs per version, rule documents."""
