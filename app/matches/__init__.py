"""The match lifecycle over any registered game: pure, no I/O, no caches.

`fold` folds stored events into a `Match` (the game's state and the match's own: seats, status,
draft, clock); `decide` says which events a request causes (or refuses it with an `ErrorCode`);
`events` are the match-level events and `settings` the match settings; `views` builds the
per-viewer envelopes (views and redacted events); `contract` publishes a game's match schemas;
`fairness` derives the dice of a match from its secret and the commitment published at creation.
Caches of folded matches and of their renderings live in the service layer (`app.service.cache`).
"""
