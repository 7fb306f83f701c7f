"""What the reversals of finished runs write between their two events, and what follows them.

``python -m benchmarks.profiling.window_writes RUN [RUN ...]`` reads each run's seed trace (the
seed's first replay logs every event's accesses) and its reversals. A reversal's *window* is the
seed's steps from the earlier of its two events to the later, both included: what a reversed
execution runs in another order before it has run the same events as the seed. Prints, per run,
how many reversals have a window that writes

* a closure's variable (``scope:``) or an object's property (``prop:``): state that the heap
  webr4 reads from ``window`` does not reach when only a closure holds the object;
* a value the access log keeps no digest of (an array method's change, a destructuring) or an
  object (kept by its id, which differs between two executions that logged different events);

and the share of the seed's steps after the window (what an execution ended at its window's
end would save, at most).

Finding: docs/reference/exploring.md, "A state seen before": every reversal of the loader apps'
runs writes both kinds in its window, so a fingerprint of the state webr4 can read would not
show that two executions are in the same state.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from webr4.rundir.runfiles import RunFiles
from webr4.trace import AccessKind, Trace

HIDDEN = ("scope", "prop")


@dataclass(frozen=True)
class Window:
    """What one reversal's window writes, and the share of the seed after it."""

    hidden: bool  # a closure's variable or an object's property
    undigested: bool  # a value without a digest, or an object's id
    tail: float


def window(seed: Trace, first: int, last: int) -> Window:
    """The window of the seed's steps ``first`` to ``last`` (both included)."""
    hidden = undigested = False
    for step in seed.steps[first:last + 1]:
        for access in step.accesses:
            if access.kind is not AccessKind.WRITE or access.location.split(":", 1)[0] not in HIDDEN:
                continue
            hidden = True
            undigested = undigested or access.value is None or access.value.startswith("o:")
    return Window(hidden, undigested, 1 - (last + 1) / len(seed.steps))


def windows(run: Path) -> list[Window]:
    """The window of each reversal of ``run`` whose two events the seed ran."""
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    with RunFiles(run) as files:
        seed = files.trace(0)
    if seed is None:
        raise SystemExit(f"{run} keeps no seed trace")
    position = {step.event: index for index, step in enumerate(seed.steps)}
    found = []
    for reversal in summary["reversals"]:
        pair = [position.get(reversal["first_id"]), position.get(reversal["second_id"])]
        if None not in pair:
            first, last = sorted(index for index in pair if index is not None)
            found.append(window(seed, first, last))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, metavar="RUN")
    print("| run | reversals | window writes a closure or an object | of them, a value without a digest "
          "| seed's steps after the window (median) |")
    print("|---|---:|---:|---:|---:|")
    for run in parser.parse_args().runs:
        found = windows(run)
        tail = f"{statistics.median(w.tail for w in found):.0%}" if found else "–"
        print(f"| {run.parent.name if run.name == 'run' else run} | {len(found)} | {sum(w.hidden for w in found)} | "
              f"{sum(w.hidden and w.undigested for w in found)} | {tail} |")


if __name__ == "__main__":
    main()
