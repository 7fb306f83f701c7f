"""Project settings: ``webr4.toml``, or ``[tool.webr4]`` in ``pyproject.toml``, read from the
working directory.

    browser = "/usr/bin/chromium"       # the Chromium to drive
    rules = ["commute", "exception-diff"]  # classifier rules (default: all)

    [mask]
    selectors = ["#clock", ".ad"]      # DOM parts that vary on their own
    heap = ["window.stats"]            # heap paths that vary on their own

    [explore]                          # defaults of `explore`, `check` and `campaign`
    bound = 1
    strategy = "r4"
    workers = 2
    max-sequences = 200
    time-limit = 600
    budget = "5m"                      # anytime: likely harm first, bound by bound (90s, 5m, 1h)
    exhaustive = false                 # true: run every reversal, not one per group racing through one pair of sites
    progress = "json"
    cluster = "tcp://scheduler:8786"
    confirm = "harmful"                # reversals checked in plain Chromium: none, harmful, all
    fail-on = "harmful"                # exit 1 on any harmful reversal, or on "confirmed" ones only

    [record]                           # defaults of `record`, `check`, `campaign` (and `run`'s limits)
    seed = 0
    horizon = 60000
    max-events = 5000
    event-timeout = 10
    parse-chunks = "yield"             # or "element": R4's adversarial parse chunks
    chunk-kb = 16                      # data-arrival interval of the "yield" model
    step-wait = 30000                  # virtual ms a user step waits for an actionable target
    block-service-workers = true       # false: let the page's service workers run (uncontrolled)

Every setting is also a command-line option, which wins over the file: a file value that
conflicts with an option given on the command line is dropped. Command-line ``--mask``/``--mask-heap``
add to the file's masks; ``--rules`` replaces its rules. :data:`SETTINGS` lists every key. This
module checks the file's form (its tables and keys) and the values of the keys outside
``[explore]`` and ``[record]``; the command that runs checks each of those with the type of its
option (:mod:`webr4.cli.file_defaults`), as it checks the command line's.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webr4.errors import Webr4Error


class DurationError(Webr4Error, ValueError):
    """Text that is not a duration above 0 with its unit (``90s``, ``5m``, ``1h``)."""


class ConfigError(Webr4Error):
    """The settings file is unreadable or malformed (one line)."""


@dataclass(frozen=True)
class Setting:
    """A key of the settings file: ``name`` in the table ``section`` (``""``: the top level).

    A key of ``[explore]`` or ``[record]`` is the default of the option of its name (dashes
    kept: ``max-sequences`` is ``--max-sequences``) of the commands that section names
    (:meth:`Settings.default_map`); that option checks its value and its help says what it is.
    Any other key is checked here: ``option`` names the option it stands for, ``value`` what it
    must hold, ``default`` what holds without it and ``doc`` what it is for."""

    section: str
    name: str
    option: str = ""
    value: str = ""
    default: str = ""
    doc: str = ""

    @property
    def is_option_default(self) -> bool:
        """Whether the key is an option's default, checked by that option."""
        return self.section in OPTION_SECTIONS


OPTION_SECTIONS = ("explore", "record")
"""The tables whose keys are the defaults of the options of their names."""

SETTINGS: tuple[Setting, ...] = (
    Setting("", "browser", "--browser", "a path", "`WEBR4_CHROMIUM`, then `/usr/bin/chromium`, then Playwright's",
            "the Chromium binary to drive; `--browser` and `WEBR4_CHROMIUM` win over it"),
    Setting("", "rules", "--rules", "a list of strings", "all the rules",
            "the classifier rules to use; `--rules` replaces them"),
    Setting("mask", "selectors", "--mask", "a list of strings", "none",
            "the parts of the DOM that vary on their own (`#clock`, `.ad`), left out of every comparison; "
            "`--mask` adds to them"),
    Setting("mask", "heap", "--mask-heap", "a list of strings", "none",
            "the heap paths that vary on their own (`window.stats`); `--mask-heap` adds to them"),
    *(Setting("explore", name) for name in ("bound", "strategy", "workers", "max-sequences", "time-limit", "budget",
                                            "exhaustive", "progress", "cluster", "confirm", "fail-on")),
    *(Setting("record", name) for name in ("seed", "horizon", "max-events", "event-timeout", "parse-chunks",
                                           "chunk-kb", "step-wait", "block-service-workers")),
)
"""Every key the settings file may hold, in the order the documentation lists them."""


def _keys(section: str) -> frozenset[str]:
    return frozenset(setting.name for setting in SETTINGS if setting.section == section)


EXPLORE_KEYS, RECORD_KEYS, _MASK_KEYS = _keys("explore"), _keys("record"), _keys("mask")
_TOP_KEYS = _keys("") | {setting.section for setting in SETTINGS if setting.section}


_DURATION = re.compile(r"(?P<amount>\d+(?:\.\d+)?)(?P<unit>[smh])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}


def parse_duration(text: str) -> float:
    """The seconds of a duration such as ``90s``, ``5m``, ``1.5h``: a number above 0 and a unit,
    and a finite number of seconds. Raises :class:`DurationError` naming the problem and what to
    write instead."""
    match = _DURATION.fullmatch(text.strip())
    if match is None:
        raise DurationError(f"{text!r} is not a duration; write a number and a unit: 90s, 5m or 1h")
    seconds = float(match["amount"]) * _UNIT_SECONDS[match["unit"]]
    if seconds <= 0:
        raise DurationError(f"{text!r} is no time at all; give a duration above 0, such as 90s, 5m or 1h")
    if not math.isfinite(seconds):
        raise DurationError(f"{text!r} is too long to count; give a duration such as 90s, 5m or 1h")
    return seconds


@dataclass(frozen=True)
class Settings:
    mask_selectors: tuple[str, ...] = ()
    mask_heap: tuple[str, ...] = ()
    rules: tuple[str, ...] | None = None
    browser: Path | None = None
    explore: dict[str, Any] = field(default_factory=dict)  # option name (with dashes) -> default
    record: dict[str, Any] = field(default_factory=dict)
    source: Path | None = field(default=None, compare=False)

    def default_map(self) -> dict[str, dict[str, Any]]:
        """Option defaults per command, in click's ``default_map`` form."""
        explore = {key.replace("-", "_"): value for key, value in self.explore.items()}
        record = {key.replace("-", "_"): value for key, value in self.record.items()}
        limits = {key: value for key, value in record.items() if key != "seed"}
        return {"explore": explore, "record": record, "check": record | explore, "campaign": record | explore,
                "run": limits | ({"seed": record["seed"]} if "seed" in record else {})}


def _strings(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of strings")
    return tuple(value)


def load_settings(directory: Path = Path(".")) -> Settings:
    """The settings of ``directory`` (empty when it has neither file). Raises :class:`ConfigError`
    for a file that cannot be read or whose tables and keys are not those above; the values of
    ``[explore]`` and ``[record]`` are left to the options they are defaults of."""
    for path, section in ((directory / "webr4.toml", ()), (directory / "pyproject.toml", ("tool", "webr4"))):
        if not path.is_file():
            continue
        try:
            table: Any = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise ConfigError(f"cannot read {path}: {error}") from None
        for key in section:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        if not table:
            continue
        _known(table, _TOP_KEYS, str(path))
        mask = _table(table, "mask", path)
        rules = _strings(table, "rules", str(path)) if "rules" in table else None
        browser = table.get("browser")
        if browser is not None and not isinstance(browser, str):
            raise ConfigError(f"{path}: 'browser' must be a path string")
        _known(mask, _MASK_KEYS, f"{path} [mask]")
        explore, record = _table(table, "explore", path), _table(table, "record", path)
        _known(explore, EXPLORE_KEYS, f"{path} [explore]")
        _known(record, RECORD_KEYS, f"{path} [record]")
        return Settings(_strings(mask, "selectors", f"{path} [mask]"), _strings(mask, "heap", f"{path} [mask]"),
                        rules, Path(browser) if browser else None, explore, record, path)
    return Settings()


def _table(table: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = table.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [{key}] must be a table")
    return value


def _known(table: dict[str, Any], keys: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        raise ConfigError(f"{where}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(keys))}")
