"""Recording a session: a URL and user actions in, a session directory out.

:mod:`webr4.record.session` records from a list of actions and holds the session's on-disk
form; :mod:`webr4.record.scripted` records from a Playwright script or test;
:mod:`webr4.record.auto` chooses the actions itself from the page's event handlers.
"""
