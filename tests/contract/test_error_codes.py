"""One source for refusal codes: the enumeration, the error tree and the docs' error table agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.games.codes import ErrorCode
from app.matches.decide import Refused
from app.service import errors

ROOT = Path(__file__).resolve().parents[2]


def _docs_table() -> dict[str, int]:
    """`code → status` from the `## Errors` table of docs/api.md (a row may name several codes)."""
    text = (ROOT / "docs/api.md").read_text(encoding="utf-8")
    section = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    table: dict[str, int] = {}
    for status, codes in re.findall(r"^\| (\d{3}) \| ([^|]+) \|", section, flags=re.M):
        for code in re.findall(r"`([a-z_]+)`", codes):
            assert code not in table, f"docs/api.md lists `{code}` twice"
            table[code] = int(status)
    return table


def test_the_error_tree_has_exactly_one_class_per_code() -> None:
    codes = [cls.code for cls in errors.ALL_ERRORS]
    assert sorted(codes) == sorted(ErrorCode), (
        "each ErrorCode needs exactly one leaf in app/service/errors.py"
    )
    assert all(isinstance(c, ErrorCode) for c in codes)


def test_the_docs_table_lists_exactly_the_enumeration_with_each_status() -> None:
    documented = _docs_table()
    assert set(documented) == {str(c) for c in ErrorCode}, "docs/api.md's error table and ErrorCode differ"
    assert documented == {str(cls.code): cls.http_status for cls in errors.ALL_ERRORS}


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_refusal_code_maps_to_its_own_class(code: ErrorCode) -> None:
    refused = Refused(code, "no")
    error = errors.from_code(refused.code, refused.message)
    assert type(error).code == code and error.to_json()["error"] == {
        "code": code,
        "message": "no",
        "details": None,
    }


def test_an_unknown_code_is_an_error_not_illegal_action() -> None:
    with pytest.raises(KeyError):
        errors.from_code("no_such_code", "no")  # type: ignore[arg-type]
