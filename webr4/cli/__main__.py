"""``python -m webr4.cli``: the same command line as the ``webr4`` script."""

from webr4.interrupts import main

main()
