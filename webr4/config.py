"""Project settings for exploring: ``webr4.toml``, or ``[tool.webr4]`` in ``pyproject.toml``,
read from the working directory.

    [mask]
    selectors = ["#clock", ".ad"]      # DOM parts that vary on their own
    heap = ["window.stats"]            # heap paths that vary on their own
    rules = ["commute", "exception-diff", ...]   # classifier rules (default: all)

Command-line ``--mask``/``--mask-heap`` add to the file's masks; ``--rules`` replaces its rules.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    """The settings file is unreadable or malformed (one line)."""


@dataclass(frozen=True)
class Settings:
    mask_selectors: tuple[str, ...] = ()
    mask_heap: tuple[str, ...] = ()
    rules: tuple[str, ...] | None = None
    source: Path | None = field(default=None, compare=False)


def _strings(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of strings")
    return tuple(value)


def load_settings(directory: Path = Path(".")) -> Settings:
    """The settings of ``directory`` (empty when it has neither file)."""
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
        mask = table.get("mask", {})
        if not isinstance(mask, dict):
            raise ConfigError(f"{path}: [mask] must be a table")
        rules = _strings(table, "rules", str(path)) if "rules" in table else None
        return Settings(_strings(mask, "selectors", f"{path} [mask]"), _strings(mask, "heap", f"{path} [mask]"),
                        rules, path)
    return Settings()
