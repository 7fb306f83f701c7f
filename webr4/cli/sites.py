"""``webr4 sites``: the bundled sites with known races, listed or served, and the example tests
that check them through the pytest plugin."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import click

from webr4.cli.failures import Failure
from webr4.resources import resource_dir
from webr4.serve import serve


@click.group()
def sites() -> None:
    """The bundled sites with known races."""


@sites.command("list")
def sites_list() -> None:
    """Name, pattern and expected verdict of each bundled site."""
    for site in sorted(p for p in resource_dir("sites").iterdir() if (p / "expected.json").is_file()):
        expected = json.loads((site / "expected.json").read_text())
        verdict = "harmful" if expected.get("harmful") else "harmless"
        click.echo(f"{site.name:28} {verdict:9} {expected.get('pattern', '')}")


@sites.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
def sites_serve(port: int) -> None:
    """Serve the bundled sites on loopback until interrupted."""
    try:
        with serve(resource_dir("sites"), port) as base:
            click.echo(f"serving {resource_dir('sites')} at {base} (Ctrl-C to stop)")
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
    except OSError as error:
        raise Failure(f"cannot serve on port {port}: {error.strerror}; try --port 0") from None


@sites.command("example")
@click.argument("directory", type=click.Path(path_type=Path, file_okay=False))
def sites_example(directory: Path) -> None:
    """Copy the example tests (the pytest plugin's, and a flaky one for deflake) into DIRECTORY (new or empty)."""
    if directory.is_dir() and any(directory.iterdir()):
        raise Failure(f"{directory} is not empty; choose a new or empty directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for example in sorted(resource_dir("examples").glob("*/test_*.py")):
            shutil.copyfile(example, directory / example.name)
            click.echo(f"wrote {directory / example.name}")
    except OSError as error:
        raise Failure(f"cannot write into {directory}: {error.strerror}; choose another directory") from None
    click.echo(f"run them with: webr4 sites serve & pytest {directory}  (pytest: pip install 'webr4[pytest]')")
    click.echo(f"test_mail.py is flaky: webr4 deflake {directory / 'test_mail.py'} finds why and fixes it")
