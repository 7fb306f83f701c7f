"""A sweep's settings: one value built from the settings file and overrides, stored in the run as it
is, and read back by ``--resume``, also from a run an earlier webr4 stored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from webr4.config import Settings
from webr4.record.session import Session
from webr4.state.noise import NoiseMask
from webr4.sweep.explore import reserve, stored_settings
from webr4.sweep.settings import SweepSettings
from webr4.rundir.store import RunStore

OLD_RUN = Path(__file__).parent / "old_run"


def test_settings_round_trip_through_their_stored_form() -> None:
    settings = SweepSettings(bound=None, max_sequences=7, budget=90.0, order="plan",
                             mask=NoiseMask.from_options(["#clock"], ["window.stats"]), rules=("commute",),
                             filters=("same-value",), exhaustive=True)
    assert SweepSettings.from_json(settings.to_json()) == settings


def test_a_run_stored_before_budgets_resumes_with_its_own_settings(tmp_path: Path) -> None:
    old = Path(shutil.copytree(OLD_RUN, tmp_path / "run"))
    store = RunStore.open(old)
    try:
        settings = stored_settings(store, Session.load(old / "session"))
    finally:
        store.close()
    assert settings == SweepSettings(max_sequences=3)


def test_reserve_stores_the_settings_and_where_the_session_is(tmp_path: Path) -> None:
    session = Session.load(Path(shutil.copytree(OLD_RUN / "session", tmp_path / "session")))
    settings = SweepSettings(bound=2, strategy="delay", time_limit=30.0, rules=())
    store = reserve(tmp_path / "run", session.directory, settings)
    try:
        assert store.get("settings")["session"] == "../session"
        assert stored_settings(store, session) == settings
    finally:
        store.close()


def test_the_settings_file_gives_defaults_that_overrides_win_over() -> None:
    file = Settings(mask_selectors=("#clock",), mask_heap=("window.stats",), rules=("commute",),
                    explore={"bound": 2, "max-sequences": 50, "budget": "5m", "workers": 3})
    settings = SweepSettings.from_settings(file, mask=NoiseMask.from_options([".ad"]), bound=3)
    assert settings == SweepSettings(bound=3, max_sequences=50, budget=300.0, rules=("commute",),
                                     mask=NoiseMask.from_options(["#clock", ".ad"], ["window.stats"]))
    assert SweepSettings.from_settings(Settings()) == SweepSettings()


@pytest.mark.parametrize("wrong", [{"budget": 60.0, "strategy": "delay"}, {"order": "random"}])
def test_settings_no_sweep_can_run_with_are_refused(wrong: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SweepSettings(**wrong)  # type: ignore[arg-type]
