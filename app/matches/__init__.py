"""The match lifecycle over any registered game: pure, no I/O.

`lifecycle` folds stored events into a `LoadedMatch` and projects it (status, seats to act, scores);
`views` builds the per-viewer envelopes (views and redacted events); `fairness` derives the dice
of a match from its secret and computes the commitment published at creation.
"""
