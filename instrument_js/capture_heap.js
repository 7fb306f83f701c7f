// Captures an abstract JavaScript heap: the values reachable from the page's own globals, as
// plain JSON that two executions can be compared on. Evaluated by the harness at the end of an
// execution as a function expression: (builtins) => object (global name -> abstract value).
//
// * The page's globals are the own properties of window that are not in `builtins`, the names a
//   fresh about:blank window of this page has (window_builtins.js; null when no frame could be
//   made: then the enumerable data properties), minus __webr4*.
//   Globals declared with let/const/class are not properties of window and are not seen.
// * Objects are expanded breadth first, properties in sorted order, to depth 4 (window.a.b.c.d);
//   deeper objects become "<depth limit>". At most 200 properties per object and 2,000 values in
//   all; the rest of an object's properties are summarised as "$more": n (arrays: a last
//   "<n more>" item).
// * An object met again (shared or cyclic) becomes {"$ref": path} with the first path that
//   reached it, written window.a.b[0] (window["odd key"] for non-identifiers).
// * Functions become "<function name>", DOM nodes "<node tag#id.class>", Dates "<date>",
//   numbers under a key that names a timer (timer, timeout, interval, handle, tid, raf)
//   "<timer id>", and other values that do not survive JSON a "<…>" placeholder. Accessor
//   properties are not called: they become "<getter>". Class instances carry "$class".
(builtins) => {
  const MAX_DEPTH = 4;
  const MAX_NODES = 2000;
  const MAX_CHILDREN = 200;
  const MAX_STRING = 200;
  const TIMER_KEY = /timer|timeout|interval|handle|^tid$|raf/i;
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

  function builtinNames() {
    if (builtins) {
      const names = new Set(builtins);
      return (name) => names.has(name);
    }
    return (name) => {
      const d = Object.getOwnPropertyDescriptor(window, name);
      return !d || !d.enumerable || !("value" in d);
    };
  }

  const childPath = (path, key) => path + (typeof key === "number" ? `[${key}]` : IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

  function read(object, key) {
    const d = Object.getOwnPropertyDescriptor(object, key);
    return d && !("value" in d) ? { leaf: "<getter>" } : { value: d ? d.value : undefined };
  }

  function primitive(value, key) {
    switch (typeof value) {
      case "number":
        if (!Number.isFinite(value)) return `<number ${value}>`;
        return typeof key === "string" && TIMER_KEY.test(key) && Number.isInteger(value) && value > 0 ? "<timer id>" : value;
      case "string":
        return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}<… ${value.length} chars>` : value;
      case "boolean":
        return value;
      case "undefined":
        return "<undefined>";
      case "bigint":
        return `<bigint ${value}>`;
      case "symbol":
        return `<symbol ${value.description || ""}>`;
      default:
        return null;
    }
  }

  function nodeText(node) {
    if (node.nodeType !== Node.ELEMENT_NODE) return `<node ${node.nodeName.toLowerCase()}>`;
    const id = node.id ? `#${node.id}` : "";
    const classes = [...node.classList].slice(0, 2).map((c) => `.${c}`).join("");
    return `<node ${node.tagName.toLowerCase()}${id}${classes}>`;
  }

  function leaf(value) {
    // A placeholder for objects that are not expanded, or undefined for those that are.
    if (typeof value === "function") return `<function ${value.name || "anonymous"}>`;
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    if (value === window || value.window === value) return "<window>";
    if (value instanceof Node) return nodeText(value);
    if (tag === "Date") return "<date>";
    if (tag === "RegExp") return `<regexp ${String(value)}>`;
    if (tag === "Promise" || tag === "WeakMap" || tag === "WeakSet" || tag === "WeakRef") return `<${tag}>`;
    if (value instanceof Error) return `<${value.name}: ${value.message}>`;
    if (ArrayBuffer.isView(value) || tag === "ArrayBuffer") return `<${tag} length=${value.byteLength}>`;
    return undefined;
  }

  function entries(value) {
    // [key, {value} | {leaf}] pairs to expand, in a stable order, and the shell to fill.
    if (Array.isArray(value)) {
      const list = [];
      for (let i = 0; i < value.length; i++) list.push([i, read(value, i)]);
      return { shell: [], list };
    }
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    if (tag === "Map") return { shell: { $map: [] }, list: [["$map", { value: [...value.entries()] }]] };
    if (tag === "Set") return { shell: { $set: [] }, list: [["$set", { value: [...value.values()] }]] };
    const shell = {};
    const proto = Object.getPrototypeOf(value);
    const ctor = proto && Object.prototype.hasOwnProperty.call(proto, "constructor") ? proto.constructor : null;
    if (proto !== null && proto !== Object.prototype && ctor && ctor.name) shell.$class = ctor.name;
    const list = Object.getOwnPropertyNames(value).sort().map((key) => [key, read(value, key)]);
    return { shell, list };
  }

  let nodes = 0;
  const seen = new Map(); // object -> first path
  const queue = []; // {slot: {value} | {leaf}, key, path, depth, holder}
  let head = 0;

  function enqueue(holder, key, slot, path, depth) {
    queue.push({ holder, key, slot, path: childPath(path, key), depth });
  }

  function expand(item) {
    const { slot, key, path, depth } = item;
    if ("leaf" in slot) return slot.leaf;
    const value = slot.value;
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return primitive(value, key);
    const placeholder = leaf(value);
    if (placeholder !== undefined) return placeholder;
    if (seen.has(value)) return { $ref: seen.get(value) };
    if (depth > MAX_DEPTH) return "<depth limit>";
    seen.set(value, path);
    const { shell, list } = entries(value);
    const room = Math.max(0, MAX_NODES - nodes);
    const kept = list.slice(0, Math.min(room, MAX_CHILDREN));
    nodes += kept.length;
    for (const [childKey, childSlot] of kept) {
      // a Map's or Set's contents are one array-valued property at the same depth
      const container = childKey === "$map" || childKey === "$set";
      enqueue(shell, childKey, childSlot, path, container ? depth : depth + 1);
    }
    if (kept.length < list.length) {
      const more = list.length - kept.length;
      if (Array.isArray(shell)) { shell.length = kept.length; shell.push(`<${more} more>`); } else shell.$more = more;
    }
    return shell;
  }

  const isBuiltin = builtinNames();
  const globals = {};
  const names = Object.getOwnPropertyNames(window).filter((n) => !n.startsWith("__webr4") && !isBuiltin(n)).sort();
  const room = Math.min(names.length, MAX_NODES);
  nodes = room;
  for (const name of names.slice(0, room)) {
    queue.push({ holder: globals, key: name, slot: read(window, name), path: childPath("window", name), depth: 1 });
  }
  if (room < names.length) globals.$more = names.length - room;
  while (head < queue.length) {
    const item = queue[head++];
    try {
      item.holder[item.key] = expand(item);
    } catch (e) { // a proxy trap or an exotic object that refuses inspection
      item.holder[item.key] = "<unreadable>";
    }
  }
  return globals;
}
