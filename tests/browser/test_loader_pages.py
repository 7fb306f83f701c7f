"""Pages that boot through a loader or polyfills load under webr4 as in plain Chromium.

* A boot loader that writes a style sheet and then a script (Enyo's): while the written style
  sheet loads, Chromium leaves the rest of the written markup unparsed until the writing script
  returns, then inserts the written script before anything of the document's own. The runtime
  must still know that script as written, and have it released, or the parse chunk waits forever;
  and a script in a written ``<noscript>``, text for the page, is none of them.
* Polyfills that put constructors of their own in the globals (a Shadow DOM polyfill's wrappers
  for ``Event``, ``HTMLScriptElement``, …): no element the browser made is an instance of them, and
  the native ``dispatchEvent`` refuses their events. The runtime must know a dynamic script and
  dispatch DOMContentLoaded, load and element loads with the browser's own constructors.
* Components that finish their set-up in an animation frame (Polymer's ``ready`` → ``async``):
  the frame runs before the paint that shows the component, so before a person, or Playwright,
  can type into it. A user step waits for it as for any page work due, but for an animation loop.
"""

from __future__ import annotations

import threading

import pytest

from webr4.browser.actions import parse_actions
from webr4.browser.responses import ResponseStore
from webr4.execution import Capture

from ..route_server import route_server

pytestmark = pytest.mark.browser

OUT = "document.getElementById('out').textContent"

WRITTEN_STYLE_SHEET = {
    "/": ("text/html", b'<!doctype html><p id="out">waiting</p>'
                       b'<div><script src="/boot.js"></script><script src="/app.js"></script></div>'),
    "/boot.js": ("text/javascript", b'window.order = ["boot"];\n'
                 b'document.write(\'<link href="/style.css" rel="stylesheet">\');\n'
                 b'document.write(\'<noscript><script src="/never.js"><\\/script></noscript>\');\n'
                 b'document.write(\'<script src="/module.js"><\\/script>\');\n'
                 b'order.push("scripts " + document.scripts.length);'),
    "/style.css": ("text/css", b"p { color: green }"),
    "/module.js": ("text/javascript", b'order.push("module");'),
    "/app.js": ("text/javascript",
                b'order.push("app"); document.getElementById("out").textContent = order.join(", ");'),
}

POLYFILLED_GLOBALS = {
    "/": ("text/html", b"""<!doctype html><p id="out">waiting</p><img src="/pixel.gif">
<script>
  var order = [];
  // As a Shadow DOM polyfill does: wrappers of its own where the browser's constructors were.
  for (const name of ["Event", "HTMLScriptElement", "HTMLImageElement", "HTMLLinkElement"]) {
    window[name] = function Wrapper() {};
  }
  const script = document.createElement("script");
  script.src = "/dynamic.js";
  script.onload = () => order.push("dynamic loaded");
  document.head.appendChild(script);
  document.querySelector("img").onload = () => order.push("image loaded");
  document.addEventListener("DOMContentLoaded", () => order.push("DOMContentLoaded"));
  window.addEventListener("load", () => {
    order.push("load");
    // What ran, not in which order: the dynamic script races the parser in both browsers.
    setTimeout(() => { document.getElementById("out").textContent = order.sort().join(", "); }, 20);
  });
</script>"""),
    "/dynamic.js": ("text/javascript", b'order.push("dynamic");'),
    "/pixel.gif": ("image/gif", bytes.fromhex("47494638396101000100800000ffffff00000021f904010000"
                                              "00002c00000000010001000002024401003b")),
}


SET_UP_IN_A_FRAME = {
    "/": ("text/html", b"""<!doctype html><p id="out">waiting</p><script src="/component.js" async></script>"""),
    "/component.js": ("text/javascript", b"""
  // The component's input appears now; its model is set up in the next frame, as Polymer's is.
  let items = null;
  const input = document.createElement("input");
  input.id = "new-todo";
  document.body.appendChild(input);
  requestAnimationFrame(() => { items = []; });
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    items.push(input.value);
    document.getElementById("out").textContent = items.join(", ");
  });"""),
}
TYPED = [{"fill": "#new-todo", "value": "Buy milk"}, {"press": "#new-todo", "key": "Enter"}]


def test_a_user_step_waits_for_a_frame_that_sets_a_component_up(driver):
    async def typed(page):
        await page.goto(url, wait_until="load")
        for step in parse_actions(TYPED):
            await step.perform(page, 5_000)
        return await page.evaluate(OUT)

    with route_server(SET_UP_IN_A_FRAME.get) as base:
        url = base + "/"
        plain = driver.in_plain_chromium(typed)
        execution = driver.execute(url, actions=parse_actions(TYPED), store=ResponseStore(), live_network=True,
                                   capture=Capture())
    assert plain == "Buy milk"
    assert not execution.trace.errors
    assert plain in execution.dom


@pytest.mark.parametrize("files", [WRITTEN_STYLE_SHEET, POLYFILLED_GLOBALS],
                         ids=["written-style-sheet", "polyfilled-globals"])
def test_loader_pages_end_as_in_plain_chromium(driver, files):
    with route_server(files.get) as base:
        url = base + "/"
        plain = driver.plain(url, OUT, until=f"{OUT} !== 'waiting'")
        execution = driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
    assert execution.trace.truncated is None
    assert not execution.trace.errors
    assert plain != "waiting"
    assert plain in execution.dom


def _data_url_chain(links: int) -> dict[str, tuple[str, bytes]]:
    """A page that runs modules as an HTML-imports polyfill does: each from a ``data:`` URL in a
    script element of its own, the next inserted once the last has loaded, while a script of the
    network (its response given once the chain has ended) loads beside them."""
    page = """<!doctype html><p id="out">waiting</p>
<script>
  var order = [];
  function run(i) {
    if (i === LINKS) { order.push("chain"); fetch("/chain-ended"); return; }
    var module = document.createElement("script");
    module.src = "data:text/javascript;base64," + btoa("order.push(" + i + ")");
    module.onload = function () { module.remove(); run(i + 1); };
    document.head.appendChild(module);
  }
  run(0);
  var library = document.createElement("script");
  library.src = "/library.js";
  document.head.appendChild(library);
  window.addEventListener("load", function () { document.getElementById("out").textContent = order.join(" "); });
</script>""".replace("LINKS", str(links))
    return {"/": ("text/html", page.encode()), "/chain-ended": ("text/plain", b""),
            "/library.js": ("text/javascript", b'order.push("library");')}


def test_scripts_from_data_urls_run_in_the_event_that_inserts_them(driver):
    """A ``data:`` URL never reaches the network, where webr4 holds a script until its event: the
    browser runs it a task after its insertion. Each such script runs as part of the event that
    inserted it, so every execution of the page runs the same events in the same order, and the
    page ends as in plain Chromium (the library's response waits for the chain there, as webr4's
    default order has it)."""
    files = _data_url_chain(12)
    chain_ended = threading.Event()

    def respond(path: str):
        if path == "/":
            chain_ended.clear()
        elif path == "/chain-ended":
            chain_ended.set()
        elif path == "/library.js":
            chain_ended.wait(30)
        return files.get(path)

    with route_server(respond) as base:
        url = base + "/"
        plain = driver.plain(url, OUT, until=f"{OUT} !== 'waiting'")
        executions = [driver.execute(url, store=ResponseStore(), live_network=True, capture=Capture())
                      for _ in range(3)]
    assert plain == " ".join(map(str, range(12))) + " chain library"
    assert all(not execution.trace.errors and plain in execution.dom for execution in executions)
    assert len({tuple(execution.trace.sequence) for execution in executions}) == 1
