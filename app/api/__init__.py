"""The HTTP API v1 (FastAPI): routers per resource, the error envelope, middleware, metrics, logs.

Routes call `app.service.matches.MatchService` and render its results with the models in
`schemas`; every error goes through the one handler in `errors`.
"""
