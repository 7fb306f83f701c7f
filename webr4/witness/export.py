"""What a user keeps of a confirmed race: a regression test against the live app, an offline
test, and Playwright traces.

:func:`generate` runs both orders once more in plain Chromium, reading there what tells them apart
(:mod:`webr4.witness.asserted_outcome`), and lays the race out as a test a Playwright user would write
(:mod:`webr4.witness.racetest`); :func:`write_test` writes it for pytest or Playwright Test
(:mod:`webr4.witness.writers`). It loads the app from its server, so it sees the developer's fix.

:func:`write_pytest` writes the offline form: a test file that needs only ``pytest`` and ``playwright``: it
carries :mod:`webr4.witness.plain` verbatim, both plain schedules of the reversal and the DOM and
storage readers as data, and reads the responses from the session's HAR, copied beside it. The
test runs the recorded order and the reversed order in a stock Chromium and asserts that they
leave the page the same in the categories where the race showed: it fails while the race is
there, and guards against it once fixed.

:func:`write_traces` runs both orders with Playwright tracing on (screenshots and snapshots), so
that ``playwright show-trace`` opens each.
"""

from __future__ import annotations

import inspect
import json
import shutil
from pathlib import Path
from typing import Sequence

from playwright.async_api import Browser

from webr4.errors import Webr4Error
from webr4.resources import javascript
from webr4.rundir.outputs import EXPORTED_TEST_MARK, replacing, write_atomically
from webr4.state.categories.storage import STORAGE
from webr4.witness import plain
from webr4.witness.asserted_outcome import Read, checks_of, reads_of
from webr4.witness.racetest import RaceTest, Unwritable, race_test
from webr4.witness.plain_run import PlainRun, run_plain
from webr4.witness.schedule import PlainSchedule
from webr4.witness.writers import WRITERS

CHECKED = {"dom": "dom", "exceptions": "exceptions", "navigation": "navigation", "storage": "storage",
           "console": "console", "network": "requests"}
"""Category → the key of :func:`webr4.witness.plain.drive`'s end that an exported test compares."""

_TEST = '''

# -- the race, as webr4 found it ------------------------------------------------------------------------

HAR = Path(__file__).with_name({har!r})
SCHEDULES = json.loads({schedules!r})
CHECKED = {checked!r}
DOM_SCRIPT = {dom!r}
STORAGE_SCRIPT = {storage!r}


def _end(order: str) -> dict[str, Any]:
    """The end of the page when the pair runs in ``order`` (``parent`` or ``reversed``). Chromium:
    ``CHROMIUM`` (a path) if set, else Playwright's own."""

    async def go() -> dict[str, Any]:
        from playwright.async_api import async_playwright

        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM") or None)
            try:
                return await drive(browser, SCHEDULES[order], HAR, dom_script=DOM_SCRIPT,
                                   storage_script=STORAGE_SCRIPT)
            finally:
                await browser.close()

    return asyncio.run(go())


def _comparable(key: str, value: Any) -> Any:
    """Exceptions by message (a line number may move with a fix); the rest as read."""
    return sorted(str(message) for message, _site in value) if key == "exceptions" else value


def test_{name}() -> None:
    """{about}"""
    recorded, reversed_ = _end("parent"), _end("reversed")
    assert recorded["problem"] is None, recorded["problem"]
    assert reversed_["problem"] is None, reversed_["problem"]
    for key in CHECKED:
        assert _comparable(key, reversed_[key]) == _comparable(key, recorded[key]), (
            f"{{key}} differs when {{SCHEDULES['reversed']['order']}}")
'''


def pytest_source(parent: PlainSchedule, reversed_: PlainSchedule, har_name: str, categories: list[str],
                  name: str, about: str) -> str:
    """The text of a standalone test of one race (see the module docstring): ``categories`` are
    those compared (of :data:`CHECKED`), ``name`` the test's name, ``about`` its docstring."""
    checked = [CHECKED[c] for c in categories if c in CHECKED] or ["dom", "exceptions", "navigation"]
    schedules = json.dumps({"parent": parent.to_json(), "reversed": reversed_.to_json()}, separators=(",", ":"))
    header = (f"{EXPORTED_TEST_MARK}: {about}\n"
              "# Needs only pytest and playwright, and the HAR file beside it. Run: pytest THIS_FILE\n\n")
    runner = inspect.getsource(plain).replace("from pathlib import Path\n",
                                              "import json\nimport os\nfrom pathlib import Path\n", 1)
    return header + runner + _TEST.format(har=har_name, schedules=schedules, checked=checked,
                                          dom=javascript("capture_dom.js"),
                                          storage=STORAGE.page_script or "() => ({})",
                                          name=name, about=about.replace('"', "'"))


def write_pytest(path: Path, parent: PlainSchedule, reversed_: PlainSchedule, har: Path, categories: list[str],
                 about: str) -> list[Path]:
    """Write the test to ``path`` and copy ``har`` beside it (``<stem>.har``), each whole or not at
    all; returns both paths."""
    copied = path.with_suffix(".har")
    name = "".join(c if c.isalnum() else "_" for c in path.stem.removeprefix("test_")) or "race"
    source = pytest_source(parent, reversed_, copied.name, categories, f"no_race_{name}", about)
    write_atomically(copied, lambda temporary: shutil.copyfile(har, temporary))
    write_atomically(path, source)
    return [path, copied]


def trace_paths(path: Path) -> tuple[Path, Path]:
    """Where :func:`write_traces` writes: the parent order's trace beside ``path`` (``<stem>-parent``),
    the reversed order's at ``path``."""
    return path.with_name(f"{path.stem}-parent{path.suffix or '.zip'}"), path


async def write_traces(browser: Browser, parent: PlainSchedule, reversed_: PlainSchedule, har: Path,
                       path: Path) -> tuple[Path, Path]:
    """Run both orders in fresh contexts of ``browser`` with Playwright tracing on; returns the
    traces of the parent order and of the reversed order (:func:`trace_paths`)."""
    parent_trace, reversed_trace = trace_paths(path)
    for schedule, target in ((parent, parent_trace), (reversed_, reversed_trace)):
        with replacing(target) as temporary:
            await plain.drive(browser, schedule.to_json(), har, dom_script=javascript("capture_dom.js"),
                              storage_script=STORAGE.page_script or "() => ({})", trace_to=temporary)
    return parent_trace, reversed_trace


class NoCheck(Webr4Error):
    """Nothing a test can read tells the two orders apart in plain Chromium (the message says
    what was compared)."""


async def generate(browser: Browser, parent: PlainSchedule, reversed_: PlainSchedule, har: Path,
                   doms: tuple[str, str], name: str) -> RaceTest:
    """The regression test of one race: both orders run in fresh contexts of ``browser``, the
    responses served from ``har`` (as recorded: the parent order's end is the outcome the test
    expects), reading what differs between ``doms`` (webr4's own ends of the parent's and the
    reversal's sequences); see :func:`race_test_of`."""
    reads = reads_of(*doms)
    probes = [read.to_json() for read in reads]
    runs = [await run_plain(browser, schedule, har, reads=probes) for schedule in (parent, reversed_)]
    return race_test_of(reversed_, reads, runs[0], runs[1], name)


def race_test_of(reversed_: PlainSchedule, reads: Sequence[Read], parent: PlainRun, child: PlainRun,
                 name: str) -> RaceTest:
    """The test of a race whose parent order and reversed order ran as ``parent`` and ``child``,
    each having read ``reads`` at its end. :class:`NoCheck` when nothing read tells the orders
    apart, :class:`~webr4.witness.racetest.Unwritable` when the reversed order was not forced or
    needs a lever with no readable form."""
    if child.problem is not None or parent.problem is not None:
        raise Unwritable(f"the order could not be forced in plain Chromium: {child.problem or parent.problem}")
    ends = [{"navigation": run.state.navigation, "exceptions": run.state.exceptions} for run in (parent, child)]
    checks = checks_of(reads, parent.reads, child.reads, ends[0], ends[1])
    if not checks:
        raise NoCheck(f"no element, address or exception tells the orders apart in plain Chromium "
                      f"({len(reads)} elements read)")
    return race_test(reversed_, child.signs, checks, name)


def write_test(path: Path, test: RaceTest, language: str) -> Path:
    """Write ``test`` to ``path`` in ``language`` (of :data:`~webr4.witness.writers.WRITERS`), whole
    or not at all."""
    write_atomically(path, WRITERS[language](test, path.name))
    return path
