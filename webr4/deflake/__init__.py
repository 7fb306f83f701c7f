"""``webr4 deflake``: a flaky Playwright test, its failing event order, and a fix proven to work.

A pytest test that drives Playwright's ``page`` runs once as it is (:mod:`.recorder`); its actions
*and its observations* (reads of the page, web-first assertions) become the steps of a session,
which webr4 records and explores like any other. In every explored order the test itself is the
oracle (:mod:`.oracle`): it runs again against what its reads saw in that order. An order the
test fails in is diagnosed (:mod:`.diagnosis`), a change to the test is proposed in Playwright's
own idiom (:mod:`.fixes`) and offered only once proven: explored again with no failing order,
and passing in plain Chromium under the slow response that makes the original fail
(:mod:`.adversary`).
"""
