"""A plain run in a stock context: what it leaves, and a page that hangs there too."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from webr4.browser.launch import launch
from webr4.witness import plain_run
from webr4.witness.schedule import PlainSchedule

pytestmark = pytest.mark.browser

URL = "http://plain.test/"


def _har(path: Path, html: str) -> Path:
    """A HAR holding one HTML document at :data:`URL`."""
    body = base64.b64encode(html.encode()).decode()
    entry = {"startedDateTime": "1970-01-01T00:00:00.000Z", "time": 0, "cache": {}, "timings": {},
             "request": {"method": "GET", "url": URL, "httpVersion": "HTTP/1.1", "headers": [], "queryString": [],
                         "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                          "headers": [{"name": "content-type", "value": "text/html"}], "redirectURL": "",
                          "headersSize": -1, "bodySize": len(html),
                          "content": {"size": len(html), "mimeType": "text/html", "text": body, "encoding": "base64"}}}
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": [entry]}}))
    return path


def _run(har: Path) -> plain_run.PlainRun:
    async def go() -> plain_run.PlainRun:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            try:
                return await plain_run.run_plain(browser, PlainSchedule(URL, (), "as it comes"), har)
            finally:
                await browser.close()

    return asyncio.run(go())


def test_a_plain_page_runs_without_anything_of_webr4_and_its_errors_are_read(tmp_path):
    page = ('<p id="seen"></p><script>document.getElementById("seen").textContent = typeof window.__webr4;'
            'console.error("oops"); null.x;</script>')
    ended = _run(_har(tmp_path / "page.har", page))
    assert ended.forced and ended.problem is None
    assert "undefined" in ended.state.dom  # no init script of webr4's in the page
    assert ended.state.console == ["oops"]
    assert [message for message, _site in ended.state.exceptions] == [
        "Uncaught TypeError: Cannot read properties of null (reading 'x')"]


def test_a_page_that_hangs_in_plain_chromium_is_given_up(tmp_path, monkeypatch):
    monkeypatch.setattr(plain_run, "RUN_TIMEOUT_S", 3.0)
    with pytest.raises(asyncio.TimeoutError):
        _run(_har(tmp_path / "page.har", "<script>while (true) {}</script>"))
