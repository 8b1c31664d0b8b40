"""The per-address limit on new tables: a sliding one-minute window, each address on its own,
bounded memory."""

from __future__ import annotations

import pytest

from spielwerk.web import limits
from spielwerk.web.limits import CreationLimit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_window_slides() -> None:
    clock = Clock()
    limit = CreationLimit(2, clock)
    assert limit.wait_seconds("a") == 0
    clock.now += 20
    assert limit.wait_seconds("a") == 0
    clock.now += 10
    assert limit.wait_seconds("a") == pytest.approx(30)  # the first creation leaves in 30 s
    assert limit.wait_seconds("b") == 0  # another address has its own window
    clock.now += 30
    assert limit.wait_seconds("a") == 0
    assert limit.wait_seconds("a") == pytest.approx(20)


def test_refusals_do_not_count() -> None:
    clock = Clock()
    limit = CreationLimit(1, clock)
    assert limit.wait_seconds("a") == 0
    for _ in range(10):
        clock.now += 5
        assert limit.wait_seconds("a") > 0
    clock.now += 10
    assert limit.wait_seconds("a") == 0


def test_zero_means_no_limit_and_negative_is_refused() -> None:
    limit = CreationLimit(0, Clock())
    assert all(limit.wait_seconds("a") == 0 for _ in range(1000))
    with pytest.raises(ValueError, match="must not be negative"):
        CreationLimit(-1)


def test_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_ADDRESSES", 10)
    clock = Clock()
    limit = CreationLimit(1, clock)
    for index in range(10):
        limit.wait_seconds(f"old{index}")
    clock.now += 61  # all of them idle now
    limit.wait_seconds("new")
    assert len(limit._times) == 1
    for index in range(30):  # all busy: the longest idle half goes
        clock.now += 1
        limit.wait_seconds(f"busy{index}")
        assert len(limit._times) <= 10
