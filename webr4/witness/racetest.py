"""A race as the steps of a test a Playwright user would write (:class:`RaceTest`).

The reversed order's plain schedule (:mod:`webr4.witness.schedule`) says which responses are held
until which sign, which user steps act early, and how the clock runs; the plain run of it says in
which order the signs came. :func:`race_test` lays those out as one line of steps, in the order
they happened there: each step waits only for the signs it needs (the page's ``load``, a response
arrived, a step done), so the test reads top to bottom as the race. The writers
(:mod:`webr4.witness.writers`) turn it into Python or TypeScript.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Sequence
from urllib.parse import urlsplit

from webr4.errors import Webr4Error
from webr4.witness.levers import Hold as ScheduledHold
from webr4.witness.asserted_outcome import Check, most_visible
from webr4.witness.plain import CLOCK, DOM_READY, KEY_DOWN, LOAD, RESPONSE, STEP, request_key, sign_key
from webr4.witness.schedule import PlainSchedule


@dataclass(frozen=True)
class Held:
    """A response the test holds back: ``name`` (an identifier), ``path`` (the URL path its
    request matches, any query), ``until`` (the sign that lets it go, in words)."""

    name: str
    path: str
    until: str
    before: str = ""  # what comes first, as a noun ("the click on #add")

    @property
    def file(self) -> str:
        return self.path.rstrip("/").rsplit("/", 1)[-1] or self.path


@dataclass(frozen=True)
class Call:
    """A user step: the Playwright ``Locator`` method, its selector and its arguments."""

    method: str
    selector: str
    args: tuple[str, ...] = ()

    def words(self) -> str:
        shown = f" {self.args[0]!r}" if self.args else ""
        return f"{self.method.replace('_', ' ')}{shown} on {self.selector}"


@dataclass(frozen=True)
class Step:
    """One line of the test: ``kind`` is ``act`` (``call``; ``early``: the held responses, by
    name, it acts before, letting them go if the app will not let it act first), ``key-down`` and
    ``key-up`` (``call``'s key held), ``wait-load`` (``state``), ``arrived`` (``path``: a
    response has come), ``release`` (``name``) or ``run-clock`` (the page's paused clock run to
    ``ms`` after the page's start, then on a little at a time, never past ``at_most``, until the
    element ``shows`` selects is visible: the app's own timers may render it); ``why`` says what
    it is for."""

    kind: str
    call: Call | None = None
    early: tuple[str, ...] = ()
    state: str = ""
    path: str = ""
    name: str = ""
    ms: float = 0.0
    shows: str = ""
    at_most: float | None = None
    why: str = ""


@dataclass(frozen=True)
class RaceTest:
    """A generated test: ``name`` (an identifier), ``title`` (the racing order in words),
    the page at ``origin`` + ``path``, the responses
    ``held``, whether the page's ``clock`` is paused, the ``steps`` in order and the ``checks``
    of the end."""

    name: str
    title: str
    origin: str
    path: str
    held: list[Held]
    clock: bool
    steps: list[Step]
    checks: list[Check] = field(default_factory=list)


    @property
    def heading(self) -> str:
        """The title as a sentence begins: ``The click …``, but a file's name as it is written."""
        return self.title[:1].upper() + self.title[1:] if self.title.startswith("the ") else self.title

    def sentence(self) -> str:
        """The race in one sentence of the user's terms: the order, then what goes wrong."""
        title, shown = self.heading, most_visible(self.checks)
        return f"{title}: {shown.words()}." if shown is not None else f"{title}."


class Unwritable(Webr4Error):
    """The order needs a lever a readable test does not have (the message says which)."""


def race_test(schedule: PlainSchedule, signs: Sequence[str], checks: list[Check], name: str) -> RaceTest:
    """The test that forces ``schedule`` (a reversed order) as its plain run did, the signs
    having come in the order ``signs`` (sign keys), and checks ``checks``; :class:`Unwritable`
    when a lever has no readable form."""
    parts = urlsplit(schedule.url)
    layout = _Layout(schedule)
    for key in signs:
        layout.sign(key)
    layout.finish()
    first = next(iter(layout.held.values()), None)
    title = f"{first.before} before {first.file}" if first is not None else schedule.order
    return RaceTest(name, title, f"{parts.scheme}://{parts.netloc}",
                    parts.path + (f"?{parts.query}" if parts.query else ""), list(layout.held.values()),
                    schedule.clock, layout.steps, checks)


class _Layout:
    """The steps of one test being laid out, one sign at a time."""

    def __init__(self, schedule: PlainSchedule) -> None:
        self.schedule = schedule
        self.calls = [Call(c["method"], c["selector"], tuple(c["args"])) if "method" in c else None
                      for c in schedule.calls]
        self.held: dict[str, Held] = {}
        for hold in schedule.holds:
            path = urlsplit(hold.request).path
            self.held[hold.request] = Held(_identifier(path, {h.name for h in self.held.values()}), path,
                                           self.words(hold.until.kind, hold.until.target),
                                           self.noun(hold.until.kind, hold.until.target))
        self.released: set[str] = set()
        self.awaited: set[str] = {sign_key({"kind": RESPONSE, "target": request_key(schedule.url)})}
        self.clock_at: dict[str, float] = {}  # each sign awaited -> the paused clock's time then
        self.steps: list[Step] = []
        self.clock_ms = 0.0
        self.held_keys = {held.step: held.up_after for held in schedule.held_keys}
        self.key_down: set[int] = set()
        self.done: set[int] = set()

    def words(self, kind: str, target: str) -> str:
        """A sign in the words of the test's comments."""
        if kind == RESPONSE:
            return f"{urlsplit(target).path.rsplit('/', 1)[-1] or urlsplit(target).path} has arrived"
        if kind in (STEP, KEY_DOWN):
            call = self.calls[int(target)]
            done = "is done" if kind == STEP else "has its key down"
            return f"the {call.words() if call else 'wait'} {done}"
        if kind == CLOCK:
            return f"the page's clock has run {target} ms"
        return "the document is parsed" if kind == DOM_READY else "the page has loaded"

    def noun(self, kind: str, target: str) -> str:
        """What a sign says has happened, as a noun: ``the click on #add``, ``price.json``."""
        if kind == RESPONSE:
            return urlsplit(target).path.rsplit("/", 1)[-1] or urlsplit(target).path
        if kind in (STEP, KEY_DOWN):
            call = self.calls[int(target)]
            return f"the {call.words()}" if call else "the wait"
        if kind == CLOCK:
            return f"the timer due at {target} ms"
        return "the document's parsing" if kind == DOM_READY else "the page's load"

    def sign(self, key: str) -> None:
        """Lay out what happened when sign ``key`` came in the plain run, and what it let go."""
        kind, _, target = key.partition(":")
        if kind == KEY_DOWN:
            self.press_down(int(target))
        elif kind == STEP and int(target) < len(self.calls):
            self.act(int(target))
        elif kind == CLOCK:
            self.run_clock(target)
        for request, hold in self.schedule_holds():
            if sign_key({"kind": hold.until.kind, "target": hold.until.target}) == key:
                self.await_sign(kind, target)
                self.release(request)

    def schedule_holds(self) -> list[tuple[str, ScheduledHold]]:
        """The schedule's holds not let go yet, by request."""
        return [(hold.request, hold) for hold in self.schedule.holds if hold.request not in self.released]

    def steps_wait_for_page(self) -> bool:
        """Whether a step laid out so far waits for the document or the page to load."""
        return any(step.kind == "wait-load" for step in self.steps)

    def saw(self, key: str) -> None:
        """Sign ``key`` has come by this point of the test."""
        self.awaited.add(key)
        self.clock_at.setdefault(key, self.clock_ms)

    def ceiling(self) -> float:
        """How far the paused clock may run now: short of every racing timer whose sign has not
        come (free before the event that sets it has come)."""
        held = []
        for run in self.schedule.clock_runs:
            after = sign_key({"kind": run.after.kind, "target": run.after.target})
            created = sign_key({"kind": run.created.kind, "target": run.created.target}) if run.created else None
            if after in self.awaited or (created is not None and created not in self.awaited):
                continue
            held.append(run.to_ms - 1 if created is None else self.clock_at[created] + run.delay_ms - 1)
        return min(held, default=float("inf"))

    def clock_to_step(self, number: int) -> None:
        """Run the paused clock to the time step ``number`` ran at in webr4's order (never past a
        racing timer whose sign has not come): the page's other timers fire by then, as there.
        Before the first user step, and wherever the clock moves, it then runs on until the
        step's target shows, as the plain run waits for a quiet page: the app's start-up may
        render its views on timers (a loader's chain of short ones)."""
        times = self.schedule.step_times
        if not self.schedule.clock or number >= len(times) or times[number] < 0:
            return
        ceiling = self.ceiling()
        to_ms = max(min(times[number], ceiling), self.clock_ms)
        call = self.calls[number]
        first = not any(step.kind in ("act", "key-down") for step in self.steps)
        if to_ms > self.clock_ms or (first and call is not None):
            self.steps.append(Step("run-clock", ms=to_ms, shows=call.selector if call is not None else "",
                                   at_most=ceiling if ceiling != float("inf") else None))
            self.clock_ms = to_ms

    def await_sign(self, kind: str, target: str) -> None:
        """Wait for a sign unless the test has already seen it come."""
        key = f"{kind}:{target}"
        if key in self.awaited:
            return
        self.saw(key)
        if kind == RESPONSE:
            self.steps.append(Step("arrived", path=urlsplit(target).path, why=self.words(kind, target)))
        elif kind in (DOM_READY, LOAD):
            self.steps.append(Step("wait-load", state=kind))
        elif kind in (STEP, KEY_DOWN, CLOCK):
            raise Unwritable(f"{self.words(kind, target)} came after what waits for it")
        else:
            raise Unwritable(f"no readable lever waits for {kind}")

    def before_step(self, number: int) -> tuple[str, ...]:
        """Wait for what step ``number`` waits for, and run the clock to its time; the held
        responses it acts before (in the page's own order, it would act after them)."""
        timing = self.schedule.timing(number)
        if timing.after is not None:
            self.await_sign(timing.after.kind, timing.after.target)
        self.clock_to_step(number)
        return tuple(self.held[request].name for request, _ in self.schedule_holds())

    def act(self, number: int) -> None:
        call = self.calls[number]
        if call is None:  # a test's own read: no step of the regression test, a sign all the same
            self.done.add(number)
            self.saw(f"{STEP}:{number}")
            return
        if number in self.done:
            return
        self.done.add(number)
        if number in self.held_keys:
            if number not in self.key_down:
                self.press_down(number)
            up_after = self.held_keys[number]
            self.await_sign(up_after.kind, up_after.target)
            self.steps.append(Step("key-up", call, why=f"held until {self.words(up_after.kind, up_after.target)}"))
        else:
            early = self.before_step(number)
            files = " and ".join(h.file for h in self.held.values() if h.name in early)
            self.steps.append(Step("act", call, early=early, why=f"the {call.words()} before {files}" if early else ""))
        self.saw(f"{STEP}:{number}")

    def press_down(self, number: int) -> None:
        call = self.calls[number]
        if call is None or number in self.key_down:
            return
        self.key_down.add(number)
        early = self.before_step(number)
        self.steps.append(Step("key-down", call, early=early))
        self.saw(f"{KEY_DOWN}:{number}")

    def run_clock(self, target: str) -> None:
        run = next((r for r in self.schedule.clock_runs if r.forward and f"{r.to_ms:g}" == target), None)
        if run is None:
            return  # a run that only holds: the clock stays paused until the test's end
        self.await_sign(run.after.kind, run.after.target)
        if run.created is not None:
            self.await_sign(run.created.kind, run.created.target)
            if run.created.kind == RESPONSE and not self.steps_wait_for_page():
                self.await_sign(DOM_READY, "")  # the document's scripts have set their timers
        created = sign_key({"kind": run.created.kind, "target": run.created.target}) if run.created else None
        due = max(run.to_ms, self.clock_at[created] + run.delay_ms if created in self.clock_at else 0.0)
        if due > self.clock_ms:
            self.steps.append(Step("run-clock", ms=due, why=f"the timer due at {due:g} ms fires"))
            self.clock_ms = due
        self.saw(f"{CLOCK}:{target}")

    def release(self, request: str) -> None:
        self.released.add(request)
        held = self.held[request]
        self.steps.append(Step("release", name=held.name, why=f"now that {held.until}"))

    def finish(self) -> None:
        """Let go of whatever is still held: the order is decided by now."""
        for request, _hold in self.schedule_holds():
            self.release(request)
        for number in range(len(self.calls)):
            if number not in self.done and self.calls[number] is not None:
                raise Unwritable(f"step {number + 1} did not happen in the plain run")


def _identifier(path: str, taken: set[str]) -> str:
    """A Python and TypeScript name for a held response from its file name (``cart.js`` → ``cart_js``)."""
    base = re.sub(r"\W+", "_", path.rstrip("/").rsplit("/", 1)[-1]).strip("_").lower() or "response"
    if base[0].isdigit() or keyword.iskeyword(base):
        base = f"held_{base}"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name
