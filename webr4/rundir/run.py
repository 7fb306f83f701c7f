"""A run directory, written by ``webr4 explore`` (:class:`RunDir`): ``summary.json``,
``webr4.sqlite`` (the store of every explored trace and end state, :mod:`webr4.rundir.store`),
``noise.json``, ``sequences/<n>/`` (``state.png``, ``diff.json``, ``diff.png``),
``reversals/<id>/`` (the :class:`Witness`) and ``report/``; ``webr4 check`` keeps its session in
``session/``. Paths written into a run are relative to it, so a run directory moved or copied
with its session still reads.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from webr4.rundir.session import SessionDir
from webr4.rundir.summary import Summary, SummaryError
from webr4.state.diff import StateDiff
from webr4.state.noise import NoiseMask

SCREENSHOT = "state.png"  # each explored sequence's, in sequences/<n>/
DIFF = "diff"  # its difference with its parent, in sequences/<n>/: diff.json and diff.png


@dataclass(frozen=True)
class Witness:
    """``reversals/<id>/``: what shows one reversal, as links to its sequences' files."""

    directory: Path

    @property
    def parent_screenshot(self) -> Path:
        return self.directory / "parent" / "state.png"

    @property
    def child_screenshot(self) -> Path:
        return self.directory / "child" / "state.png"

    @property
    def diff(self) -> Path:
        """The full difference between parent and child (``diff.json``; ``diff.png`` beside it)."""
        return self.directory / "diff.json"

    @property
    def plain_parent_screenshot(self) -> Path:
        """The parent order's end in plain Chromium, when the reversal was confirmed there."""
        return self.directory / "plain" / "parent.png"

    @property
    def plain_child_screenshot(self) -> Path:
        return self.directory / "plain" / "child.png"

    def regression_test(self, language: str) -> Path:
        """The race as a test against the live app, generated when plain Chromium confirmed it
        (``language``: ``python`` for pytest, ``typescript`` for Playwright Test)."""
        return self.directory / "plain" / ("test_race.py" if language == "python" else "race.spec.ts")

    @property
    def story(self) -> Path:
        """The race in one sentence (``story.txt``), beside its generated tests."""
        return self.directory / "plain" / "story.txt"

    @property
    def no_test(self) -> Path:
        """Why a confirmed race has no generated test (``no-test.txt``)."""
        return self.directory / "plain" / "no-test.txt"


@dataclass(frozen=True)
class RunDir:
    """The files of the run directory ``directory``."""

    directory: Path

    @property
    def summary(self) -> Path:
        return self.directory / "summary.json"

    @property
    def store(self) -> Path:
        return self.directory / "webr4.sqlite"

    @property
    def noise(self) -> Path:
        return self.directory / "noise.json"

    @property
    def report(self) -> Path:
        return self.directory / "report"

    def report_page(self, reversal: int | None = None) -> Path:
        """The report's overview page (``index.html``), or the page of reversal ``reversal``."""
        return self.report / ("index.html" if reversal is None else f"reversal-{reversal}.html")

    @property
    def own_session(self) -> SessionDir:
        """``session/``, where ``webr4 check`` records."""
        return SessionDir(self.directory / "session")

    def sequence(self, index: int) -> Path:
        """``sequences/<index>/``: the screenshot of explored sequence ``index`` (0 is the seed)
        and its difference with its parent."""
        return self.directory / "sequences" / str(index)

    def sequence_file(self, index: int, name: str) -> Path | None:
        """``sequences/<index>/<name>`` (``state.png``, ``diff.json``, ``diff.png``) when it exists."""
        path = self.sequence(index) / name
        return path if path.is_file() else None

    def witness(self, index: int) -> Witness:
        return Witness(self.directory / "reversals" / str(index))

    def is_run(self) -> bool:
        """Whether the directory is a webr4 run: it holds a run store or the session ``webr4
        check`` records first. Only such directories are written into; anything else that is not
        empty belongs to someone else."""
        return self.store.is_file() or self.own_session.recorded

    def session(self, recorded: str | None) -> SessionDir:
        """The session the run explored, from ``recorded`` (``summary.json``'s ``session``:
        relative to the run, absolute in older runs). When that path holds no session any more
        (the run was moved or copied without it), :attr:`own_session`."""
        if recorded:
            path = Path(recorded) if Path(recorded).is_absolute() else self.directory / recorded
            if SessionDir(path).recorded:
                return SessionDir(path)
        return self.own_session

    def relative(self, path: Path) -> str:
        """``path`` relative to the run directory (``session``, ``../s1``), as the run records it."""
        return os.path.relpath(path.resolve(), self.directory.resolve())

    # -- summary.json, noise.json

    def read_summary(self) -> Summary:
        """The run's summary; :class:`SummaryError` with a one-line reason when it cannot be read."""
        path = self.summary
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SummaryError(f"{self.directory} holds no summary.json: not a run directory") from None
        except OSError as error:
            raise SummaryError(f"cannot read {path}: {error.strerror}") from None
        except ValueError as error:
            raise SummaryError(f"{path} is not valid JSON ({error})") from None
        reversals = raw.get("reversals") if isinstance(raw, dict) else None
        if not isinstance(reversals, list) or not all(isinstance(r, dict) and "id" in r and "verdict" in r
                                                      for r in reversals):
            raise SummaryError(f"{path} is not a webr4 run summary (no list of reversals with id and verdict)")
        try:
            return Summary.from_json(raw)
        except (TypeError, ValueError, AttributeError) as error:
            raise SummaryError(f"{path} is not a webr4 run summary ({error})") from None

    def write_summary(self, summary: Summary) -> None:
        """Replace ``summary.json`` at once: a reader never sees half of it."""
        self.directory.mkdir(parents=True, exist_ok=True)
        temporary = self.summary.with_name(self.summary.name + ".tmp")
        temporary.write_text(json.dumps(summary.to_json(), indent=1), encoding="utf-8")
        temporary.replace(self.summary)

    def read_noise(self) -> NoiseMask:
        """The noise mask found from the seed replays (none in a run that has not got that far)."""
        if not self.noise.is_file():
            return NoiseMask()
        return NoiseMask.from_json(json.loads(self.noise.read_text(encoding="utf-8")))

    def write_noise(self, mask: NoiseMask) -> None:
        self.noise.write_text(json.dumps(mask.to_json()), encoding="utf-8")

    # -- sequences/ and reversals/

    def keep_screenshot(self, index: int, png: bytes) -> Path:
        """Write sequence ``index``'s screenshot to ``sequences/<index>/state.png`` (unless it
        holds those bytes already); returns the file."""
        path = self.sequence(index) / SCREENSHOT
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != png:
            path.write_bytes(png)
        return path

    def write_difference(self, index: int, difference: StateDiff) -> None:
        """Sequence ``index``'s difference with its parent: ``diff.json`` and ``diff.png``."""
        difference.save(self.sequence(index), DIFF)

    def write_witness(self, index: int, parent: int) -> Witness:
        """Fill ``reversals/<index>/`` with links to the two sequences' screenshots and their
        difference (files that are missing are left out; a copy where links cannot be made)."""
        witness = self.witness(index)
        for target, number in ((witness.parent_screenshot, parent), (witness.child_screenshot, index)):
            target.parent.mkdir(parents=True, exist_ok=True)
            _link(self.sequence(number) / SCREENSHOT, target)
        for name in (f"{DIFF}.json", f"{DIFF}.png"):
            _link(self.sequence(index) / name, witness.directory / name)
        return witness


def _link(source: Path, target: Path) -> None:
    if not source.exists() or target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
