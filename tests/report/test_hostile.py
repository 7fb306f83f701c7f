"""The report of the hostile site runs none of the site's script and shows its strings as text."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog

pytestmark = pytest.mark.browser


def test_no_report_page_runs_site_script(reports: dict[str, Path], browser: Browser) -> None:
    index = reports["hostile"]
    pages = [index, index.parent / "timeline.html", *sorted(index.parent.glob("reversal-*.html"))]
    assert len(pages) > 2
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    shown = ""
    for html in pages:
        page.goto(html.as_uri())
        page.wait_for_load_state("load")
        page.mouse.move(10, 10)
        scripts = page.evaluate("() => [...document.scripts].map(s => s.getAttribute('src') + '|' + s.text)")
        assert scripts == ["report.js|"], html.name
        assert page.locator("img[onerror], [href^='javascript:'], [src^='javascript:']").count() == 0
        shown += page.locator("body").inner_text()
    context.close()
    assert dialogs == []
    assert '"><img src=x onerror=alert(2)>' in shown  # the hostile strings are there, as text
