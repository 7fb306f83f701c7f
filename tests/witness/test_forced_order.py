"""A plain run counts as forcing its order only when the racing pair's signs came in that order:
a lever that did not hold (a window load nothing held back) is said, never judged as a result."""

from __future__ import annotations

from webr4.witness.plain import LOAD, STEP, _Observed, _unforced

STEP_THEN_LOAD = [{"kind": STEP, "target": "0"}, {"kind": LOAD, "target": ""}]


def _seen(*signs: tuple[str, str]) -> _Observed:
    observed = _Observed()
    for kind, target in signs:
        observed.see(kind, target)
    return observed


def test_the_forced_order_passes() -> None:
    assert _unforced(STEP_THEN_LOAD, _seen((STEP, "0"), (LOAD, ""))) is None
    assert _unforced(STEP_THEN_LOAD, _seen((STEP, "0"))) is None  # the second never came: nothing contradicts


def test_the_second_event_first_is_an_order_not_forced() -> None:
    assert _unforced(STEP_THEN_LOAD, _seen((LOAD, ""), (STEP, "0"))) == (
        "the document's load event has fired before step 1 is done in plain Chromium: no lever held it back")
    assert _unforced(STEP_THEN_LOAD, _seen((LOAD, ""))) is not None


def test_a_sign_seen_again_keeps_its_first_place() -> None:
    assert _unforced(STEP_THEN_LOAD, _seen((STEP, "0"), (LOAD, ""), (STEP, "0"))) is None
