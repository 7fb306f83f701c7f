"""Recording a session: a URL and user actions in, a session directory out.

:mod:`webr4.record.session` records and holds the session's on-disk form;
:mod:`webr4.record.steps` says where the user actions come from: a list as it is,
:mod:`webr4.record.scripted` from a Playwright script or test, or :mod:`webr4.record.auto`,
which chooses them itself from the page's event handlers.
"""
