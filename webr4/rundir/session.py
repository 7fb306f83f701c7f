"""A session directory, written by ``webr4 record``: ``session.json`` (the manifest, whose
schema belongs to :class:`webr4.record.session.Session`), ``network.har`` and the seed
execution ``seed/``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from webr4.rundir.execution_files import ExecutionFiles


@dataclass(frozen=True)
class SessionDir:
    """The files of the session directory ``directory``."""

    directory: Path

    @property
    def manifest(self) -> Path:
        return self.directory / "session.json"

    @property
    def network(self) -> Path:
        return self.directory / "network.har"

    @property
    def seed(self) -> ExecutionFiles:
        return ExecutionFiles(self.directory / "seed")

    @property
    def recorded(self) -> bool:
        """Whether a session was recorded here (its manifest exists)."""
        return self.manifest.is_file()

    def missing(self) -> list[str]:
        """What a replay needs and the directory lacks, as paths relative to it."""
        needed = (self.network, self.seed.trace)
        return [path.relative_to(self.directory).as_posix() for path in needed if not path.is_file()]
