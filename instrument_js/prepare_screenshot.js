// Readies the main frame for a full-page screenshot the way Playwright's page.screenshot() does
// by default, and measures the page as it does, so that the harness can take the same picture
// with one capture call instead of Playwright's several round trips:
// * every caret is hidden: input, textarea and contenteditable elements, in the document and in
//   every shadow root, get an inline `caret-color: transparent !important` (a blinking caret
//   would make two pictures of the same state differ);
// * web fonts that are loading are waited for (document.fonts.ready);
// * the page's size is the largest of the scroll, offset and client sizes of body and root.
// Evaluated by the harness as a function expression: async () => {width, height}, or null, with
// nothing changed, when the document has no body or no root element (the harness then leaves
// the picture to Playwright). __webr4.afterScreenshot() puts the carets' inline styles back.
async () => {
  if (!document.body || !document.documentElement) return null;
  const roots = [];
  const collect = (root) => {
    roots.push(root);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    do {
      const node = walker.currentNode;
      const shadow = node instanceof Element ? node.shadowRoot : null;
      if (shadow) collect(shadow);
    } while (walker.nextNode());
  };
  collect(document);
  const saved = [];
  for (const root of roots) {
    // Indexed, not forEach: a Shadow DOM polyfill hands out a NodeList of its own that lacks it.
    const editable = root.querySelectorAll("input,textarea,[contenteditable]");
    for (let i = 0; i < editable.length; i++) {
      const element = editable[i];
      saved.push([element, element.style.getPropertyValue("caret-color"), element.style.getPropertyPriority("caret-color")]);
      element.style.setProperty("caret-color", "transparent", "important");
    }
  }
  window.__webr4.afterScreenshot = () => {
    for (const [element, value, priority] of saved) element.style.setProperty("caret-color", value, priority);
  };
  try {
    await document.fonts.ready;
  } catch (e) {
    // as Playwright: a failed font load does not stop the picture
  }
  const body = document.body;
  const root = document.documentElement;
  return {
    width: Math.max(body.scrollWidth, root.scrollWidth, body.offsetWidth, root.offsetWidth, body.clientWidth, root.clientWidth),
    height: Math.max(body.scrollHeight, root.scrollHeight, body.offsetHeight, root.offsetHeight, body.clientHeight, root.clientHeight),
  };
}
