"""Application services: the use cases (create, join, act, read) over the ports in `ports`.

No FastAPI, no SQLAlchemy here: adapters in `app.store` and `app.broadcast` implement the ports,
and `app.main` wires them together.
"""
