"""Keyboard focus as a state category, in Chromium: read as plain Chromium leaves it (through a
shadow root too), and a user's click racing an app's own autofocus is harmful although the DOM
is the same."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from webr4.checking import check
from webr4.execution import Capture
from webr4.state import StateSnapshot
from webr4.state.categories import page_scripts
from webr4.state.categories.focus import FOCUS

from ..route_server import page_server

pytestmark = pytest.mark.browser

IN_A_FORM = """<!DOCTYPE html><body><form><input name="a"><input name="b"></form><script>
setTimeout(function () { document.querySelectorAll('input')[1].focus(); }, 20);
</script></body>"""
IN_A_SHADOW_ROOT = """<!DOCTYPE html><body><p>search</p><search-box id="box"></search-box><script>
customElements.define('search-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<label>Find <input></label>'; }
});
setTimeout(function () { document.getElementById('box').shadowRoot.querySelector('input').focus(); }, 20);
</script></body>"""
AUTOFOCUS = """<!DOCTYPE html><body><input id="email"> <input id="name"><script>
// The app focuses the e-mail field once it is ready: a user who clicked the name field first
// now types into the e-mail field.
setTimeout(function () { document.getElementById('email').focus(); }, 20);
</script></body>"""


FOCUSED = "document.activeElement !== document.body"  # the page's timer has moved the focus


@pytest.mark.parametrize(("page", "expected"), [(IN_A_FORM, "form > input:nth-of-type(2)"),
                                                (IN_A_SHADOW_ROOT, "#box >> label > input")],
                         ids=["form", "shadow-root"])
def test_focus_is_where_plain_chromium_leaves_it(driver, page, expected) -> None:
    with page_server(page) as url:
        plain = driver.plain(url, FOCUS.page_script, until=FOCUSED)
        execution = driver.execute(url, capture=Capture(page_scripts=page_scripts()))
    assert plain == expected
    assert StateSnapshot.from_execution(execution).focus == plain


def test_a_click_racing_the_app_s_autofocus_is_harmful_on_focus_alone(tmp_path: Path) -> None:
    with page_server(AUTOFOCUS) as url:
        reversals = asyncio.run(check(url, tmp_path / "run", [{"click": "#name"}])).summary.reversals
    on_focus = [r for r in reversals if "focus-diff" in r.reasons]
    assert on_focus, reversals
    # the DOM is the same: only the focus (and the focus ring it draws) tells the orders apart
    assert all(r.verdict == "harmful" and r.reasons == ["focus-diff"] and "dom" not in r.differences
               for r in on_focus)
    assert on_focus[0].differences["focus"] == ["on #email instead of on #name"]
    # and plain Chromium, clicking before the app's timer, leaves the focus there too
    confirmation = on_focus[0].confirmation
    assert confirmation is not None and confirmation["matched"]["focus"] == ["on #email instead of on #name"]
