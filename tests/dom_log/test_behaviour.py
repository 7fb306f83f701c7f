"""The interception changes no behaviour, and costs little."""

from __future__ import annotations

import pytest

from webr4.resources import javascript

pytestmark = pytest.mark.browser  # every test here drives Chromium

PAGE = """<!doctype html><html><body>
<div id="box" class="a">text</div>
<ul id="list"><li>one</li><li>two</li></ul>
<form><input id="field" value="x"><input id="tick" type="checkbox"><select id="pick"><option>a</option><option>b</option></select></form>
<details id="more"><summary>more</summary>x</details><dialog id="note">n</dialog><button id="go">go</button>
</body></html>"""

# DOM operations whose results (values, errors, descriptors) must not change.
SUITE = r"""() => {
  const out = [];
  const note = (label, f) => {
    try { out.push([label, f()]); } catch (e) { out.push([label, "throws " + e.name + ": " + e.message]); }
  };
  const box = document.getElementById("box"), list = document.querySelector("#list");
  note("text", () => { box.textContent = "new"; return box.textContent; });
  note("html", () => { box.innerHTML = "<b>bold</b> x"; return [box.innerHTML, box.innerText, box.outerHTML]; });
  note("children", () => [list.children.length, list.childNodes.length, list.firstChild.nodeName]);
  note("append", () => { const li = document.createElement("li"); return list.appendChild(li) === li; });
  note("append-null", () => list.appendChild(null));
  note("insert", () => list.insertBefore(document.createElement("li"), list.firstChild).outerHTML);
  note("remove", () => list.removeChild(list.lastChild).outerHTML);
  note("remove-stranger", () => list.removeChild(document.createElement("p")));
  note("adjacent", () => { box.insertAdjacentHTML("beforeend", "<i>i</i>"); return box.insertAdjacentText("bad", "t"); });
  note("variadic", () => { box.append("a", document.createElement("em")); box.prepend("z"); return box.childNodes.length; });
  note("replace", () => { box.replaceChildren("b", document.createElement("em")); return box.childNodes.length; });
  note("attributes", () => { box.setAttribute("data-k", "1"); box.toggleAttribute("hidden"); return [box.getAttribute("data-k"), box.toggleAttribute("hidden"), box.removeAttribute("data-k")]; });
  note("class", () => { box.classList.add("b", "c"); box.classList.toggle("a"); return [box.className, box.classList.contains("b"), box.classList.length, [...box.classList].join()]; });
  note("style", () => { box.style.color = "red"; box.style.setProperty("margin-top", "2px"); box.style.cssText += ";padding: 1px";
    return [box.style.color, box.style.length, box.style[0], box.getAttribute("style"), box.style === box.style, box.style instanceof CSSStyleDeclaration, Object.keys(box.style).length > 0]; });
  note("dataset", () => { box.dataset.fooBar = "x"; delete box.dataset.k; return [box.dataset.fooBar, box.dataset === box.dataset, Object.keys(box.dataset).join(), "fooBar" in box.dataset, box.dataset instanceof DOMStringMap]; });
  note("form", () => { const f = document.getElementById("field"), t = document.getElementById("tick"), s = document.getElementById("pick");
    f.value = "typed"; t.checked = true; s.options[1].selected = true; return [f.value, t.checked, s.value, s.selectedIndex]; });
  note("reflected", () => { const field = document.getElementById("field"), go = document.getElementById("go"),
    more = document.getElementById("more"), dialog = document.getElementById("note");
    box.hidden = true; go.disabled = true; more.open = true; field.readOnly = true; dialog.show();
    const seen = [box.hidden, box.getAttribute("hidden"), go.disabled, more.open, field.readOnly, dialog.open];
    dialog.close(); dialog.showModal(); seen.push(dialog.open); try { dialog.show(); } catch (e) { seen.push(e.name); }
    dialog.close(); return seen.concat(dialog.open, Object.getOwnPropertyDescriptor(HTMLElement.prototype, "hidden").set.name,
      HTMLDialogElement.prototype.showModal.name, HTMLDialogElement.prototype.showModal.length); });
  note("query", () => [document.querySelectorAll("li").length, document.querySelector("#nope"), document.getElementById("nope")]);
  note("bad-selector", () => document.querySelector("##"));
  note("listeners", () => { let n = 0; const f = () => n++; box.addEventListener("click", f); box.click(); box.removeEventListener("click", f); box.click();
    box.onclick = () => n += 10; box.click(); return [n, typeof box.onclick, window.onload, document.onclick]; });
  note("storage", () => { localStorage.setItem("k", 1); localStorage.j = "2"; const r = [localStorage.getItem("k"), localStorage.j, localStorage.length, Object.keys(localStorage).sort().join(),
    localStorage instanceof Storage, String(localStorage), localStorage.key(5), "j" in localStorage]; delete localStorage.j; localStorage.clear(); return r.concat(localStorage.length); });
  note("storage-receiver", () => Storage.prototype.getItem.call({}, "k"));
  note("cookie", () => { document.cookie = "a=1"; document.cookie = "b=2; path=/"; return document.cookie; });
  note("wrong-receiver", () => Object.getOwnPropertyDescriptor(Node.prototype, "textContent").get.call({}));
  note("construct", () => new list.appendChild(document.createElement("li")));
  note("shape", () => [Node.prototype.appendChild.name, Node.prototype.appendChild.length, "prototype" in Node.prototype.appendChild,
    Object.keys(Element.prototype).includes("innerHTML"), Object.getOwnPropertyDescriptor(Node.prototype, "textContent").get.name,
    Object.getOwnPropertyDescriptor(window, "onclick").enumerable, Object.getOwnPropertyDescriptor(window, "localStorage").enumerable,
    EventTarget.prototype.addEventListener.length, Storage.prototype.setItem.length]);
  return out;
}"""


def test_results_and_dom_are_unchanged(open_page):
    capture = javascript("capture_dom.js")
    results = {}
    for logged in (False, True):
        page = open_page(PAGE, logged=logged)
        results[logged] = (page.evaluate(SUITE), page.evaluate(capture))
    assert results[True][0] == results[False][0]
    assert results[True][1] == results[False][1]


PERF = """async ([n, observed]) => {
  if (observed && !window.observer) {
    // Like the runtime's own observer, which every controlled page has.
    window.observer = new MutationObserver(() => {});
    observer.observe(document, { childList: true, subtree: true });
  }
  const el = document.getElementById("box");
  const start = performance.now();
  for (let i = 0; i < n; i++) el.textContent = "price " + i;
  await null; // includes the MutationObserver deliveries
  const elapsed = performance.now() - start;
  if (window.__webr4) __webr4.log.flush();
  return elapsed;
}"""


def test_slowdown_of_text_content_writes(open_page):
    pages = {logged: open_page(PAGE, logged=logged) for logged in (False, True)}
    for observed in (False, True):
        timings = {}
        for logged, page in pages.items():
            page.evaluate(PERF, [1000, observed])  # warm up
            timings[logged] = min(page.evaluate(PERF, [10_000, observed]) for _ in range(5))
        print(f"\n10,000 textContent writes{' beside a MutationObserver' if observed else ''}: "
              f"{timings[False]:.1f} ms plain, {timings[True]:.1f} ms logged, "
              f"slowdown {timings[True] / timings[False]:.2f}x")
