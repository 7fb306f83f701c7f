"""What webr4 keeps on disk: the layout of its directories and the one reader and writer of each
file, a module per kind.

* an **execution** (:class:`~webr4.rundir.execution_files.ExecutionFiles`): ``trace.json``,
  ``state.json``, ``screenshot.png`` and, when it carries its own network, ``network.har``.
  ``webr4 run --out`` writes one, a session's ``seed/`` is one, and ``webr4 replay --traces DIR``
  writes the traces of two, ``DIR/parent`` and ``DIR/child``. :mod:`webr4.rundir.execution_files`
  also holds the one trace JSON and end-state JSON schema, wherever they are kept (a file or the
  store);
* a **session** (:class:`~webr4.rundir.session.SessionDir`, written by ``webr4 record``):
  ``session.json`` (the manifest, whose schema belongs to
  :class:`webr4.record.session.Session`), ``network.har`` and the seed execution ``seed/``;
* a **run** (:class:`~webr4.rundir.run.RunDir`, written by ``webr4 explore``): ``summary.json``
  (:class:`~webr4.rundir.summary.Summary`), ``webr4.sqlite`` (the store of every explored trace
  and end state, :mod:`webr4.rundir.store`), ``noise.json``, ``sequences/<n>/`` (``state.png``,
  ``diff.json``, ``diff.png``), ``reversals/<id>/`` (the :class:`~webr4.rundir.run.Witness`) and
  ``report/``; ``webr4 check`` keeps its session in ``session/``;
* a **campaign** (:class:`~webr4.rundir.campaign.CampaignDir`, written by ``webr4 campaign``):
  ``campaign.json`` (:class:`~webr4.rundir.campaign.Campaign`), a run per entry in
  ``sessions/<name>/`` and the overview ``report/index.html``.

Paths written into a run are relative to it, so a run directory moved or copied with its
session still reads. Readers accept what earlier versions wrote: traces without ``sequence``,
summaries without the keys added since.
"""
