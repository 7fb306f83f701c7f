"""The judgement of two forced plain runs against what webr4 reported."""

from __future__ import annotations

from webr4.witness.confirm import CONFIRMED, NOT_REPRODUCED, REPRODUCED, judge

PRICE = '#price: data-source "member" → "list", "$39.00" → "$49.00"'
SHOT = "245 pixels changed in 18×22 at (95, 97)"


def test_a_harmful_difference_seen_in_plain_chromium_is_confirmed_with_the_items_found():
    plain = {"dom": [PRICE], "screenshot": ["9 pixels changed"]}
    verdict = judge("harmful", {"dom": [PRICE], "screenshot": [SHOT]}, plain)
    assert verdict.status == CONFIRMED
    assert verdict.matched == {"dom": [PRICE], "screenshot": [SHOT]}


def test_an_unhandled_rejection_matches_the_uncaught_error_a_plain_page_reports_for_it():
    reported = {"exceptions": ["new formatMoney is not defined"]}
    plain = {"exceptions": ["new Uncaught ReferenceError: formatMoney is not defined at /fetch/:25:16"]}
    assert judge("harmful", reported, plain).status == CONFIRMED
    assert judge("harmful", reported, {"exceptions": ["gone Uncaught ReferenceError: formatMoney is not defined"]}
                 ).status == NOT_REPRODUCED


def test_a_screenshot_alone_does_not_confirm_a_dom_difference():
    verdict = judge("harmful", {"dom": [PRICE], "screenshot": [SHOT]}, {"screenshot": [SHOT]})
    assert verdict.status == NOT_REPRODUCED
    assert "#price" in verdict.line and "screenshot" in verdict.line


def test_a_harmless_reversal_is_never_confirmed_even_when_its_difference_reproduces():
    assert judge("harmless", {"dom": [PRICE]}, {"dom": [PRICE]}).status == REPRODUCED


def test_a_difference_only_the_plain_runs_show_is_named():
    verdict = judge("harmless", {}, {"dom": ['body: class "dark" → (none)']})
    assert verdict.status == NOT_REPRODUCED and 'class "dark"' in verdict.line
