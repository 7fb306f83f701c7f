"""The words exchanged between the page's runtime, the engine and summary.json are one vocabulary."""

from __future__ import annotations

import re

import click

from webr4.cli import main
from webr4.engine import plans
from webr4.browser.runtime import runtime_source
from webr4.trace import SERVICE_WORKER_REGISTRATION
from webr4.vocabulary import StopReason, Truncation


def test_the_runtime_stops_a_stretch_at_the_horizon_with_the_python_word():
    runtime = runtime_source()
    sent = set(re.findall(r'\bstop\("([\w-]+)"', runtime))
    assert Truncation.HORIZON.value in sent


def test_the_runtime_names_service_worker_registrations_with_the_python_word():
    assert f'type: "{SERVICE_WORKER_REGISTRATION}"' in runtime_source()


def test_budget_stop_reasons_are_spelled_as_the_options_that_set_them():
    explore = main.get_command(click.Context(main), "explore")
    assert explore is not None
    explore_options = {option for param in explore.params for option in param.opts}
    budgets = {StopReason.MAX_SEQUENCES, StopReason.TIME_LIMIT}
    assert {f"--{reason.value}" for reason in budgets} <= explore_options
    assert {plans.MAX_SEQUENCES, plans.TIME_LIMIT} == budgets
