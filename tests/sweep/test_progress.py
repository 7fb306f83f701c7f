"""Progress reporters: what a person on a terminal and a CI log each get to see."""

from __future__ import annotations

import io
import json

from rich.console import Console

from webr4.sweep.progress import RECORDING, SEED, Bar, JsonLines

FINISHED = {"sequences_explored": 3, "counts": {"harmful": 1, "harmless": 1}, "truncated": None, "seconds": 4.2}
LATEST = {"id": 2, "verdict": "harmful", "reasons": ["exception-diff"], "location": "global cart",
          "locations": ["global cart", "window.app.total"],
          "differences": {"exceptions": ["new TypeError: cart is undefined at app.js:3:5"]},
          "failure": None, "unrealised": None,
          "timing": "XHR GET /cart.json load arrived 12 ms later, after parse chunk 2/2"}


def test_the_bar_shows_each_phase_then_done_of_an_estimated_total_and_the_verdicts_so_far():
    screen = io.StringIO()
    bar = Bar(Console(file=screen, width=120, force_terminal=False))
    bar.phase(RECORDING)
    bar.phase(SEED)
    bar.start(5)
    bar.advance(2, 5, {"harmful": 1, "harmless": 1}, LATEST)
    bar.stop()
    lines = screen.getvalue().strip().splitlines()
    assert [line.split()[0] for line in lines[-3:]] == ["recording", "replaying", "exploring"]
    assert "2/~5" in lines[-1] and "harmful 1" in lines[-1] and "harmless 1" in lines[-1]


def test_a_finished_sweep_s_total_is_what_it_explored():
    screen = io.StringIO()
    bar = Bar(Console(file=screen, width=120, force_terminal=False))
    bar.start(5)
    bar.advance(2, 3, {"harmful": 1, "harmless": 1}, LATEST)
    bar.finish(FINISHED)
    assert "2/2" in screen.getvalue().strip().splitlines()[-1]


def test_json_lines_are_one_parseable_record_per_step():
    stream = io.StringIO()
    lines = JsonLines(stream)
    lines.phase(RECORDING)
    lines.start(4)
    lines.advance(1, 4, {"harmful": 1}, LATEST)
    lines.finish(FINISHED)
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [r["event"] for r in records] == ["phase", "start", "sequence", "finish"]
    assert records[0] == {"event": "phase", "phase": "recording"}
    assert records[2] == {"event": "sequence", "done": 1, "planned": 4, "counts": {"harmful": 1}, **LATEST}
    assert records[3]["counts"] == {"harmful": 1, "harmless": 1}


def test_json_lines_say_each_confirmation_in_plain_chromium_after_the_sweep():
    stream = io.StringIO()
    lines = JsonLines(stream)
    lines.finish(FINISHED)
    lines.confirmed(2, {"status": "confirmed", "line": "the reversed order shows it in plain Chromium too: dom: #a",
                        "matched": {"dom": ["#a"]}, "plain": {}, "order": "", "seconds": 1.0})
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert records[1] == {"event": "confirmation", "id": 2, "status": "confirmed",
                          "line": "the reversed order shows it in plain Chromium too: dom: #a",
                          "matched": {"dom": ["#a"]}}
