"""Real libraries in Chromium: pages built on jQuery, React and Vue end in the same DOM whether
their scripts are instrumented or not, without exceptions, and instrumented they log accesses.

The libraries come from the npm registry, installed into the pytest cache directory that
``tests/instrument/test_libraries.py`` also uses (so one install serves both); the tests are
skipped with a message when npm or the registry is not reachable. The pages are generated into a
temporary directory, so the bundled sites stay race demos.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import pytest

from webr4.browser.actions import parse_actions
from webr4.execution import Capture, Execution
from webr4.serve import serve
from webr4.trace import Trace

pytestmark = pytest.mark.browser


LIBRARIES = {
    "jquery": ["jquery/dist/jquery.js"],
    "react": ["react/umd/react.production.min.js", "react-dom/umd/react-dom.production.min.js"],
    "vue": ["vue/dist/vue.global.js"],
    "vue-prod": ["vue/dist/vue.global.prod.js"],
}
"""Per page, the UMD / global builds it loads, relative to ``node_modules``."""

APPS = {
    "jquery": """
$(function () {
  var fruit = ["apple", "pear"];
  var list = $("<ul id='list'></ul>").appendTo("#app");
  $.each(fruit, function (i, name) { $("<li>").text(name).attr("data-i", i).appendTo(list); });
  var count = $("<p id='count'></p>").text("0 clicks").appendTo("#app");
  var clicks = 0;
  $("<button id='add'>Add</button>").appendTo("#app").on("click", function () {
    clicks += 1;
    $("<li>").text("plum " + clicks).addClass("new").appendTo(list);
    count.text(clicks + " clicks");
  });
});
""",
    "react": """
(function () {
  var e = React.createElement;
  function App() {
    var state = React.useState(0), clicks = state[0], setClicks = state[1];
    var items = ["apple", "pear"];
    for (var i = 1; i <= clicks; i++) items.push("plum " + i);
    return e("div", null,
      e("ul", { id: "list" }, items.map(function (name) { return e("li", { key: name }, name); })),
      e("p", { id: "count" }, clicks + " clicks"),
      e("button", { id: "add", onClick: function () { setClicks(clicks + 1); } }, "Add"));
  }
  ReactDOM.createRoot(document.getElementById("app")).render(e(App));
})();
""",
    "vue": """
Vue.createApp({
  data: function () { return { items: ["apple", "pear"], clicks: 0 }; },
  methods: { add: function () { this.clicks += 1; this.items.push("plum " + this.clicks); } },
  template: "<ul id='list'><li v-for='name in items' :key='name'>{{ name }}</li></ul>"
    + "<p id='count'>{{ clicks }} clicks</p><button id='add' @click='add'>Add</button>",
}).mount("#app");
""",
}
"""Per library, the application: a list, a counter and a button that adds to both. A page
``<library>-<variant>`` runs the application of ``<library>`` on another build."""

ACTIONS = [{"wait": 200}, {"click": "#add"}, {"click": "#add"}]
RENDERED = ("plum 2", "2 clicks")
"""Text the final DOM holds once the page rendered and handled both clicks."""


@pytest.fixture(scope="session")
def node_modules(npm_dir: Path) -> Path:
    """``node_modules`` of the shared npm install, holding every file of :data:`LIBRARIES`."""
    modules = npm_dir / "node_modules"
    missing = [name for files in LIBRARIES.values() for name in files if not (modules / name).is_file()]
    if missing:
        pytest.skip(f"the npm install lacks {missing[0]}")
    return modules


def build_pages(root: Path, modules: Path) -> None:
    """One folder per library under ``root``: its builds, ``app.js`` and an ``index.html``."""
    for library, files in LIBRARIES.items():
        page = root / library
        page.mkdir()
        tags = []
        for name in files:
            shutil.copyfile(modules / name, page / Path(name).name)
            tags.append(f'<script src="{Path(name).name}"></script>')
        (page / "app.js").write_text(APPS[library.split("-")[0]], encoding="utf-8")
        (page / "index.html").write_text(
            f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{library} smoke test</title>\n"
            + "\n".join(tags)
            + "\n</head><body><div id='app'></div><script src='app.js'></script></body></html>\n",
            encoding="utf-8",
        )


@pytest.fixture(scope="module")
def pages_url(node_modules: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("library-pages")
    build_pages(root, node_modules)
    with serve(root) as base:
        yield base


def logged_accesses(trace: Trace) -> int:
    return sum(len(step.accesses) for step in trace.steps)


def exceptions(execution: Execution) -> list[str]:
    return [error.message for error in execution.trace.errors if error.kind == "exception"]


@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_library_page_ends_the_same_instrumented_and_plain(pages_url: str, driver, library: str) -> None:
    url = f"{pages_url}{library}/"
    plain = driver.execute(url, actions=parse_actions(ACTIONS), capture=Capture(rewrite_scripts=False))
    instrumented = driver.execute(url, actions=parse_actions(ACTIONS), capture=Capture())
    for execution in (plain, instrumented):
        assert exceptions(execution) == []
        assert execution.trace.truncated is None
        assert all(text in execution.dom for text in RENDERED), execution.dom
    assert instrumented.dom == plain.dom
    assert logged_accesses(instrumented.trace) > logged_accesses(plain.trace)
