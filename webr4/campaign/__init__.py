"""A campaign: many flows of a suite checked in one command, each into a run of its own.

:mod:`webr4.campaign.sources` reads what a campaign runs (its entries) from a directory or a
campaign file, before anything runs; :mod:`webr4.campaign.run` runs them, one after another or on
a shared Dask cluster side by side, through :func:`webr4.checking.check` and
:func:`webr4.checking.explore_session`, and keeps ``campaign.json`` (:mod:`webr4.rundir.campaign`)
and the overview (:mod:`webr4.report.campaign`) up to date.
"""
