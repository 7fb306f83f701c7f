"""``python -m webr4``: the same command line as the ``webr4`` script."""

from webr4.interrupts import main

main()
