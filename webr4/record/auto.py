"""R4's automatic exploration: user actions chosen from the page's own event handlers.

After the page loads in a plain browser, every visible, enabled element with an event handler
(an ``on*`` attribute or property, or a listener added with ``addEventListener``, which an init
script notes per element) is a candidate. Each handler type suggests the action kind whose
``explored`` entry in :data:`webr4.useractions.ACTIONS` claims it: mouse-move handlers a hover,
keyboard and input handlers on a text field a fill with a short text followed by Enter, a
``<select>``'s change handler a different option, pointer, focus and change handlers a click
(``load``, ``error`` and the like call for no action). A seeded shuffle picks the candidates;
kinds come in the table's order (as in the paper: mouse moves, key presses, clicks). Links
to other documents and submit buttons of forms with an ``action`` are skipped, and each chosen
action is tried on the page: one that navigates is dropped (and the page reloaded).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from webr4.record.scripted import Steps, StepsError, first_line, plain_page
from webr4.resources import javascript
from webr4.useractions import ACTIONS

TEXT = "webr4"
TRIAL_TIMEOUT_MS = 10_000
_EXPLORED = [{"kind": kind.name, "handlers": sorted(kind.explored.handlers), "elements": kind.explored.elements}
             for kind in ACTIONS.values() if kind.explored is not None]
"""The kinds ``--auto`` tries, in order, as the candidate finder in the page reads them."""




@dataclass(frozen=True)
class Candidate:
    """One element and the kind of action its handlers call for."""

    kind: str
    selector: str
    options: tuple[str, ...]

    def steps(self, rng: random.Random) -> Steps:
        """The steps that try it: typing is a short text and Enter, a choice a different option."""
        if self.kind == "fill":
            return [{"fill": self.selector, "value": TEXT}, {"press": self.selector, "key": "Enter"}]
        if self.kind == "select":
            return [{"select": self.selector, "value": rng.choice(self.options)}] if self.options else []
        return [{self.kind: self.selector}]


def candidates(page: Page) -> list[Candidate]:
    """The actionable elements with handlers on ``page``, in document order."""
    raw: list[dict[str, Any]] = page.evaluate(javascript("auto_candidates.js"), _EXPLORED)
    return [Candidate(c["kind"], c["selector"], tuple(c["options"])) for c in raw]


def perform(page: Page, step: dict[str, Any]) -> None:
    """Do one step on a plain page, with the Playwright method the action table names."""
    if "wait" in step:
        page.wait_for_timeout(step["wait"])
        return
    kind = next(ACTIONS[k] for k in step if k in ACTIONS)
    kind.perform(page.locator(step[kind.name]).first, step, TRIAL_TIMEOUT_MS)


class _Navigations:
    """Counts navigations of the page's main frame."""

    def __init__(self, page: Page) -> None:
        self.count = 0
        self._page = page
        page.on("framenavigated", self._seen)

    def _seen(self, frame: Frame) -> None:
        if frame == self._page.main_frame:
            self.count += 1


def _try(page: Page, steps: Steps, navigations: _Navigations) -> bool:
    """Perform ``steps``; False if one failed or the page navigated away."""
    before = navigations.count
    try:
        for step in steps:
            perform(page, step)
    except PlaywrightError:
        return False
    return navigations.count == before


def _restart(page: Page, url: str, kept: Steps) -> None:
    """Reload ``url`` and redo the steps kept so far, after a trial that went wrong."""
    page.goto(url, wait_until="load")
    for step in kept:
        perform(page, step)


def auto_actions(url: str, n: int, seed: int) -> Steps:
    """Up to ``n`` user steps for ``url`` chosen from its event handlers, reproducibly for ``seed``."""
    rng = random.Random(seed)
    kept: Steps = []
    with plain_page(url, javascript("auto_listeners.js")) as page:
        navigations = _Navigations(page)
        found = candidates(page)
        rng.shuffle(found)
        order = list(ACTIONS)
        found.sort(key=lambda c: order.index(c.kind))
        try:
            for candidate in found:
                steps = candidate.steps(rng)
                if not steps or len(kept) + len(steps) > n:
                    continue
                if _try(page, steps, navigations):
                    kept.extend(steps)
                else:
                    _restart(page, url, kept)
        except PlaywrightError as error:
            raise StepsError(f"automatic exploration of {url} failed: {first_line(error)}") from None
    return kept
