// Evaluated by `webr4 record --auto` on a plain page: the visible, enabled, non-navigating
// elements with handlers, those of open shadow roots included, each with the action kinds its handler types call for. `explored` is
// the action table's list of kinds --auto tries (webr4/useractions.py), in order.
(explored) => {
  const TYPABLE = /^(text|search|email|url|tel|password|number)$/;
  const listened = window.__webr4ListenerKinds || (() => []);
  const here = location.href.split('#')[0];

  function handlerKinds(el) {
    const kinds = new Set(listened(el));
    for (const name of el.getAttributeNames()) if (name.startsWith('on')) kinds.add(name.slice(2));
    for (const name of ['click', 'change', 'input', 'keydown', 'keyup', 'mouseover', 'mouseenter']) {
      if (typeof el['on' + name] === 'function') kinds.add(name);
    }
    return kinds;
  }
  function visibleAndEnabled(el) {
    const style = getComputedStyle(el);
    return el.getClientRects().length > 0 && style.visibility !== 'hidden' && !el.disabled;
  }
  function navigates(el) {
    const link = el.closest('a[href]');
    if (link) {
      const target = link.href.split('#')[0];
      if (!link.href.startsWith('javascript:') && target !== here) return true;
    }
    const submit = (el.tagName === 'BUTTON' && (el.type || 'submit') === 'submit')
      || (el.tagName === 'INPUT' && (el.type === 'submit' || el.type === 'image'));
    return submit && el.form !== null && el.form.hasAttribute('action');
  }
  // An element of an open shadow root is named as its host's selector, a space, and its path
  // within the root: Playwright's CSS selectors pierce open shadow roots at a space.
  function selector(el) {
    const root = el.getRootNode();
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && root.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
        parts.unshift('#' + CSS.escape(node.id));
        break;
      }
      const tag = node.tagName.toLowerCase();
      const parent = node.parentElement || (node.parentNode === root && root !== document ? root : null);
      const same = Array.from(parent ? parent.children : [node]).filter((sibling) => sibling.tagName === node.tagName);
      parts.unshift(parent ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
    }
    const path = parts.join(' > ');
    return root instanceof ShadowRoot ? `${selector(root.host)} ${path}` : path;
  }
  function* elements(root) {
    for (const el of root.querySelectorAll('*')) {
      yield el;
      if (el.shadowRoot) yield* elements(el.shadowRoot);
    }
  }
  function typable(el) {
    // A readonly field takes no typing: the user cannot change it.
    return el.isContentEditable || (el.tagName === 'TEXTAREA' && !el.readOnly)
      || (el.tagName === 'INPUT' && TYPABLE.test(el.type) && !el.readOnly);
  }
  const ELEMENTS = { any: () => true, typable, select: (el) => el.tagName === 'SELECT' };

  const found = [];
  for (const el of elements(document)) {
    const kinds = handlerKinds(el);
    if (kinds.size === 0 || !visibleAndEnabled(el) || navigates(el)) continue;
    const sel = selector(el);
    const chosen = new Set();
    for (const type of kinds) {
      // Each handler type suggests the first kind that claims it on this element.
      const claim = explored.find((k) => k.handlers.includes(type) && ELEMENTS[k.elements](el));
      if (claim) chosen.add(claim.kind);
    }
    const options = el.tagName === 'SELECT'
      ? Array.from(el.options).filter((o) => !o.disabled && !o.selected).map((o) => o.value) : [];
    for (const kind of chosen) found.push({kind, selector: sel, options});
  }
  return found;
}
