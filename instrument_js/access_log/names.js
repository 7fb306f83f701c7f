// webr4 access log: naming objects for people, by where the page keeps them.

/* How people can find the objects `ids`: {objects: {id: {base, keys, node, site, ctor}},
   scopes: {scopeId: siteId or null}}. Following first origins from the object outwards,
   `keys` are the property names from `base` down to it and `base` is where the chain starts:
   "global:<name>", "scope:<id>:<name>", or null when an object on the way was never stored
   anywhere logged. `node` is the element key (the DOM log's `nodeKey`) when the chain starts at a DOM
   node that is still alive. `site` (a site id) is where the object at the start of the chain
   was first seen and `ctor` the name of its class; `scopes` gives the site id where each
   closure scope was first seen, for `scopeIds` and the scopes the chains start in. */
log.names = function (ids, scopeIds) {
  var objects = {};
  var wanted = (scopeIds || []).slice();
  for (var i = 0; i < ids.length; i++) {
    var name = objects[ids[i]] = nameOf(ids[i]);
    var scoped = name.base === null ? null : /^scope:([^:]+):/.exec(name.base);
    if (scoped !== null) wanted.push(scoped[1]);
  }
  var scopes = {};
  for (var j = 0; j < wanted.length; j++) {
    scopes[wanted[j]] = scopeSiteOf(wanted[j]);
  }
  return { objects: objects, scopes: scopes };
};

/* `list[index]` where `list` holds it; null otherwise. */
function entryOf(list, index) {
  var entry = index >= 0 && index < list.length ? list[index] : null;
  return entry === undefined ? null : entry;
}

function originOf(id) {
  var origin = entryOf(origins, id);
  return origin === null ? undefined : origin;
}

/* The site where the scope of id `scope` (the text of a number, or a module's id) was first
   seen, or null. */
function scopeSiteOf(scope) {
  if (!/^\d+$/.test(scope)) return moduleScopeSites.has(scope) ? moduleScopeSites.get(scope) : null;
  return entryOf(scopeSites, Number(scope));
}

function nameOf(id) {
  var keys = [];
  var seen = sealed(new Set());
  for (var current = id; ; ) {
    var node = nodes.has(current) ? nodes.get(current).deref() : undefined;
    if (node !== undefined && log.nodeKey) {
      var key = log.nodeKey(node);
      if (key) return { base: null, keys: keys, node: key, site: null, ctor: null };
    }
    var origin = originOf(current);
    var parent = origin === undefined ? null : /^prop:(\d+)\.([\s\S]*)$/.exec(origin);
    if (parent === null || seen.has(current) || keys.length >= 12) {
      return { base: origin === undefined || parent !== null ? null : origin, keys: keys, node: null,
        site: entryOf(firstSites, current),
        ctor: classes.has(current) ? classes.get(current) : null };
    }
    seen.add(current);
    keys.unshift(parent[2]);
    current = Number(parent[1]);
  }
}
