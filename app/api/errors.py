"""The error envelope `{"error": {"code", "message", "details"}}` and the one place that renders it.

Service errors carry their own code and status. Framework errors are mapped here: request
validation and malformed JSON → 422 `validation_error`, unknown routes → 404 `not_found`, wrong
methods → 405 `method_not_allowed` with an `Allow` header naming every method of that path (the
router itself names only those of the first route it matched). Anything unexpected becomes 500
`internal_error` in `app.api.middleware.RequestContext`, logged once, never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, JsonValue
from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse
from starlette.routing import Match
from starlette.types import Scope

from app.games.codec import JSON
from app.service import errors as svc

_CODES: list[JsonValue] = [*sorted({e.code for e in svc.ALL_ERRORS})]
_STATUSES: dict[str, JsonValue] = {
    e.code: e.http_status for e in sorted(svc.ALL_ERRORS, key=lambda e: e.code)
}


class ErrorBody(BaseModel):
    code: str = Field(
        description="Machine code, one of the error tree's (`x-status` gives each one's HTTP status).",
        json_schema_extra={
            "enum": _CODES,
            "x-status": _STATUSES,
        },
    )
    message: str = Field(description="What went wrong, in words for the caller.")
    details: JSON = Field(None, description="Structured details (e.g. the offending field).")


class ErrorEnvelope(BaseModel):
    error: ErrorBody


def error_responses(*statuses: int) -> dict[int | str, dict[str, object]]:
    """`responses=` for a route: each status documented with the envelope."""
    return {s: {"model": ErrorEnvelope, "description": _description(s)} for s in statuses}


def _description(status: int) -> str:
    """The codes an HTTP status carries, derived from the one error tree (never restated by hand)."""
    codes = sorted(cls.code for cls in svc.ALL_ERRORS if cls.http_status == status)
    return ", ".join(f"`{c}`" for c in codes) + "."


RETRY_AFTER_UNAVAILABLE = "5"  # seconds; a database outage or a restart lasts about that long


def render(error: svc.ServiceError, headers: dict[str, str] | None = None) -> JSONResponse:
    if headers is None and isinstance(error, svc.Unavailable):  # every 503 says when to come back
        headers = {"Retry-After": RETRY_AFTER_UNAVAILABLE}
    elif headers is None and isinstance(error, svc.RateLimited) and isinstance(error.details, dict):
        retry = error.details.get("retry_after")  # a limit of the service (the chat's): says when
        if isinstance(retry, int):
            headers = {"Retry-After": str(retry)}
    return JSONResponse(error.to_json(), status_code=error.http_status, headers=headers)


def _loc(loc: Sequence[object]) -> str:
    return ".".join(str(p) for p in loc)


def validation_failed(problems: Sequence[Mapping[str, JSON]]) -> svc.ValidationFailed:
    """Pydantic's errors as `validation_error` (field, message, type; never the offending input,
    which may be a token), for HTTP bodies and stream frames alike."""
    details = [
        {"field": _loc(p.get("loc", ())), "message": p.get("msg", ""), "type": p.get("type")}
        for p in problems
    ]
    first = details[0] if details else {"field": "request", "message": "invalid"}
    return svc.ValidationFailed(f"{first['field']}: {first['message']}", details)


def from_validation(exc: RequestValidationError) -> svc.ValidationFailed:
    problems = exc.errors()
    if any(p.get("type") == "json_invalid" for p in problems):
        return svc.ValidationFailed("the request body is not valid JSON", {"field": "body"})
    return validation_failed(problems)


def from_http(exc: StarletteHTTPException) -> svc.ServiceError:
    if exc.status_code == 404:
        return svc.NotFound("no such resource")
    if exc.status_code == 405:
        return svc.MethodNotAllowed()
    if exc.status_code == 413:
        return svc.PayloadTooLarge()
    if exc.status_code == 401:
        return svc.Unauthorized()
    if exc.status_code == 403:
        return svc.Forbidden()
    if 400 <= exc.status_code < 500:
        return svc.ValidationFailed("the request could not be read")
    return svc.InternalError()


def install(app: FastAPI) -> None:
    async def service_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, svc.ServiceError)
        return render(exc)

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return render(from_validation(exc))

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        error = from_http(exc)
        headers = None
        if exc.status_code == 405:
            headers = {"Allow": allowed_methods(request.app, request.scope)}
        return render(error, headers)

    app.add_exception_handler(svc.ServiceError, service_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(app: Starlette, scope: Scope) -> str:
    """Every method some route serves at this path, for the `Allow` header of a 405 (the router
    names only those of the first route whose path matched)."""
    allowed = []
    for method in _METHODS:
        probe = {**scope, "type": "http", "method": method}
        if any(route.matches(probe)[0] is Match.FULL for route in app.router.routes):
            allowed.append(method)
    return ", ".join(allowed)
