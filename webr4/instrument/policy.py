"""A page's Content Security Policy, amended to let run what webr4 serves in the page's place.

webr4 serves a document with scripts of its own (the parse-chunk markers and the inline calls
that end each chunk) and with the page's inline scripts and handler attributes rewritten. A
policy that allows the page's code by hash would refuse the rewritten code, and one that names
the scripts a page may load would refuse the markers. :func:`amend_policies` returns the
page's policies with exactly these sources added, so that the page's own actions meet the
policy they meet in Chromium:

* to the directive that governs script elements (``script-src-elem``, else ``script-src``,
  else ``default-src``): the harness's nonce, which every script webr4 inserts carries; or,
  where the directive lets inline scripts run by ``'unsafe-inline'`` (which a nonce source
  would switch off), the markers' own URL;
* wherever a directive lists the hash of a script or handler webr4 rewrote, the hash of its
  rewritten form, under the same algorithm (and nothing for code the policy did not allow);
* to the directive that governs ``fetch`` (``connect-src``, else ``default-src``): the URL by
  which the page's runtime tells the harness of a dynamic import.

A ``'none'`` directive that gains a source loses its ``'none'``. Everything else (other
directives, their order, report URLs, report-only policies) stays as the page wrote it.
"""

from __future__ import annotations

import base64
import hashlib
import html as html_entities
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bs4 import BeautifulSoup, Tag

from webr4.instrument.positions import PositionMap, Replacement, line_starts
from webr4.instrument.tags import read_start_tag

_SCRIPT_ELEMENT_DIRECTIVES = ("script-src-elem", "script-src", "default-src")
_CONNECT_DIRECTIVES = ("connect-src", "default-src")
_HASH_ALGORITHMS = {"sha256": hashlib.sha256, "sha384": hashlib.sha384, "sha512": hashlib.sha512}


@dataclass(frozen=True)
class HarnessCode:
    """What webr4 serves in a document that the page's policy must let run.

    ``nonce`` is carried by every script element webr4 inserts; ``marker_source`` is a CSP
    source matching the parse-chunk markers' URLs; ``rewritten`` maps the served code of each
    rewritten inline script and handler attribute to the page's own code; ``notice_url`` is the
    URL the runtime fetches to tell of a dynamic import."""

    nonce: str
    marker_source: str
    rewritten: Mapping[str, str]
    notice_url: str


def amend_policies(value: str, harness: HarnessCode) -> str:
    """``value``, a ``Content-Security-Policy`` header's (policies separated by commas, or by
    line breaks where several headers were joined) or a ``<meta http-equiv>``'s content, with the
    sources ``harness`` needs added to each policy."""
    hashes = _rewritten_hashes(harness.rewritten)
    return ", ".join(_amend_policy(policy, harness, hashes) for policy in re.split(r"[,\n]", value))


def _amend_policy(policy: str, harness: HarnessCode, hashes: Mapping[str, list[str]]) -> str:
    directives = [tokens for tokens in (part.split() for part in policy.split(";")) if tokens]
    in_force: dict[str, int] = {}  # a directive's name → its first occurrence, the one in force
    for index, tokens in enumerate(directives):
        in_force.setdefault(tokens[0].lower(), index)
    added = {index: [new for source in directives[index][1:] for new in hashes.get(_hash_key(source), [])]
             for index in in_force.values()}
    script = _first_of(in_force, _SCRIPT_ELEMENT_DIRECTIVES)
    if script is not None:
        inline = _inline_allowed(directives[script])
        added[script].append(harness.marker_source if inline else f"'nonce-{harness.nonce}'")
    connect = _first_of(in_force, _CONNECT_DIRECTIVES)
    if connect is not None:
        added[connect].append(harness.notice_url)
    return "; ".join(_with_sources(tokens, added.get(index, [])) for index, tokens in enumerate(directives))


def _first_of(in_force: Mapping[str, int], names: tuple[str, ...]) -> int | None:
    """Where the policy has the first of the directives ``names`` (most specific first)."""
    return next((in_force[name] for name in names if name in in_force), None)


def _inline_allowed(directive: list[str]) -> bool:
    """Whether ``'unsafe-inline'`` is in force in ``directive``: listed, and not switched off by a
    nonce, a hash or ``'strict-dynamic'``."""
    sources = [source.lower() for source in directive[1:]]
    switched_off = any(s.startswith(("'nonce-", "'sha")) or s == "'strict-dynamic'" for s in sources)
    return "'unsafe-inline'" in sources and not switched_off


def _with_sources(tokens: list[str], added: list[str]) -> str:
    """The directive ``tokens`` (its name, then its sources) with ``added`` after its sources."""
    if not added:
        return " ".join(tokens)
    kept = [source for source in tokens[1:] if source.lower() != "'none'"]
    return " ".join([tokens[0], *kept, *dict.fromkeys(added)])


def _rewritten_hashes(rewritten: Mapping[str, str]) -> dict[str, list[str]]:
    """``algorithm-digest`` of the page's own code → the hash sources of its served forms."""
    hashes: dict[str, list[str]] = {}
    for served, own in rewritten.items():
        for algorithm in _HASH_ALGORITHMS:
            served_hash = _digest(algorithm, served)
            hashes.setdefault(f"{algorithm}-{_digest(algorithm, own)}", []).append(f"'{algorithm}-{served_hash}'")
    return hashes


def _digest(algorithm: str, code: str) -> str:
    return base64.b64encode(_HASH_ALGORITHMS[algorithm](code.encode("utf-8")).digest()).decode()


def _hash_key(source: str) -> str:
    """A hash source (``'sha256-…'``, base64 or base64url, padded or not) as the key of
    :func:`_rewritten_hashes`; any other source gives a key no hash has."""
    algorithm, _, digest = source.strip("'").partition("-")
    if algorithm.lower() not in _HASH_ALGORITHMS or not digest:
        return ""
    digest = digest.replace("-", "+").replace("_", "/").rstrip("=")
    return f"{algorithm.lower()}-{digest + '=' * (-len(digest) % 4)}"


@dataclass(frozen=True)
class AmendedMeta:
    """A document whose ``<meta http-equiv=Content-Security-Policy>`` tags are amended: its
    ``html``, the map of its offsets back to the document before, and each served policy → the
    page's own (as the DOM holds them: the page's text of the tag's ``content``)."""

    html: str
    positions: PositionMap
    originals: dict[str, str]


def amend_meta_policies(document: str, harness: HarnessCode) -> AmendedMeta:
    """``document`` with every policy it delivers in a ``<meta http-equiv>`` tag of its head
    amended (:func:`amend_policies`), each inside the quotes it had."""
    edits: list[Replacement] = []
    originals: dict[str, str] = {}
    starts = line_starts(document)
    head = _head(document)
    delivers = "content-security-policy" in head.lower()  # else no tag to find: no parse
    for tag in BeautifulSoup(head, "html.parser").find_all("meta") if delivers else []:
        if not isinstance(tag, Tag) or tag.sourceline is None or tag.sourcepos is None:
            continue
        if str(tag.get("http-equiv", "")).strip().lower() != "content-security-policy":
            continue
        content = next((a for a in read_start_tag(document, starts[tag.sourceline - 1] + tag.sourcepos).attributes
                        if a.name == "content"), None)
        if content is None:
            continue
        own = html_entities.unescape(document[content.value_start : content.value_end])
        served = amend_policies(own, harness)
        originals[served] = own
        edits.append(Replacement(content.value_start, content.value_end, _attribute_value(served, content.quote)))
    pieces: list[str] = []
    previous = 0
    for start, end, text, _ in edits:  # in document order, as the tags were found
        pieces += [document[previous:start], text]
        previous = end
    pieces.append(document[previous:])
    return AmendedMeta("".join(pieces), PositionMap.from_replacements(document, edits), originals)


def _head(document: str) -> str:
    """The start of ``document`` up to where its body starts: Chromium takes a policy from a
    ``<meta>`` tag in the head only."""
    body = re.search(r"</head\s*>|<body[\s>]", document, re.IGNORECASE)
    return document[: body.start()] if body is not None else document


def _attribute_value(text: str, quote: str) -> str:
    """``text`` written as an attribute's value inside ``quote``; a value that had no quotes gets
    double quotes."""
    delimiter = quote or '"'
    escaped = text.replace("&", "&amp;").replace(delimiter, "&quot;" if delimiter == '"' else "&#39;")
    return escaped if quote else f'"{escaped}"'
