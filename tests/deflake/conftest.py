# project/ is a user's Playwright project that the deflake tests copy and run: not tests of webr4.
collect_ignore = ["project"]
