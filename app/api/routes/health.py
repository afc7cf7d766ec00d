"""Liveness, readiness (the store answers) and Prometheus metrics."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.deps import Ctx
from app.api.errors import error_responses
from app.api.metrics import CONTENT_TYPE, Metrics
from app.api.schemas import Health
from app.service.errors import Unavailable

router = APIRouter(tags=["operations"])


@router.get("/healthz", operation_id="healthz", response_model=Health, summary="Liveness")
async def healthz() -> Health:
    return Health()


@router.get(
    "/readyz",
    operation_id="readyz",
    response_model=Health,
    summary="Readiness: the database is reachable and migrated to the newest schema",
    responses=error_responses(503),
)
async def readyz(request: Request, ctx: Ctx) -> Health:
    try:
        await ctx.store.ping()
    except Exception:
        raise Unavailable("the database is not reachable") from None
    if not await request.app.state.readiness.check():
        raise Unavailable("the database schema is not the newest: run `python -m app migrate`")
    return Health()


@router.get(
    "/metrics",
    operation_id="getMetrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE: {"schema": {"type": "string"}}}, "description": "Metrics."}},
)
async def metrics(request: Request) -> Response:
    registry: Metrics = request.app.state.metrics
    return Response(registry.render(), media_type=CONTENT_TYPE)
