// Serialises the document into a normalised, comparable form: elements with sorted attributes,
// text with runs of white space folded, and the live state the HTML does not show (form values,
// checked and selected state). The harness's own marker scripts never appear. Evaluated by the
// harness as a function expression: (originals) => string, where `originals` (optional) lists
// [served code, page's text] pairs: an inline script, handler attribute or policy of a <meta> tag
// holding served code is shown with the page's own text, as the DOM has it in plain Chromium. A
// frame whose document the page can reach (same-origin) shows it under the frame's element, after
// a `#document` line, so a path inside it names the frame (`iframe#child > html > body > p#out`);
// a cross-origin frame shows only its element.
(originals) => {
  const own = new Map(originals || []);
  const pageText = (text) => (own.has(text) ? own.get(text) : text);
  const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
  const out = [];
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  function attrs(el) {
    const served = (a) => a.name.startsWith("on") || (a.name === "content" && el.localName === "meta");
    const list = [...el.attributes].map((a) => [a.name, served(a) ? pageText(a.value) : a.value]);
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      list.push(["(value)", el.value]);
    }
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) list.push(["(checked)", String(el.checked)]);
    if (el instanceof HTMLOptionElement) list.push(["(selected)", String(el.selected)]);
    list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return list.map(([k, v]) => ` ${k}="${escape(v)}"`).join("");
  }
  function walk(node, depth) {
    const pad = "  ".repeat(depth);
    if (node.nodeType === 3 /* a text node */) {
      const data = node.parentNode && node.parentNode.nodeName === "SCRIPT" ? pageText(node.data) : node.data;
      const text = data.replace(/\s+/g, " ").trim();
      if (text) out.push(pad + escape(text));
      return;
    }
    if (node.nodeType !== 1 /* an element */) return;
    const tag = node.tagName.toLowerCase();
    if (tag === "script" && /\/__webr4__\//.test(node.getAttribute("src") || "")) return;
    out.push(`${pad}<${tag}${attrs(node)}>`);
    const children = tag === "template" ? node.content.childNodes : node.childNodes;
    for (const child of children) walk(child, depth + 1);
    const inner = tag === "iframe" || tag === "frame" ? node.contentDocument : null;
    if (inner && inner.documentElement) { out.push(pad + "  #document"); walk(inner.documentElement, depth + 1); }
    if (node.shadowRoot) { out.push(pad + "  #shadow-root"); for (const child of node.shadowRoot.childNodes) walk(child, depth + 2); }
    if (!VOID.has(tag)) out.push(`${pad}</${tag}>`);
  }
  walk(document.documentElement, 0);
  return out.join("\n");
}
