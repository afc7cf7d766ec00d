"""`app.games.frozen.replace` gives what `dataclasses.replace` gives, whichever way it builds;
`constructor(cls)` makes what `cls` makes."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.games.frozen import constructor, replace


@dataclass(frozen=True, slots=True)
class Slotted:  # built through its slots
    a: int
    b: tuple[int, ...] = ()
    c: str | None = None


@dataclass(frozen=True, slots=True)
class Checked:  # has a __post_init__: built through __init__
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class WithMemo:  # a field out of __init__ takes its default again
    a: int
    memo: dict[str, int] = field(default_factory=dict, init=False, compare=False)


@dataclass(frozen=True, slots=True)
class SlottedMemo:  # built through its slots, the fields out of __init__ set to their defaults
    a: int
    memo: dict[str, int] = field(default_factory=dict, init=False, compare=False)
    mark: str = field(default="m", init=False)


@dataclass(frozen=True, slots=True)
class Base:
    a: int


@dataclass(frozen=True, slots=True)
class Derived(Base):  # a slot of its base: built through __init__
    b: int = 0


@pytest.mark.parametrize(
    "obj, changes",
    [
        (Slotted(1, (2,), "x"), {"b": (3, 4)}),
        (Slotted(1), {}),
        (Slotted(1), {"a": 5, "c": "y"}),
        (Checked(1), {"a": 2}),
        (Derived(1, 2), {"a": 3}),
        (SlottedMemo(1), {"a": 2}),
    ],
)
def test_the_same_as_dataclasses_replace(obj: Any, changes: dict[str, object]) -> None:
    ours, theirs = replace(obj, **changes), dataclasses.replace(obj, **changes)
    assert ours == theirs and type(ours) is type(theirs)
    fields = dataclasses.fields(ours)
    assert all(getattr(ours, f.name) is getattr(theirs, f.name) for f in fields if f.init)
    assert all(getattr(ours, f.name) == getattr(theirs, f.name) for f in fields)


def test_slotted_states_skip_init_and_others_do_not(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    olds = [Slotted(1), Checked(1), Derived(1), SlottedMemo(1)]
    for cls in (Slotted, Checked, Derived, SlottedMemo):
        init = cls.__init__

        def counted(self: object, *args: object, _init: object = init, **kw: object) -> None:
            calls.append(type(self).__name__)
            _init(self, *args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(cls, "__init__", counted)
    for old in olds:
        replace(old, a=2)
    assert calls == ["Checked", "Derived"]
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), a=-1)  # its __post_init__ runs


def test_fields_out_of_init_take_their_defaults() -> None:
    for old in (WithMemo(1), SlottedMemo(1)):
        old.memo["k"] = 1
        assert replace(old, a=2).memo == {} and replace(old).memo == {}
        assert replace(old).memo is not replace(old).memo
    assert replace(SlottedMemo(1)).mark == "m"


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(TypeError, match="has no init field"):
        replace(Slotted(1), d=2)
    with pytest.raises(TypeError, match="has no init field"):
        replace(WithMemo(1), memo={})


@pytest.mark.parametrize(
    "cls, args",
    [(Slotted, (1, (2,), "x")), (Slotted, (1, (), None)), (SlottedMemo, (3,))],
)
def test_constructor_makes_what_the_class_makes(cls: Any, args: tuple[object, ...]) -> None:
    ours, theirs = constructor(cls)(*args), cls(*args)
    assert ours == theirs and type(ours) is cls
    assert all(getattr(ours, f.name) == getattr(theirs, f.name) for f in dataclasses.fields(cls))
    with pytest.raises(dataclasses.FrozenInstanceError):
        ours.a = 9
    if cls is SlottedMemo:  # a fresh default per object
        assert ours.memo == {} and ours.memo is not constructor(cls)(*args).memo


@pytest.mark.parametrize("cls", [Checked, Derived, WithMemo])
def test_constructor_refuses_what_it_cannot_build_through_slots(cls: Any) -> None:
    with pytest.raises(TypeError, match="not a slotted frozen dataclass"):
        constructor(cls)
