"""A file webr4 writes for the user is written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from webr4.rundir.outputs import write_atomically


def test_a_write_that_fails_leaves_the_old_file_and_no_part_of_the_new(tmp_path: Path) -> None:
    target = tmp_path / "junit.xml"
    target.write_text("old")

    def half_then_full_disk(temporary: Path) -> None:
        temporary.write_text("<testsuites")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_atomically(target, half_then_full_disk)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["junit.xml"]
    write_atomically(target, "new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["junit.xml"]
