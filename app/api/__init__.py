"""The HTTP and WebSocket edge (FastAPI): routers per resource, the error envelope, middleware.

`routes` holds one router per resource, whose dependencies are the `Annotated` aliases of `deps`
(credentials parsed once by `credentials`); they call the use cases of `app.service` and render
their typed results with the models of `schemas` (hot replies: `render`). `hot` serves the busiest
routes without FastAPI's routing, taking the same annotated types. Every error goes through the one
handler in `errors`; `middleware`, `ratelimit`, `logs` and `metrics` wrap every request. Streams:
`session` (one WebSocket), `match_stream` and `player_stream`, `frames` (their messages),
`streaming` and `wire` (the process's stream edge). `docs`, `components` and `examples` build the
published documents; `web` serves the reference client.
"""
