"""--auto: user actions chosen from the page's event handlers, reproducibly for a seed."""

from __future__ import annotations

import pytest

from webr4.record.auto import auto_actions, candidates, perform
from webr4.record.scripted import plain_page

pytestmark = pytest.mark.browser  # every test here drives Chromium


def test_auto_is_bounded_deterministic_and_stays_on_the_page(sites_url):
    url = sites_url + "form-default-overwrite/"
    steps = auto_actions(url, 3, seed=7)
    assert steps == auto_actions(url, 3, seed=7)
    assert 0 < len(steps) <= 3
    assert steps[:2] == [{"fill": "#name", "value": "webr4"}, {"press": "#name", "key": "Enter"}]
    with plain_page(url) as page:
        navigations: list[str] = []
        page.on("framenavigated", lambda frame: navigations.append(frame.url))
        for step in steps:
            if "wait" not in step:
                selector = next(v for k, v in step.items() if k in ("click", "fill", "press", "select", "hover"))
                assert page.locator(selector).count() >= 1, selector
            perform(page, step)
        assert navigations == [] and page.url == url


def test_auto_skips_links_and_submits_and_drops_actions_that_navigate(tmp_path):
    (tmp_path / "other.html").write_text("<p>elsewhere</p>")
    page = tmp_path / "page.html"
    page.write_text("""<a id="away" href="other.html" onclick="void 0">away</a>
<form action="other.html"><button id="send" onclick="void 0">send</button></form>
<button id="jump" onclick="location.href = 'other.html'">jump</button>
<button id="stay">stay</button>
<img id="pic" src="data:," onload="void 0">
<script>document.getElementById('stay').addEventListener('click', () => { document.title = 'stayed'; });</script>""")
    assert auto_actions(page.as_uri(), 5, seed=0) == [{"click": "#stay"}]


def test_auto_types_only_into_fields_the_user_can_change(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("""<input id="code" value="A-1" readonly onkeydown="void 0">
<input id="off" disabled onkeydown="void 0"><input id="name" onkeydown="void 0">""")
    with plain_page(page.as_uri()) as shown:
        assert [(c.kind, c.selector) for c in candidates(shown)] == [("fill", "#name")]
