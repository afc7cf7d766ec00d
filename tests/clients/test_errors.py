"""The client's error tree mirrors the server's: one class per code, with the same status."""

from __future__ import annotations

import pytest
from drago_client import errors

from app.service.errors import ALL_ERRORS
from app.service.errors import Conflict as ServerConflict


def test_every_server_code_has_its_class_with_the_same_status() -> None:
    server = {cls.code: cls.http_status for cls in ALL_ERRORS}
    client = {code: cls.status for code, cls in errors.BY_CODE.items()}
    assert client == server


def test_conflicts_are_conflicts_on_both_sides() -> None:
    for cls in ALL_ERRORS:
        assert issubclass(errors.BY_CODE[cls.code], errors.Conflict) == issubclass(cls, ServerConflict)


def test_an_envelope_becomes_its_class_with_message_and_details() -> None:
    body = {"error": {"code": "not_your_turn", "message": "it is not your turn", "details": {"to_act": [1]}}}
    error = errors.api_error(body, 409)
    assert type(error) is errors.NotYourTurn
    assert (error.code, error.status, error.message, error.details) == (
        "not_your_turn", 409, "it is not your turn", {"to_act": [1]},
    )  # fmt: skip
    assert isinstance(error, errors.Conflict) and isinstance(error, errors.DragoError)


@pytest.mark.parametrize(
    ("status", "expected"),
    [(409, errors.Conflict), (418, errors.ApiError), (502, errors.ApiError)],
)
def test_an_unknown_code_falls_back_on_its_status(status: int, expected: type[errors.ApiError]) -> None:
    error = errors.api_error({"error": {"code": "brand_new", "message": "m"}}, status)
    assert type(error) is expected and error.code == "brand_new" and error.status == status


def test_an_answer_without_envelope_keeps_its_status() -> None:
    error = errors.api_error("<html>Bad gateway</html>", 502)
    assert error.status == 502 and error.code == "http_502" and error.details == "<html>Bad gateway</html>"


def test_rate_limited_carries_retry_after() -> None:
    error = errors.api_error({"error": {"code": "rate_limited", "message": "slow down"}}, 429, 2.5)
    assert isinstance(error, errors.RateLimited) and error.retry_after == 2.5
