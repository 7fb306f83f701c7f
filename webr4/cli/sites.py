"""``webr4 sites``: the bundled sites with known races, listed or served."""

from __future__ import annotations

import json
import time

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
