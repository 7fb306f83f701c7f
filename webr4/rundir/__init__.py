"""What webr4 keeps on disk: the layout of its directories and the one reader and writer of each file.

One module per kind of file: :mod:`~webr4.rundir.execution` (the trace and end-state JSON, an
execution's files), :mod:`~webr4.rundir.session`, :mod:`~webr4.rundir.summary` (``summary.json``)
and :mod:`~webr4.rundir.run` (a run's directory).

Three kinds of directory, each a class here that names its paths:

* an **execution** (:class:`ExecutionFiles`): ``trace.json``, ``state.json``, ``screenshot.png``
  and, when it carries its own network, ``network.har``. ``webr4 run --out`` writes one, a
  session's ``seed/`` is one, and ``webr4 replay --traces DIR`` writes the traces of two,
  ``DIR/parent`` and ``DIR/child``;
* a **session** (:class:`SessionDir`, written by ``webr4 record``): ``session.json`` (the
  manifest, whose schema belongs to :class:`webr4.record.session.Session`), ``network.har`` and
  the seed execution ``seed/``;
* a **run** (:class:`RunDir`, written by ``webr4 explore``): ``summary.json`` (:class:`Summary`),
  ``webr4.sqlite`` (the store of every explored trace and end state, :mod:`webr4.sweep.store`),
  ``noise.json``, ``sequences/<n>/`` (``state.png``, ``diff.json``, ``diff.png``),
  ``reversals/<id>/`` (the :class:`Witness`) and ``report/``; ``webr4 check`` keeps its session in
  ``session/``.

A trace is one JSON schema wherever it is kept (a file or the store): :meth:`Trace.to_json
<webr4.trace.Trace.to_json>` plus ``sequence``, the executed event ids, so that every
``trace.json`` is also a plan for ``webr4 run --sequence``. An end state is one schema too:
:meth:`StateSnapshot.to_json <webr4.state.snapshot.StateSnapshot.to_json>`, whose ``screenshot``
is a PNG file named relative to the JSON file (null in the store, which keeps the PNG beside it).

Paths written into a run are relative to it, so a run directory moved or copied with its
session still reads. Readers accept what earlier versions wrote: traces without ``sequence``,
summaries without the keys added since.
"""

