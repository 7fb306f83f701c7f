"""The files a user names for webr4 to write (``--junit``, ``--sarif``, ``--pytest``, ``--trace``):
checked, all of a command's together, before anything is written, and written whole or not at all.

An output is refused, in one line naming its option, when its path

* is a file of a run or session directory the command works on (``summary.json``, the run store,
  a session's HAR, …): webr4 never writes over its own evidence, ``--force`` or not;
* is also another output of the same command (an output's companions count: the HAR a test
  needs beside it, the parent order's trace beside the reversed one's);
* is a directory;
* is an existing file that is not one webr4 writes of that kind (a JUnit or SARIF report of
  webr4's, a race's exported test with its HAR, a Playwright trace), unless ``--force`` is given:
  the user's own files are never replaced unasked.

:func:`write_atomically` writes through a temporary file beside the target and renames it over the
target, so that a full disk or an interrupt leaves the old file or none, never half of one.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from webr4.errors import Webr4Error

EXPORTED_TEST_WORDS = "A regression test for an event race, exported by webr4"
EXPORTED_TEST_MARK = f"# {EXPORTED_TEST_WORDS}"
"""How a race's exported Python test begins (:mod:`webr4.witness.export`): such a file may be
replaced. A TypeScript one begins with the same words after ``//``."""


class OutputError(Webr4Error, ValueError):
    """An output path that webr4 will not write; the message names the option and what to do."""


@dataclass(frozen=True)
class Output:
    """A file a command will write: ``option`` named it (``--junit``), ``kind`` says what it holds
    (``junit``, ``sarif``, ``pytest``, ``spec``, ``har``, ``trace``)."""

    option: str
    path: Path
    kind: str


def check_outputs(outputs: Sequence[Output], *, keep: Sequence[Path], force: bool = False) -> None:
    """Refuse (:class:`OutputError`) the first of ``outputs`` that webr4 must not write; ``keep``
    are the run and session directories the command works on."""
    kept = [directory.resolve() for directory in keep]
    seen: dict[Path, Output] = {}
    for output in outputs:
        target = output.path.resolve()
        if target in seen:
            raise OutputError(f"{seen[target].option} and {output.option} both write {output.path}: give each "
                              "its own file")
        seen[target] = output
        if target.is_dir():
            raise OutputError(f"{output.option} {output.path} is a directory: name a file")
        if target.exists() and any(target.is_relative_to(directory) for directory in kept):
            raise OutputError(f"{output.option} {output.path} is a file of the run or its session, which webr4 "
                              "does not overwrite: choose a path outside it")
        if target.is_file() and not force and not _written_by_webr4(target, output.kind, outputs):
            raise OutputError(f"{output.option} {output.path} exists and is not a {output.kind} file webr4 wrote: "
                              "choose another path, or pass --force to replace it")


def _written_by_webr4(path: Path, kind: str, outputs: Sequence[Output]) -> bool:
    """Whether the existing ``path`` is a file of ``kind`` as webr4 writes it (a HAR counts as
    webr4's when the test it is written beside is)."""
    try:
        if kind == "junit":
            head = path.read_bytes()[:4096].decode("utf-8", "replace")
            return '<testsuites name="webr4"' in head
        if kind == "sarif":
            runs = json.loads(path.read_text(encoding="utf-8")).get("runs") or []
            return any(run.get("tool", {}).get("driver", {}).get("name") == "webr4" for run in runs)
        if kind == "pytest":
            return path.read_text(encoding="utf-8", errors="replace").startswith(EXPORTED_TEST_MARK)
        if kind == "spec":
            return path.read_text(encoding="utf-8", errors="replace").startswith(f"// {EXPORTED_TEST_WORDS}")
        if kind == "har":
            tests = [o.path for o in outputs if o.kind == "pytest" and o.path.with_suffix(".har") == path]
            return any(_written_by_webr4(test, "pytest", outputs) for test in tests)
        if kind == "trace":
            with zipfile.ZipFile(path) as trace:
                return "trace.trace" in trace.namelist()
    except (OSError, ValueError, AttributeError, zipfile.BadZipFile):
        return False
    return False


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for the block to write; renamed over ``path`` when the
    block ends normally, removed otherwise."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def write_atomically(path: Path, content: str | bytes | Callable[[Path], object]) -> Path:
    """Write ``content`` (text, bytes, or a function that writes the file it is given) to ``path``
    through :func:`replacing`; returns ``path``."""
    with replacing(path) as temporary:
        if isinstance(content, str):
            temporary.write_text(content, encoding="utf-8")
        elif isinstance(content, bytes):
            temporary.write_bytes(content)
        else:
            content(temporary)
    return path
