"""What a campaign runs: its entries, read from its source before anything runs.

A source is either

* a **directory**: each subdirectory holding a recorded session (``session.json``, as ``webr4
  record`` writes it) or a ``webr4 check`` run (its ``session/``) is an entry to explore, and each
  ``*.json`` file an entry to record and explore, holding its page and its steps as
  ``{"url": "http://…", "actions": [...]}`` (``actions`` as ``--actions`` takes them; none: the
  page load alone). Other files, and names starting with a dot, are left alone;
* a **campaign file**: a text file of lines ``URL [ACTIONS_FILE]`` (the actions file as
  ``--actions`` takes it, relative to the campaign file). Blank lines are skipped, and so is
  everything from a ``#`` that starts a line or follows a space (a ``#`` inside a URL is its
  fragment).

Each entry is named after its file or directory, or for a line without an actions file after
its URL's path (``/shop/cart/`` → ``shop-cart``; the host for the root), with the characters a
directory name should not hold replaced by ``-``. A name taken already gets ``-2``, ``-3``, …, so
the names are the same every time the same source is read: ``--resume`` finds each entry's run.
Everything wrong is a :class:`SourceError` naming the line or the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from webr4.browser.actions import ActionError, parse_actions
from webr4.errors import Webr4Error
from webr4.record.session import Session, SessionError
from webr4.record.steps import web_url_problem
from webr4.rundir.run import RunDir
from webr4.rundir.session import SessionDir

_COMMENT = re.compile(r"(^|\s)#.*$")
_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9._-]+")
_DIRECTORY_KEYS = {"url", "actions"}


class SourceError(Webr4Error):
    """A campaign's source, or one of its entries, cannot be read (one line naming where)."""


@dataclass(frozen=True)
class Flow:
    """A page to record with the user ``steps``, then explore (what ``webr4 check`` does)."""

    url: str
    steps: list[Any]


@dataclass(frozen=True)
class Recorded:
    """A session recorded already, to explore (what ``webr4 explore`` does)."""

    session: Session


@dataclass(frozen=True)
class Entry:
    """One entry of a campaign: its ``name``, its ``source`` as written (the campaign file's
    line, or the file or directory name in the source directory) and what to run."""

    name: str
    source: str
    work: Flow | Recorded


def read_source(path: Path) -> list[Entry]:
    """The entries of the campaign source at ``path`` (see the module's description), in order."""
    if path.is_dir():
        found = list(_from_directory(path))
    elif path.is_file():
        found = list(_from_file(path))
    else:
        raise SourceError(f"{path} is neither a directory of sessions and actions files nor a campaign file")
    if not found:
        raise SourceError(f"{path} lists no entries: give sessions, actions files with their URL, or lines "
                          "'URL [ACTIONS_FILE]'")
    taken: set[str] = set()
    entries = []
    for base, source, work in found:
        name, number = base, 2
        while name in taken:
            name, number = f"{base}-{number}", number + 1
        taken.add(name)
        entries.append(Entry(name, source, work))
    return entries


def _from_file(path: Path) -> Iterator[tuple[str, str, Flow]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SourceError(f"cannot read the campaign file {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise SourceError(f"{path} is not a text file of lines 'URL [ACTIONS_FILE]'") from None
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.sub("", raw).strip()
        if not line:
            continue
        where = f"{path}, line {number}"
        words = line.split()
        if len(words) > 2:
            raise SourceError(f"{where}: expected 'URL [ACTIONS_FILE]', got {len(words)} words: {line}")
        problem = web_url_problem(words[0])
        if problem:
            raise SourceError(f"{where}: {problem}")
        if len(words) == 1:
            yield _name(_url_name(words[0])), line, Flow(words[0], [])
            continue
        actions = path.parent / words[1]
        raw_steps = _read_json(actions, f"{where}: ")
        yield _name(actions.stem), line, Flow(words[0], _steps(raw_steps, f"{where}: {actions}"))


def _from_directory(path: Path) -> Iterator[tuple[str, str, Flow | Recorded]]:
    for child in sorted(path.iterdir()):
        if child.name.startswith("."):
            continue
        if child.is_dir():
            yield _name(child.name), f"{child.name}/", Recorded(_session(child))
        elif child.suffix == ".json":
            yield _name(child.stem), child.name, _flow(child)


def _session(directory: Path) -> Session:
    """The session recorded in ``directory``, or in the ``webr4 check`` run there."""
    own = RunDir(directory).own_session
    recorded = directory if SessionDir(directory).recorded else own.directory if own.recorded else None
    if recorded is None:
        raise SourceError(f"{directory} is neither a recorded session (no session.json) nor a check run "
                          "(no session/); move it out of the campaign's directory")
    try:
        return Session.load(recorded)
    except SessionError as error:
        raise SourceError(f"{directory}: {error}") from None


def _flow(path: Path) -> Flow:
    """The page and steps of a campaign directory's actions file."""
    raw = _read_json(path)
    if not isinstance(raw, dict) or "url" not in raw or set(raw) - _DIRECTORY_KEYS:
        raise SourceError(f'{path}: an actions file in a campaign directory holds {{"url": "http://…", '
                          '"actions": [...]}; list a plain list of steps in a campaign file as: URL ACTIONS_FILE')
    url = str(raw["url"])
    problem = web_url_problem(url)
    if problem:
        raise SourceError(f"{path}: {problem}")
    return Flow(url, _steps(raw.get("actions", []), str(path)))


def _read_json(path: Path, where: str = "") -> Any:
    """The JSON of the actions file ``path``; ``where`` begins the line that says why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise SourceError(f"{where}cannot read the actions file {path}: {error.strerror}") from None
    except ValueError as error:
        raise SourceError(f"{where}the actions file {path} is not valid JSON ({error})") from None


def _steps(raw: Any, where: str) -> list[Any]:
    """``raw`` as a session's steps, checked; :class:`SourceError` names the first bad one."""
    try:
        parse_actions(raw)
    except ActionError as error:
        raise SourceError(f"{where}: {error}") from None
    return list(raw)


def _url_name(url: str) -> str:
    parts = urlsplit(url)
    return "-".join(part for part in parts.path.split("/") if part) or parts.hostname or "page"


def _name(text: str) -> str:
    return _NOT_IN_NAME.sub("-", text).strip("-.") or "entry"
