"""The page's access summary (``instrument_js/runtime/access_summary.js``) is the Python summariser's.

Events of random accesses, summarised one after another in one runtime as the page does: by
name, and with the variables and properties found by key and group through one index the
summaries share (where a location's state is reused from event to event). Each event's
``entries()`` must equal :func:`webr4.access_summary.summarise` of its accesses.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from webr4.access_summary import summarise
from webr4.trace import Access, AccessKind

RUNNER = Path(__file__).with_name("summary_runner.js")
NODE = shutil.which("node") or "/usr/bin/node"
LOCATIONS = ("global:x", "scope:1:y", "scope:m3:z", "prop:3.n", "prop:12.a.b", "dom:#a.textContent", "event:t1")
VALUES = (None, "n:0", "n:1", "n:2", "s:on", "u", "o:3")
SITES = (None, "1:1", "1:2", "2:9")

access = st.tuples(st.sampled_from("rw"), st.sampled_from(LOCATIONS), st.sampled_from(SITES), st.sampled_from(VALUES))


@st.composite
def increments(draw: st.DrawFn) -> list[tuple[str, str, str | None, str | None]]:
    """``x += k`` repeated on one location, the shape the summary keeps as pairs."""
    location = draw(st.sampled_from(LOCATIONS))
    out = []
    for _ in range(draw(st.integers(1, 4))):
        out += [("r", location, draw(st.sampled_from(SITES)), None),
                ("w", location, draw(st.sampled_from(SITES)), draw(st.sampled_from(("n:1", "n:2", "n:3"))))]
    return out


event = st.one_of(st.lists(access, max_size=16), increments(),
                  st.builds(lambda a, b: a + b, st.lists(access, max_size=8), increments()))


def page_summaries(events: list[list[tuple[str, str, str | None, str | None]]], named: bool) -> list[list[list]]:
    done = subprocess.run([NODE, str(RUNNER)], input=json.dumps({"events": events, "named": named}),
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def python_summary(accesses: list[tuple[str, str, str | None, str | None]]) -> list[list]:
    summary = summarise(Access(AccessKind(kind), location, site, value) for kind, location, site, value in accesses)
    return [[a.kind.value, a.location, a.site, a.value] for a in summary]


@settings(max_examples=40, deadline=None)
@given(st.lists(event, min_size=1, max_size=40), st.booleans())
def test_the_pages_summary_of_each_event_is_the_summariser_s(events, named) -> None:
    assert page_summaries(events, named) == [python_summary(accesses) for accesses in events]
