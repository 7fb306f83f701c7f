"""``python -m webr4``: the same command line as the ``webr4`` script."""

from webr4.cli import main

main(prog_name="webr4")
