"""A recorded session: the seed execution of a site that every later replay starts from.

A session directory (:class:`webr4.rundir.session.SessionDir`) holds ``session.json`` (the manifest:
URL, user actions, seed, limits, the webr4 version), ``network.har`` (every response the page
received) and ``seed/`` (the seed's trace, without the page's accesses, its end state and
screenshot). It is written to a temporary directory and renamed into place only when complete,
so a failed recording leaves nothing a later ``explore`` could mistake for a session.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webr4.version import __version__
from webr4.browser.actions import UserAction, parse_actions
from webr4.browser.limits import Limits
from webr4.browser.driver import Driver
from webr4.browser.responses import ResponseStore
from webr4.vocabulary import failure
from webr4.execution import AccessLog, Execution
from webr4.rundir.execution_files import read_trace
from webr4.record.steps import StepSource, user_steps
from webr4.rundir.session import SessionDir
from webr4.state.categories import compared_state
from webr4.state.snapshot import StateSnapshot
from webr4.trace import Category, Trace
from webr4.errors import Webr4Error
from webr4.keydocs import UNWRITTEN, KeyTable, doc
from webr4.places import short_name, short_words
from webr4.vocabulary import Truncation


class SessionError(Webr4Error):
    """A session cannot be recorded or read (one line naming the problem and what to do)."""


@dataclass(frozen=True)
class Session:
    """A recorded session, as its manifest ``session.json`` keeps it (:data:`SESSION_KEYS`), and
    the directory it was read from."""

    url: str = field(metadata=doc("the page recorded"))
    actions: list[dict[str, Any]] = field(metadata=doc(
        "the user's steps, each an object as `--actions` takes them, a script's or `--auto`'s too"))
    seed: int = field(default=0, metadata=doc("the seed of the page's random numbers (`--seed`)"))
    limits: dict[str, Any] = field(default_factory=dict, metadata=doc(
        "the bounds of every execution, the parse-chunk model and the service workers' policy (below)"))
    version: str = field(default=__version__, metadata=doc(
        "the webr4 that recorded it: a webr4 of another minor version refuses to replay it"))
    directory: Path = field(default=Path("."), metadata=UNWRITTEN)

    def to_json(self) -> dict[str, Any]:
        """The manifest, ``session.json``."""
        return SESSION_KEYS.to_json(self)

    @property
    def user_actions(self) -> list[UserAction]:
        return parse_actions(self.actions)

    @property
    def run_limits(self) -> Limits:
        return Limits(**self.limits)

    @property
    def files(self) -> SessionDir:
        return SessionDir(self.directory)

    def network(self) -> ResponseStore:
        return ResponseStore.load_har(self.files.network)

    def seed_trace(self) -> Trace:
        return read_trace(self.files.seed.trace)

    @classmethod
    def load(cls, directory: Path) -> Session:
        manifest = SessionDir(directory).manifest
        if not manifest.is_file():
            raise SessionError(f"{directory} is not a webr4 session (no {manifest.name}); "
                               "record one with 'webr4 record'")
        try:
            raw = json.loads(manifest.read_text())
            session = cls(raw["url"], raw["actions"], raw.get("seed", 0), raw.get("limits", {}),
                          raw.get("version", "?"), directory)
            parse_actions(session.actions)  # validates the steps
            Limits(**session.limits)
        except (ValueError, KeyError, TypeError) as error:
            raise SessionError(f"{manifest} is damaged ({error}); record the session again") from None
        if not compatible(session.version):
            raise SessionError(f"{directory} was recorded by webr4 {session.version}; this is webr4 {__version__}, "
                               "which replays sessions of its own minor version only: record it again")
        missing = session.files.missing()
        if missing:
            raise SessionError(f"{directory} is incomplete ({missing[0]} is missing); record the session again")
        return session


def compatible(version: str) -> bool:
    """Sessions replay across patch releases, not across minor or major ones (event identities
    and the trace format may change between those)."""
    return version.split(".")[:2] == __version__.split(".")[:2]


def _check_actions_ran(trace: Trace, actions: list[UserAction]) -> None:
    ran = {trace.events[e].params.get("index") for e in trace.sequence
           if e in trace.events and trace.events[e].category is Category.USER}
    for action in actions:
        if action.index in ran:
            continue
        if trace.navigation is not None:
            raise SessionError(
                f"{action.step_text} never happened: the page had navigated away to "
                f"{short_name(trace.navigation.target)}; webr4 explores one page, so end the steps there")
        if trace.truncated in (Truncation.EVENT_TIMEOUT, Truncation.ENDLESS_LOOP):
            stuck = short_words(trace.events[trace.sequence[-1]].label) if trace.sequence else "the page's loading"
            raise SessionError(f"{action.step_text} never happened: the page was stuck in {stuck}, "
                               "which never finished")
        why = [e.message for e in trace.errors if e.kind == "harness" and e.message.startswith(action.step_text)]
        raise SessionError(why[0] if why else f"{action.step_text} never happened: the page stopped first")
    failures = [e.message for e in trace.errors if e.kind == "harness" and " failed: " in e.message]
    if failures:
        what = "action" if any(failures[0].startswith(f"{a.kind} on ") for a in actions) else "request"
        raise SessionError(f"{failures[0]}; check the {what}")


async def record(driver: Driver, url: str, out: Path, actions: StepSource, *, seed: int = 0,
                 limits: Limits = Limits()) -> Session:
    """Record ``url`` with the user ``actions`` (steps, or where to take them from: see
    :mod:`webr4.record.steps`) into the new directory ``out``.

    The recording fixes what every replay needs, the order of events and the responses. It runs
    the same rewritten scripts as a replay, so that each event has the same identity, but with
    the access log off: no exploration reads the recording's accesses (the sweep's seed replays
    log them), and logging them would make the recording cost about twice as much. Its end
    state, kept as the seed's (``seed/state.json``), holds every category a sweep compares.
    """
    if out.exists():
        raise SessionError(f"{out} already exists; choose another --out or remove it")
    given = await asyncio.to_thread(user_steps, url, actions)  # a script drives a synchronous page
    steps = parse_actions(given)
    if len(steps) >= limits.max_events:
        raise SessionError(f"the steps make {len(steps)} user events, and a run stops at --max-events "
                           f"{limits.max_events}; raise --max-events above {len(steps)}")
    store = ResponseStore()
    execution: Execution = await driver.execute(url, actions=steps, store=store, live_network=True, limits=limits,
                                                seed=seed, capture=compared_state(AccessLog.OFF))
    if execution.trace.truncated == Truncation.CAPTURE_FAILED:  # no end state to keep as the seed's
        raise SessionError(f"{failure(execution.trace)}; record the session again")
    _check_actions_ran(execution.trace, steps)
    session = Session(url, given, seed, limits.to_json(), __version__, out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    files = SessionDir(partial)
    try:
        store.save_har(files.network)
        files.seed.write(execution.trace, StateSnapshot.from_execution(execution, execution.heap))
        files.manifest.write_text(json.dumps(session.to_json(), indent=1))
        partial.rename(out)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return session


SESSION_KEYS = KeyTable.of(Session)
"""The keys of ``session.json``."""
