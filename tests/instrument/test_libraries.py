"""Real libraries, rewritten: they still parse, and behave the same in a jsdom window.

The libraries and jsdom are installed with npm into the pytest cache (once); the tests are
skipped with a message when npm or the registry is not reachable.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from jsrun import NODE

from webr4.browser.accesslogs import access_log_source
from webr4.instrument import rewrite

RUNNER = Path(__file__).with_name("lib_runner.js")


LIBRARY_FILES = {
    "jquery": ["jquery/dist/jquery.js"],
    "react": ["react/umd/react.development.js", "react-dom/umd/react-dom.development.js"],
    "react-min": ["react/umd/react.production.min.js", "react-dom/umd/react-dom.production.min.js"],
    "vue": ["vue/dist/vue.global.js"],
}

SCENARIOS = {
    "jquery": """
      (function () {
        var $ = window.jQuery, out = [];
        var box = $("<div class='box'><p>one</p><p class='two'>two</p></div>").appendTo("#root");
        box.find("p").addClass("seen").attr("data-n", function (i) { return i * 2; });
        box.on("click", "p", function (e) { out.push("click:" + $(this).text() + ":" + e.type); });
        box.find(".two").trigger("click");
        box.data("k", { deep: [1, 2] });
        out.push(JSON.stringify($.extend(true, {}, { a: { b: 1 } }, { a: { c: 2 } })));
        out.push($.map([1, 2, 3], function (v) { return v * 3; }).join());
        var d = $.Deferred(); d.done(function (v) { out.push("done:" + v); }).resolve(7);
        out.push(box.data("k").deep.length, $.trim("  x "), $.isPlainObject({}), $.type([]));
        out.push(document.getElementById("root").innerHTML);
        return out;
      })()""",
    "react": """
      (function () {
        var e = React.createElement, log = [];
        function Counter(props) {
          var state = React.useState(props.start);
          React.useEffect(function () { log.push("effect " + state[0]); });
          return e("button", { id: "b", onClick: function () { state[1](state[0] + 1); } }, "n=" + state[0]);
        }
        class List extends React.Component {
          render() { return e("ul", null, this.props.items.map(function (x) { return e("li", { key: x }, x); })); }
        }
        var root = document.getElementById("root");
        ReactDOM.flushSync(function () {
          ReactDOM.createRoot(root).render(e("div", null, e(Counter, { start: 3 }), e(List, { items: ["a", "b"] })));
        });
        ReactDOM.flushSync(function () { document.getElementById("b").click(); });
        return [root.innerHTML, log];
      })()""",
    "vue": """
      (async function () {
        var app = Vue.createApp({
          data() { return { items: ["x", "y"], count: 1 }; },
          computed: { doubled() { return this.count * 2; } },
          template: "<div><span v-for='i in items' :key='i'>{{ i }}</span><b>{{ doubled }}</b></div>",
        });
        var vm = app.mount("#root");
        var before = document.getElementById("root").innerHTML;
        vm.count = 5; vm.items.push("z");
        await Vue.nextTick();
        var reactive = Vue.reactive({ n: 1 }), seen = [];
        Vue.watchEffect(function () { seen.push(reactive.n); });
        reactive.n = 2;
        await Vue.nextTick();
        return [before, document.getElementById("root").innerHTML, seen];
      })()""",
}
SCENARIOS["react-min"] = SCENARIOS["react"]


def _run(npm_dir: Path, files: list[str], scenario: str, log: bool) -> dict[str, object]:
    completed = subprocess.run(
        [NODE, str(RUNNER), str(npm_dir)],
        input=json.dumps({"files": files, "scenario": scenario, "log": log, "accessLog": access_log_source()}),
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


@pytest.mark.slow  # installs the libraries from npm, then rewrites and runs each in node
@pytest.mark.parametrize("library", sorted(LIBRARY_FILES))
def test_library_parses_and_behaves_the_same(npm_dir: Path, library: str, tmp_path: Path) -> None:
    modules = npm_dir / "node_modules"
    plain = [(modules / name).read_text(encoding="utf-8") for name in LIBRARY_FILES[library]]
    rewritten = []
    for index, (name, source) in enumerate(zip(LIBRARY_FILES[library], plain)):
        start = time.perf_counter()
        result = rewrite(source, name, script_id=str(index))
        print(f"{name}: {len(source)} bytes rewritten in {time.perf_counter() - start:.2f} s")
        assert result.code.count("\n") == source.count("\n")
        target = tmp_path / f"{index}.js"
        target.write_text(result.code, encoding="utf-8")
        check = subprocess.run([NODE, "--check", str(target)], capture_output=True, text=True, check=False)
        assert check.returncode == 0, check.stderr
        rewritten.append(result.code)
    expected = _run(npm_dir, plain, SCENARIOS[library], log=False)
    actual = _run(npm_dir, rewritten, SCENARIOS[library], log=True)
    assert not str(expected["result"]).startswith("THROWN"), expected
    assert actual["result"] == expected["result"]
    accesses = actual["accesses"]
    assert isinstance(accesses, int) and accesses > 100
