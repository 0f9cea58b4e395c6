"""What fuzz, perft, players, audit and ladder share: game facts, layouts, findings and the fixtures made of them.

Modules: ``games`` (what the spec says of each game), ``layouts`` (state views to layouts of
positions and deals), ``model`` (a finding: setup, moves, divergence or violation), ``clauses``
(the clause a divergence is filed under), ``writer`` (a finding as a fixture) and ``verify`` (a
written fixture checked: it lints, fails on the engine, passes on the reference).
"""
