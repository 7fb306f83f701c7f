"""R4's automatic exploration: user actions chosen from the page's own event handlers.

After the page loads in a plain browser, every visible, enabled element with an event handler
(an ``on*`` attribute or property, or a listener added with ``addEventListener``, which an init
script notes per element) is a candidate. Each handler kind suggests an action: mouse-move
handlers a hover, keyboard and input handlers a fill with a short text followed by Enter, a
``<select>``'s change handler a different option, pointer, focus and change handlers a click
(``load``, ``error`` and the like call for no action). A seeded shuffle picks
the candidates; as in the paper, mouse moves come first, then key presses, then clicks. Links
to other documents and submit buttons of forms with an ``action`` are skipped, and each chosen
action is tried on the page: one that navigates is dropped (and the page reloaded).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Frame, Page

from webr4.record.scripted import Steps, first_line, plain_page

TEXT = "webr4"
TRIAL_TIMEOUT_MS = 10_000
_PHASES = ("hover", "key", "select", "click")

_NOTE_LISTENERS = """
(() => {
  const kinds = new WeakMap();
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (this instanceof Element) {
      if (!kinds.has(this)) kinds.set(this, new Set());
      kinds.get(this).add(String(type).toLowerCase());
    }
    return add.call(this, type, listener, options);
  };
  Object.defineProperty(window, '__webr4ListenerKinds', {
    value: (element) => Array.from(kinds.get(element) || []),
  });
})();
"""

_CANDIDATES = """
() => {
  const MOVE = /^(mouseover|mouseenter|mousemove|mouseout|mouseleave|pointerover|pointerenter|pointermove)$/;
  const KEY = /^(keydown|keyup|keypress|input|beforeinput|change)$/;
  const PRESS = new RegExp("^(click|dblclick|auxclick|mousedown|mouseup|pointerdown|pointerup|touchstart" +
                           "|touchend|change|input|focus|focusin)$");
  const TYPABLE = /^(text|search|email|url|tel|password|number)$/;
  const listened = window.__webr4ListenerKinds || (() => []);
  const here = location.href.split('#')[0];

  function handlerKinds(el) {
    const kinds = new Set(listened(el));
    for (const name of el.getAttributeNames()) if (name.startsWith('on')) kinds.add(name.slice(2));
    for (const name of ['click', 'change', 'input', 'keydown', 'keyup', 'mouseover', 'mouseenter']) {
      if (typeof el['on' + name] === 'function') kinds.add(name);
    }
    return kinds;
  }
  function visibleAndEnabled(el) {
    const style = getComputedStyle(el);
    return el.getClientRects().length > 0 && style.visibility !== 'hidden' && !el.disabled;
  }
  function navigates(el) {
    const link = el.closest('a[href]');
    if (link) {
      const target = link.href.split('#')[0];
      if (!link.href.startsWith('javascript:') && target !== here) return true;
    }
    const submit = (el.tagName === 'BUTTON' && (el.type || 'submit') === 'submit')
      || (el.tagName === 'INPUT' && (el.type === 'submit' || el.type === 'image'));
    return submit && el.form !== null && el.form.hasAttribute('action');
  }
  function selector(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && document.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
        parts.unshift('#' + CSS.escape(node.id));
        break;
      }
      const tag = node.tagName.toLowerCase();
      const same = Array.from(node.parentElement ? node.parentElement.children : [node])
        .filter((sibling) => sibling.tagName === node.tagName);
      parts.unshift(node.parentElement ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
    }
    return parts.join(' > ');
  }
  function typable(el) {
    // A readonly field takes no typing: the user cannot change it.
    return el.isContentEditable || (el.tagName === 'TEXTAREA' && !el.readOnly)
      || (el.tagName === 'INPUT' && TYPABLE.test(el.type) && !el.readOnly);
  }

  const found = [];
  for (const el of document.querySelectorAll('*')) {
    const kinds = handlerKinds(el);
    if (kinds.size === 0 || !visibleAndEnabled(el) || navigates(el)) continue;
    const sel = selector(el);
    const phases = new Set();
    for (const kind of kinds) {
      if (MOVE.test(kind)) phases.add('hover');
      else if (typable(el) && KEY.test(kind)) phases.add('key');
      else if (el.tagName === 'SELECT' && (kind === 'change' || kind === 'input')) phases.add('select');
      else if (PRESS.test(kind)) phases.add('click');
    }
    const options = el.tagName === 'SELECT'
      ? Array.from(el.options).filter((o) => !o.disabled && !o.selected).map((o) => o.value) : [];
    for (const phase of phases) found.push({phase, selector: sel, options});
  }
  return found;
}
"""


@dataclass(frozen=True)
class Candidate:
    """One element and the kind of action its handlers call for."""

    phase: str
    selector: str
    options: tuple[str, ...]

    def steps(self, rng: random.Random) -> Steps:
        if self.phase == "hover":
            return [{"hover": self.selector}]
        if self.phase == "key":
            return [{"fill": self.selector, "value": TEXT}, {"press": self.selector, "key": "Enter"}]
        if self.phase == "select":
            return [{"select": self.selector, "value": rng.choice(self.options)}] if self.options else []
        return [{"click": self.selector}]


def candidates(page: Page) -> list[Candidate]:
    """The actionable elements with handlers on ``page``, in document order."""
    raw: list[dict[str, Any]] = page.evaluate(_CANDIDATES)
    return [Candidate(c["phase"], c["selector"], tuple(c["options"])) for c in raw]


def perform(page: Page, step: dict[str, Any]) -> None:
    """Do one step on a plain page (the synchronous twin of ``UserAction.perform``)."""
    if "wait" in step:
        page.wait_for_timeout(step["wait"])
        return
    kind = next(k for k in ("click", "fill", "press", "select", "hover") if k in step)
    target = page.locator(step[kind]).first
    if kind == "click":
        target.click(timeout=TRIAL_TIMEOUT_MS)
    elif kind == "fill":
        target.fill(step["value"], timeout=TRIAL_TIMEOUT_MS)
    elif kind == "press":
        target.press(step["key"], timeout=TRIAL_TIMEOUT_MS)
    elif kind == "select":
        target.select_option(step["value"], timeout=TRIAL_TIMEOUT_MS)
    else:
        target.hover(timeout=TRIAL_TIMEOUT_MS)


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
    with plain_page(url, _NOTE_LISTENERS) as page:
        navigations = _Navigations(page)
        found = candidates(page)
        rng.shuffle(found)
        found.sort(key=lambda c: _PHASES.index(c.phase))
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
            raise ValueError(f"automatic exploration of {url} failed: {first_line(error)}") from None
    return kept
