"""The game docs (`docs/games/*.md`): schemas in words, with examples from real seeded matches.

`python -m app.gamedocs` plays the scenarios of `scenarios` through the real app in-process
(`capture`), and renders each game's page (`render`) from the schemas it serves, the hand-written
explanations of `prose` and the captured examples. `tests/contract/test_game_docs.py` runs it again
and fails when the committed pages differ, so the examples cannot go stale.
"""
