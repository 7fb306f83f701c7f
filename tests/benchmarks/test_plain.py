"""A plain session whose step fails is tried again in a fresh context, a bounded number of times."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.plain import PLAIN_TRIES, PlainStepError, in_fresh_context


class _Context:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    async def new_page(self) -> str:
        self.log.append("page")
        return f"page {self.log.count('page')}"

    async def close(self) -> None:
        self.log.append("closed")


class _Browser:
    def __init__(self) -> None:
        self.log: list[str] = []

    async def new_context(self, **options: object) -> _Context:
        return _Context(self.log)


def _failing(times: int):
    failures = iter(range(times))

    async def work(page: str) -> str:
        if next(failures, None) is not None:
            raise PlainStepError("step 2 (click on #marker): Timeout")
        return page

    return work


def test_a_failed_step_is_tried_again_in_a_fresh_context() -> None:
    browser = _Browser()
    result, seconds = asyncio.run(in_fresh_context(browser, _failing(PLAIN_TRIES - 1)))  # type: ignore[arg-type]
    assert result == f"page {PLAIN_TRIES}" and seconds >= 0
    assert browser.log == ["page", "closed"] * PLAIN_TRIES  # every context is closed, the failed ones too


def test_a_step_failing_every_try_fails_the_session() -> None:
    browser = _Browser()
    with pytest.raises(PlainStepError, match="click on #marker"):
        asyncio.run(in_fresh_context(browser, _failing(PLAIN_TRIES)))  # type: ignore[arg-type]
    assert browser.log.count("closed") == PLAIN_TRIES
