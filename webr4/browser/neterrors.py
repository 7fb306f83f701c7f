"""Requests that got no response, in Chromium's words.

While recording, webr4 fetches each response itself (Playwright's ``route.fetch``, which runs in
Playwright's Node.js process), so a request that fails fails there, with Node's words
(``getaddrinfo ENOTFOUND host``). :func:`chromium_error` names the network error Chromium reports
for the same failure (``net::ERR_NAME_NOT_RESOLVED``): that name is what the HAR keeps. To fail
the page's request, :func:`abort_reason` gives the reason ``route.abort`` takes: the page then
sees what Chromium shows it for a failed request (an ``error`` event, a rejected ``fetch``, an
XHR with status 0), whichever the failure was.
"""

from __future__ import annotations

FAILED = "net::ERR_FAILED"
ABORTED = "net::ERR_ABORTED"
"""What Chromium reports for a request the page gave up on before any answer came (an XHR's
``timeout``, ``abort()``, an aborted ``fetch``): replays leave such a request unanswered, so that
the page gives up on it again, as it did, rather than seeing an answer it never saw."""

BLOCKED = {"csp": "blocked:csp", "mixed-content": "blocked:mixed-content"}
"""The requests Chromium blocks before they reach the network, by what Playwright gives as their
failure (the page's Content Security Policy; an ``http:`` request of an ``https:`` page), named as
Chromium's developer tools show them. The page sees the block (a ``securitypolicyviolation``
event, an ``error`` event, a rejected ``fetch``); the recording keeps it as a failure, never served:
every replay's browser blocks the request again."""

_NODE_TO_CHROMIUM = (
    # (what Node's message holds, the error Chromium reports), first match wins
    ("ENOTFOUND", "net::ERR_NAME_NOT_RESOLVED"),
    ("EAI_AGAIN", "net::ERR_NAME_NOT_RESOLVED"),
    ("ECONNREFUSED", "net::ERR_CONNECTION_REFUSED"),
    ("socket hang up", "net::ERR_EMPTY_RESPONSE"),  # closed before any response: Node says ECONNRESET too
    ("ECONNRESET", "net::ERR_CONNECTION_RESET"),
    ("EPIPE", "net::ERR_CONNECTION_RESET"),
    ("ECONNABORTED", "net::ERR_CONNECTION_ABORTED"),
    ("EHOSTUNREACH", "net::ERR_ADDRESS_UNREACHABLE"),
    ("ENETUNREACH", "net::ERR_INTERNET_DISCONNECTED"),
    ("ETIMEDOUT", "net::ERR_TIMED_OUT"),
    ("Timeout ", "net::ERR_TIMED_OUT"),  # Playwright's own limit on the fetch
)

_ABORT_REASONS = {
    # Chromium's error -> route.abort's reason (the errors Chromium's DevTools protocol can fail a
    # request with); an error not listed fails as the nearest one, or as ERR_FAILED.
    "net::ERR_ABORTED": "aborted",
    "net::ERR_ACCESS_DENIED": "accessdenied",
    "net::ERR_ADDRESS_UNREACHABLE": "addressunreachable",
    "net::ERR_BLOCKED_BY_CLIENT": "blockedbyclient",
    "net::ERR_BLOCKED_BY_RESPONSE": "blockedbyresponse",
    "net::ERR_CONNECTION_ABORTED": "connectionaborted",
    "net::ERR_CONNECTION_CLOSED": "connectionclosed",
    "net::ERR_EMPTY_RESPONSE": "connectionclosed",
    "net::ERR_CONNECTION_FAILED": "connectionfailed",
    "net::ERR_CONNECTION_REFUSED": "connectionrefused",
    "net::ERR_CONNECTION_RESET": "connectionreset",
    "net::ERR_INTERNET_DISCONNECTED": "internetdisconnected",
    "net::ERR_NAME_NOT_RESOLVED": "namenotresolved",
    "net::ERR_TIMED_OUT": "timedout",
    "net::ERR_CONNECTION_TIMED_OUT": "timedout",
}


def chromium_error(message: str) -> str:
    """The ``net::ERR_…`` Chromium reports for the failure Playwright's fetch reported as
    ``message``; ``net::ERR_FAILED`` when the message names none webr4 knows."""
    for fragment, error in _NODE_TO_CHROMIUM:
        if fragment in message:
            return error
    return FAILED


def blocked_error(failure: str | None) -> str | None:
    """The error a recording keeps for a request whose failure, as Playwright gives it, is
    ``failure``, when the browser blocked it before it reached the network; else ``None``."""
    return BLOCKED.get(failure or "")


def abort_reason(error: str) -> str:
    """The reason to give ``route.abort`` so that the page's request fails with ``error``."""
    return _ABORT_REASONS.get(error, "failed")
