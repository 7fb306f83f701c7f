"""Recorded network responses, kept as a HAR 1.2 file.

While recording, every response the page receives is stored; afterwards every execution is
served from the store, so all executions see the same bytes whatever the live site does.
HAR is the format browsers' developer tools read and write, so a session's network can be
opened and inspected with them.

A request that got no response (an unresolvable host, a refused or reset connection, a timeout)
is kept too, as Chromium's developer tools keep one: status 0 and the network error Chromium
would report in the response's ``_error`` (``net::ERR_NAME_NOT_RESOLVED``); replays fail it the
same way. :meth:`ResponseStore.failures` lists those and the HTTP errors.

Requests are matched on method, URL and request body. Query strings that carry cache busters
(the same keys with other values) fall back to a match on method, path and query *keys*; several
responses to one key are served in recorded order, the last repeating.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from webr4.browser.neterrors import BLOCKED, FAILED
from webr4.errors import Webr4Error


class HarError(Webr4Error, ValueError):
    """A file given as a HAR that cannot be read as one."""


@dataclass(frozen=True)
class StoredResponse:
    """A recorded answer: a response, or, when ``error`` is set, the network error (Chromium's
    name, ``net::ERR_…``) the request failed with instead (``status`` is then 0)."""

    status: int
    headers: dict[str, str]
    body: bytes
    error: str | None = None

    @property
    def failure(self) -> str | None:
        """Why the request failed as the page saw it (``net::ERR_…`` or ``HTTP 404``), or None."""
        return self.error or (f"HTTP {self.status}" if self.status >= 400 else None)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    @property
    def text(self) -> str:
        """The body decoded in the charset its content type names, UTF-8 when it names none or
        one Python does not know."""
        charset = "utf-8"
        for part in self.content_type.split(";"):
            name, _, value = part.strip().partition("=")
            if name.lower() == "charset" and value:
                charset = value.strip('"')
        try:
            return self.body.decode(charset, errors="replace")
        except LookupError:  # an unknown charset name
            return self.body.decode("utf-8", errors="replace")


def _fuzzy_key(method: str, url: str) -> str:
    parts = urlsplit(url)
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return f"{method} {parts.scheme}://{parts.netloc}{parts.path}?{'&'.join(keys)}"


def _exact_key(method: str, url: str, body: bytes | None) -> str:
    return f"{method} {url.split('#')[0]} {hashlib.sha1(body or b'').hexdigest()}"


class ResponseStore:
    """Responses by request, with HAR load and save."""

    def __init__(self) -> None:
        self._entries: list[tuple[str, str, bytes | None, StoredResponse]] = []
        self._exact: dict[str, list[StoredResponse]] = defaultdict(list)
        self._fuzzy: dict[str, list[StoredResponse]] = defaultdict(list)
        self._served: dict[str, int] = defaultdict(int)

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, method: str, url: str, body: bytes | None, response: StoredResponse) -> None:
        """Keep ``response`` to ``method url``; a request the browser blocked before it reached the
        network (:data:`~webr4.browser.neterrors.BLOCKED`) is kept, but never looked up: it is
        never asked for, and serving it would take the turn of a request that was answered."""
        self._entries.append((method, url, body, response))
        if response.error in BLOCKED.values():
            return
        self._exact[_exact_key(method, url, body)].append(response)
        self._fuzzy[_fuzzy_key(method, url)].append(response)

    def rewind(self) -> None:
        """Start serving repeated requests from their first recorded response again."""
        self._served.clear()

    def lookup(self, method: str, url: str, body: bytes | None) -> StoredResponse | None:
        for key, table in ((_exact_key(method, url, body), self._exact), (_fuzzy_key(method, url), self._fuzzy)):
            candidates = table.get(key)
            if candidates:
                index = min(self._served[key], len(candidates) - 1)
                self._served[key] += 1
                return candidates[index]
        return None

    def failures(self) -> list[str]:
        """The recorded requests that failed, in recorded order, as ``"GET url: net::ERR_…"`` or
        ``"GET url: HTTP 500"``."""
        return [f"{method} {url}: {response.failure}" for method, url, _, response in self._entries
                if response.failure is not None]

    def save_har(self, path: Path) -> None:
        entries = []
        for method, url, body, response in self._entries:
            request: dict = {"method": method, "url": url, "httpVersion": "HTTP/1.1", "headers": [],
                             "queryString": [], "cookies": [], "headersSize": -1, "bodySize": len(body or b"")}
            if body:
                request["postData"] = {"mimeType": "application/octet-stream",
                                       "text": base64.b64encode(body).decode(), "_encoding": "base64"}
            answer: dict = {
                "status": response.status, "statusText": "", "httpVersion": "HTTP/1.1",
                "headers": [{"name": k, "value": v} for k, v in response.headers.items()],
                "cookies": [], "redirectURL": "", "headersSize": -1, "bodySize": len(response.body),
                "content": {"size": len(response.body), "mimeType": response.headers.get("content-type", ""),
                            "text": base64.b64encode(response.body).decode(), "encoding": "base64"},
            }
            if response.error is not None:
                answer["_error"] = response.error
            entries.append({
                "startedDateTime": "1970-01-01T00:00:00.000Z",
                "time": 0,
                "request": request,
                "response": answer,
                "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0},
            })
        har = {"log": {"version": "1.2", "creator": {"name": "webr4", "version": "1"}, "entries": entries}}
        path.write_text(json.dumps(har))

    @classmethod
    def load_har(cls, path: Path) -> ResponseStore:
        """Load a HAR file; raises :class:`HarError` naming the problem when it is not one. A failed
        request's error is read from ``_error`` (Chromium's developer tools) or ``_failureText``
        (Playwright's HAR recorder)."""
        try:
            log = json.loads(path.read_text())["log"]
            store = cls()
            for entry in log["entries"]:
                request, response = entry["request"], entry["response"]
                post = request.get("postData")
                body = None
                if post:
                    text = post.get("text", "")
                    body = base64.b64decode(text) if post.get("_encoding") == "base64" else text.encode()
                content = response.get("content", {})
                text = content.get("text", "")
                payload = base64.b64decode(text) if content.get("encoding") == "base64" else text.encode()
                headers = {h["name"].lower(): h["value"] for h in response.get("headers", [])}
                status = int(response["status"])
                error = response.get("_error") or response.get("_failureText") or (FAILED if status == 0 else None)
                store.add(request["method"], request["url"], body,
                          StoredResponse(status, headers, payload, str(error) if error is not None else None))
            return store
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise HarError(f"{path} is not a readable HAR file ({error})") from None
