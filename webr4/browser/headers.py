"""Which of a recorded response's headers webr4 serves, and with which body.

webr4 stores bodies decoded and serves them whole, and serves its own code in place of the page's
scripts and documents: headers that describe the stored bytes' framing, or govern code the page
did not write, cannot be served as they are everywhere.
"""

from __future__ import annotations

_HEADERS_READ = frozenset({"xhr", "fetch"})
"""Resource types whose responses page code reads the headers of, and from which no code runs:
served with every header as recorded."""
_BODY_FRAMING = frozenset({"content-length", "content-encoding", "transfer-encoding"})
"""How the server framed and encoded the body, which webr4 stores decoded and serves whole.
Chromium takes a fulfilled body as it is, whatever these say: where the page reads them they stay
as the server sent them (the runtime derives a request's progress lengths from them, as Chromium
does); elsewhere Playwright states the served body's length."""
_POLICIES = frozenset({"content-security-policy", "content-security-policy-report-only"})
"""What a document or a worker may run: they would govern the code webr4 serves in its place, so
a document's are served amended (:meth:`~webr4.instrument.page.PreparedDocument.policy`) and a worker's not at all."""


def is_policy(name: str) -> bool:
    """Whether the header ``name`` delivers a content security policy (enforced or report-only)."""
    return name.lower() in _POLICIES


def served_headers(headers: dict[str, str], resource_type: str) -> dict[str, str]:
    """The recorded ``headers`` to serve, with the decoded body, to a request of ``resource_type``
    (Playwright's name: ``document``, ``script``, ``xhr``, …): all of them where the page reads
    them; elsewhere, all but the body's framing and the policies."""
    if resource_type in _HEADERS_READ:
        return dict(headers)
    return {k: v for k, v in headers.items() if k.lower() not in _BODY_FRAMING | _POLICIES}
