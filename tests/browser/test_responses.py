"""The HAR keeps a failed request as Chromium's developer tools do, and reads theirs back."""

from __future__ import annotations

import json
from pathlib import Path

from webr4.browser.responses import ResponseStore, StoredResponse


def test_failures_survive_the_har_and_are_listed_in_recorded_order(tmp_path: Path):
    store = ResponseStore()
    store.add("GET", "http://cdn.invalid/a.png", None, StoredResponse(0, {}, b"", "net::ERR_NAME_NOT_RESOLVED"))
    store.add("GET", "http://127.0.0.1:1/ok", None, StoredResponse(200, {}, b"fine"))
    store.add("POST", "http://127.0.0.1:1/api", b"{}", StoredResponse(503, {}, b"busy"))
    store.save_har(tmp_path / "network.har")
    loaded = ResponseStore.load_har(tmp_path / "network.har")
    assert loaded.failures() == ["GET http://cdn.invalid/a.png: net::ERR_NAME_NOT_RESOLVED",
                                 "POST http://127.0.0.1:1/api: HTTP 503"]
    assert loaded.lookup("GET", "http://cdn.invalid/a.png", None) == StoredResponse(
        0, {}, b"", "net::ERR_NAME_NOT_RESOLVED")


def test_a_har_entry_with_no_response_and_no_error_named_fails_as_err_failed(tmp_path: Path):
    entry = {"request": {"method": "GET", "url": "http://x.invalid/"}, "response": {"status": 0, "headers": []}}
    (tmp_path / "other.har").write_text(json.dumps({"log": {"entries": [entry]}}))
    assert ResponseStore.load_har(tmp_path / "other.har").failures() == ["GET http://x.invalid/: net::ERR_FAILED"]


def test_a_blocked_request_is_listed_but_never_served_in_place_of_an_answered_one(tmp_path: Path):
    store = ResponseStore()
    store.add("GET", "http://cdn.example/a.png", None, StoredResponse(0, {}, b"", "blocked:csp"))
    store.add("GET", "http://cdn.example/a.png", None, StoredResponse(200, {"content-type": "image/png"}, b"png"))
    store.save_har(tmp_path / "network.har")
    loaded = ResponseStore.load_har(tmp_path / "network.har")
    assert loaded.failures() == ["GET http://cdn.example/a.png: blocked:csp"]
    answered = loaded.lookup("GET", "http://cdn.example/a.png", None)
    assert answered is not None and answered.body == b"png"
