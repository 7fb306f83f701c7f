// Evaluated by `webr4 record --auto` on a plain page: the visible, enabled, non-navigating
// elements with handlers, each with the action kinds its handler types call for. `explored` is
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
  function selector(el) {
    const parts = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && document.querySelectorAll('#' + CSS.escape(node.id)).length === 1) {
        parts.unshift('#' + CSS.escape(node.id));
        break;
      }
      const tag = node.tagName.toLowerCase();
      const same = Array.from(node.parentElement ? node.parentElement.children : [node])
        .filter((sibling) => sibling.tagName === node.tagName);
      parts.unshift(node.parentElement ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
    }
    return parts.join(' > ');
  }
  function typable(el) {
    // A readonly field takes no typing: the user cannot change it.
    return el.isContentEditable || (el.tagName === 'TEXTAREA' && !el.readOnly)
      || (el.tagName === 'INPUT' && TYPABLE.test(el.type) && !el.readOnly);
  }
  const ELEMENTS = { any: () => true, typable, select: (el) => el.tagName === 'SELECT' };

  const found = [];
  for (const el of document.querySelectorAll('*')) {
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
